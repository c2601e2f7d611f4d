#include "remote/credentials.h"

#include "base/strings.h"

namespace netdoctor::remote {

Result<BasicAuth> parse_credentials(std::string_view text, std::string_view source) {
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == line.size()) {
      break;
    }
    return BasicAuth{std::string(line.substr(0, colon)), std::string(line.substr(colon + 1))};
  }
  return make_error(ErrorCode::InvalidArgument,
                    "credentials must be one line \"user:password\" (content not shown)",
                    std::string(source));
}

}  // namespace netdoctor::remote
