// Files that hold secrets (switch API credentials): read only when they are regular files
// owned by the current user with no permission bits for group or others, as ssh insists for
// private keys. The content never appears in an error.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace netdoctor {

// NotFound, PermissionDenied, Refused (a symlink, not a regular file, another owner, or a
// mode letting group/others read or write it: "chmod 600"), Io. Context is the path.
Result<std::string> read_private_file(const std::string& path, std::uint64_t max_bytes = 64u << 10);

}  // namespace netdoctor
