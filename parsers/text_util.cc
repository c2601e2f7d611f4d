#include "parsers/text_util.h"

#include <cctype>

#include "base/strings.h"

namespace netdoctor::parsers::detail {

Status check_text(std::string_view text) {
  if (trim(text).empty()) {
    return parse_error("empty input");
  }
  // Counted without branches (every parsed output goes through here): NULs, and control bytes
  // other than the whitespace ones and ESC.
  constexpr std::uint32_t k_allowed =
      (1u << '\t') | (1u << '\n') | (1u << '\v') | (1u << '\f') | (1u << '\r') | (1u << 0x1b);
  std::size_t nul = 0;
  std::size_t control = 0;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    nul += u == 0 ? 1u : 0u;
    control += (u < 0x20 && ((k_allowed >> (u & 31u)) & 1u) == 0) ? 1u : 0u;
  }
  if (nul > 0) {
    return parse_error("binary input (NUL bytes)");
  }
  if (control * 20 > text.size()) {
    return parse_error("binary input (control bytes)");
  }
  return {};
}

bool is_prompt_line(std::string_view line) {
  line = trim(line);
  if (line.starts_with("$ ") || line == "$" || line.starts_with("# ") || line == "#") {
    return true;
  }
  // user@host...$ or user@host...# before the first space-separated command.
  auto at = line.find('@');
  if (at == std::string_view::npos || at == 0) {
    return false;
  }
  auto end = line.find_first_of("$#", at);
  if (end == std::string_view::npos) {
    return false;
  }
  std::string_view head = line.substr(0, end);
  // The prompt itself has no spaces except inside "[user@host dir]".
  if (head.starts_with("[")) {
    return head.find(']') != std::string_view::npos || head.find(' ') != std::string_view::npos;
  }
  return head.find(' ') == std::string_view::npos;
}

std::string_view strip_quote(std::string_view line) {
  for (;;) {
    std::string_view t = trim_left(line);
    if (!t.starts_with('>')) {
      return line;
    }
    t.remove_prefix(1);
    if (t.starts_with(' ')) {
      t.remove_prefix(1);
    }
    line = t;
  }
}

std::optional<KeyValue> split_key_value(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  return KeyValue{trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

std::optional<std::uint64_t> leading_u64(std::string_view s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n])) != 0) {
    ++n;
  }
  if (n == 0) {
    return std::nullopt;
  }
  return parse_u64(s.substr(0, n));
}

std::optional<std::uint64_t> paren_u64(std::string_view s) {
  auto open = s.rfind('(');
  auto close = s.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  return parse_u64(s.substr(open + 1, close - open - 1));
}

std::string_view before_paren(std::string_view s) {
  auto open = s.find('(');
  return trim(open == std::string_view::npos ? s : s.substr(0, open));
}

Error parse_error(std::string message) {
  return make_error(ErrorCode::Parse, std::move(message));
}

}  // namespace netdoctor::parsers::detail
