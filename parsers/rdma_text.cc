#include "parsers/rdma_text.h"

#include <limits>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers::detail {

std::vector<std::string_view> content_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (!line.empty() && !is_prompt_line(line)) {
      lines.push_back(line);
    }
  }
  return lines;
}

std::optional<std::uint32_t> parse_u32(std::string_view text) {
  auto value = parse_u64(text);
  if (!value || *value > std::numeric_limits<std::uint32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*value);
}

std::optional<DevPort> split_dev_port(std::string_view token) {
  auto slash = token.rfind('/');
  if (slash == std::string_view::npos || slash == 0) {
    return std::nullopt;
  }
  DevPort out{token.substr(0, slash), std::nullopt};
  std::string_view port = token.substr(slash + 1);
  if (port == "-") {
    return out;
  }
  out.port = parse_u32(port);
  if (!out.port) {
    return std::nullopt;
  }
  return out;
}

std::vector<NameValue> name_value_pairs(std::span<const std::string_view> tokens) {
  std::vector<NameValue> pairs;
  pairs.reserve((tokens.size() + 1) / 2);
  for (std::size_t i = 0; i < tokens.size(); i += 2) {
    pairs.emplace_back(tokens[i], i + 1 < tokens.size() ? tokens[i + 1] : std::string_view());
  }
  return pairs;
}

std::optional<std::string_view> without_colon(std::string_view token) {
  if (token.size() < 2 || !token.ends_with(':')) {
    return std::nullopt;
  }
  return token.substr(0, token.size() - 1);
}

}  // namespace netdoctor::parsers::detail
