// Folds one host's capture (what `collect --out -` streamed back) into a cluster bundle.
#pragma once

#include <cstddef>
#include <string>

#include "base/file_tree.h"
#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor::collect {

// Copies every file under the capture's single hosts/<name>/ into `out` as hosts/<host>/...:
// the name the host list used wins over the one the host gave itself. Returns the number of
// files copied; InvalidArgument when the capture holds no host or several.
Result<std::size_t> merge_host_capture(const FileTree& capture, const std::string& host,
                                       TreeWriter& out);

// Copies the capture's fabric/ (InfiniBand fabric views) into `out` as it is; 0 when it has none.
Result<std::size_t> merge_fabric_capture(const FileTree& capture, TreeWriter& out);

}  // namespace netdoctor::collect
