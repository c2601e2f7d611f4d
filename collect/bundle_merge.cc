#include "collect/bundle_merge.h"

#include <fmt/format.h>

#include <vector>

namespace netdoctor::collect {
namespace {

Result<std::size_t> copy_dir(const FileTree& capture, const std::string& from,
                             const std::string& to, TreeWriter& out) {
  ND_TRY_ASSIGN(std::vector<DirEntry> entries, capture.list(from));
  std::size_t copied = 0;
  for (const auto& entry : entries) {
    const std::string source = from + "/" + entry.name;
    const std::string target = to + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      ND_TRY_ASSIGN(std::size_t inner, copy_dir(capture, source, target, out));
      copied += inner;
    } else if (entry.kind == DirEntry::Kind::File) {
      ND_TRY_ASSIGN(std::string content, capture.read(source));
      ND_TRY(out.write_file(target, content));
      ++copied;
    }
  }
  return copied;
}

}  // namespace

Result<std::size_t> merge_host_capture(const FileTree& capture, const std::string& host,
                                       TreeWriter& out) {
  auto listed = capture.list("hosts");
  if (!listed.ok()) {
    return make_error(ErrorCode::InvalidArgument, "the capture holds no hosts/ directory",
                      capture.describe());
  }
  std::vector<std::string> names;
  for (const auto& entry : *listed) {
    if (entry.kind == DirEntry::Kind::Dir) {
      names.push_back(entry.name);
    }
  }
  if (names.size() != 1) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("expected one host in the capture, found {}", names.size()),
                      capture.describe());
  }
  return copy_dir(capture, "hosts/" + names.front(), "hosts/" + host, out);
}

Result<std::size_t> merge_fabric_capture(const FileTree& capture, TreeWriter& out) {
  if (!capture.list("fabric").ok()) {
    return std::size_t{0};
  }
  return copy_dir(capture, "fabric", "fabric", out);
}

}  // namespace netdoctor::collect
