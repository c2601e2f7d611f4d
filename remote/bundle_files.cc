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

bool is_safe_component(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) {
    return false;
  }
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

}  // namespace netdoctor::remote
