#include "remote/bundle_files.h"

#include <algorithm>

#include "base/file_tree.h"

namespace netdoctor::remote {

Result<Bundle> open_bundle_files(const BundleFiles& files, const std::string& name) {
  auto tree = std::make_shared<MemTree>(name);
  tree->set_track_reads(false);  // the loader reads hosts from several threads
  for (const auto& [path, content] : files.files) {
    tree->add_file(path, content);
  }
  ND_TRY_ASSIGN(Bundle bundle, open_bundle_tree(tree, name));
  bundle.problems.insert(bundle.problems.begin(), files.problems.begin(), files.problems.end());
  return bundle;
}

Status write_bundle_files(const BundleFiles& files, TreeWriter& writer) {
  for (const auto& [path, content] : files.files) {
    ND_TRY(writer.write_file(path, content));
  }
  return {};
}

namespace {

Status write_dir(const FileTree& tree, const std::string& dir, TreeWriter& writer) {
  ND_TRY_ASSIGN(auto entries, tree.list(dir));
  for (const auto& entry : entries) {
    const std::string path = dir.empty() ? entry.name : dir + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      ND_TRY(write_dir(tree, path, writer));
    } else if (entry.kind == DirEntry::Kind::File) {
      ND_TRY_ASSIGN(std::string content, tree.read(path));
      ND_TRY(writer.write_file(path, content));
    }
  }
  return {};
}

}  // namespace

Status write_tree_files(const FileTree& tree, TreeWriter& writer) {
  return write_dir(tree, "", writer);
}

bool is_safe_component(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) {
    return false;
  }
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

}  // namespace netdoctor::remote
