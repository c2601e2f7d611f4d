// Switch API credentials: "user:password" on the first line that is not blank or a '#'
// comment (the password may itself hold ':'), from a file only its owner can read (see
// base/private_file.h) or from the environment. Messages about bad credentials never quote
// the text.
#pragma once

#include <string_view>

#include "base/result.h"
#include "remote/http_client.h"

namespace netdoctor::remote {

// The environment variable the CLI reads when no credentials file is given.
inline constexpr const char* k_credentials_env = "NETDOCTOR_SWITCH_CREDENTIALS";

// InvalidArgument (context `source`) when no line holds "user:password" with both parts.
Result<BasicAuth> parse_credentials(std::string_view text, std::string_view source);

}  // namespace netdoctor::remote
