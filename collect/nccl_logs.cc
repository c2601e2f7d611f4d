#include "collect/nccl_logs.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "base/file_tree.h"
#include "collect/host_collector.h"

namespace netdoctor::collect {
namespace {

// A job at scale logs a few hundred bytes per rank and channel; far beyond this is not a log.
constexpr std::uint64_t k_max_log_bytes = 512ull << 20;

// "ranks.log" -> "ranks-2.log" for the second file of that name.
std::string unique_name(const std::string& name, std::set<std::string>& used) {
  std::string candidate = name;
  const auto dot = name.rfind('.');
  const std::string stem = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
  const std::string ext = stem.size() == name.size() ? "" : name.substr(dot);
  for (int n = 2; used.count(candidate) != 0; ++n) {
    candidate = fmt::format("{}-{}{}", stem, n, ext);
  }
  used.insert(candidate);
  return candidate;
}

Result<std::string> read_log(const std::string& file) {
  const std::filesystem::path path(file);
  const std::string parent = path.has_parent_path() ? path.parent_path().string() : ".";
  TreeLimits limits;
  limits.max_file_bytes = k_max_log_bytes;
  ND_TRY_ASSIGN(auto tree, open_dir_tree(parent, limits));
  return tree->read(path.filename().string());
}

}  // namespace

Result<NcclLogsReport> copy_nccl_logs(const std::vector<std::string>& files, const std::string& job,
                                      TreeWriter& out) {
  if (auto status = check_host_name(job); !status.ok()) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("NCCL job name '{}' cannot be one directory name", job));
  }
  NcclLogsReport report;
  std::set<std::string> used;
  for (const std::string& file : files) {
    auto text = read_log(file);
    const std::string name = std::filesystem::path(file).filename().string();
    if (!text.ok() || name.empty()) {
      report.notes.push_back(
          fmt::format("NCCL log {} not copied: {}", file,
                      text.ok() ? std::string("not a file name") : text.error().describe()));
      continue;
    }
    ND_TRY(out.write_file(fmt::format("nccl/{}/{}", job, unique_name(name, used)), *text));
    ++report.copied;
  }
  return report;
}

}  // namespace netdoctor::collect
