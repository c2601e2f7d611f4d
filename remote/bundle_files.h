// BundleFiles: a bundle (spec/bundle.md) built in memory from remote answers, path -> content,
// plus the problems met building it. It becomes a MemTree to diagnose directly, or is written
// through a TreeWriter (collect, --save-bundle).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor::remote {

struct BundleFiles {
  std::map<std::string, std::string> files;  // relative path -> content
  std::vector<Error> problems;               // per source; the rest was built
};

// A bundle over the files, named `name` in messages ("prometheus http://..."). Problems are
// carried into the bundle's own. Fails only when the files do not form a bundle at all.
Result<Bundle> open_bundle_files(const BundleFiles& files, const std::string& name);

// Writes every file; stops at the first failed write.
Status write_bundle_files(const BundleFiles& files, TreeWriter& writer);
// Every file of `tree`, the same way.
Status write_tree_files(const FileTree& tree, TreeWriter& writer);

// True when `name` can be one path component: not empty, not "." or "..", no '/', no NUL,
// no control characters. Label values and switch names from outside are checked with it.
bool is_safe_component(std::string_view name);

}  // namespace netdoctor::remote
