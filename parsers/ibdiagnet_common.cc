#include "parsers/ibdiagnet_common.h"

#include "base/strings.h"

namespace netdoctor::parsers::ibdiag {

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;      // inside quotes
  bool was_quoted = false;  // this field had quotes: keep its spaces
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      was_quoted = true;
    } else if (c == ',') {
      out.push_back(was_quoted ? field : std::string(trim(field)));
      field.clear();
      was_quoted = false;
    } else {
      field += c;
    }
  }
  out.push_back(was_quoted ? field : std::string(trim(field)));
  return out;
}

bool not_available(std::string_view text) {
  text = trim(text);
  return text.empty() || text == "N/A" || text == "NA" || text == "-1";
}

std::optional<std::uint64_t> number(std::string_view text) {
  text = trim(text);
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    if (text.empty() || text.size() > 16) {
      return std::nullopt;
    }
    return parse_hex(text);
  }
  return parse_u64(text);
}

std::optional<std::uint64_t> counter(std::string_view text) {
  auto value = number(text);
  if (value && *value >= 0xfffffffffffffffeull) {
    return std::nullopt;
  }
  return value;
}

bool is_comment(std::string_view line) {
  return trim_left(line).starts_with('#');
}

}  // namespace netdoctor::parsers::ibdiag
