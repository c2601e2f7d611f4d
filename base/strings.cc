#include "base/strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace netdoctor {
namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
}  // namespace

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) {
    s.remove_prefix(1);
  }
  return s;
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_space(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

std::string_view trim(std::string_view s) {
  return trim_right(trim_left(s));
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  while (!s.empty()) {
    auto nl = s.find('\n');
    std::string_view line = s.substr(0, nl);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    lines.push_back(line);
    if (nl == std::string_view::npos) {
      break;
    }
    s.remove_prefix(nl + 1);
  }
  return lines;
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) {
      ++i;
    }
    std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) {
      ++i;
    }
    if (i > start) {
      out.push_back(s.substr(start, i - start));
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::vector<std::string_view> split_wide(std::string_view s) {
  std::vector<std::string_view> out;
  s = trim(s);
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    // A tab alone also separates: perftest mixes single tabs with runs of spaces.
    if (is_space(s[i]) && (s[i] == '\t' || (i + 1 < s.size() && is_space(s[i + 1])))) {
      out.push_back(trim(s.substr(start, i - start)));
      while (i < s.size() && is_space(s[i])) {
        ++i;
      }
      start = i;
    } else {
      ++i;
    }
  }
  if (start < s.size()) {
    out.push_back(trim(s.substr(start)));
  }
  std::erase_if(out, [](std::string_view v) { return v.empty(); });
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.starts_with(prefix);
}
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.ends_with(suffix);
}
bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += sep;
    }
    out += parts[i];
  }
  return out;
}

std::string name_some(const std::vector<std::string>& names, std::size_t shown) {
  const std::size_t count = std::min(shown, names.size());
  std::string out = join({names.begin(), names.begin() + static_cast<std::ptrdiff_t>(count)}, ", ");
  if (names.size() > count) {
    out += " (+" + std::to_string(names.size() - count) + " more)";
  }
  return out;
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  s = trim(s);
  if (s.empty()) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> parse_i64(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
  }
  if (s.empty()) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
  }
  if (s.empty()) {
    return std::nullopt;
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> parse_grouped_u64(std::string_view s) {
  s = trim(s);
  std::string digits;
  digits.reserve(s.size());
  for (char c : s) {
    if (c == ',') {
      continue;
    }
    digits.push_back(c);
  }
  return parse_u64(digits);
}

std::optional<std::uint64_t> parse_hex(std::string_view s) {
  s = trim(s);
  if (s.starts_with("0x") || s.starts_with("0X")) {
    s.remove_prefix(2);
  }
  if (s.empty()) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return value;
}

namespace {

void append_escape(std::string& out, const char* prefix, unsigned value, int digits) {
  constexpr const char* k_hex = "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    out += k_hex[(value >> shift) & 0xf];
  }
}

// The length of the valid UTF-8 sequence at the start of `s` (shortest form, no surrogates,
// at most U+10FFFF) and its code point; 0 when `s` does not start with one.
std::size_t utf8_sequence(std::string_view s, char32_t& code_point) {
  const auto lead = static_cast<unsigned char>(s[0]);
  std::size_t length = 0;
  char32_t min = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code_point = lead & 0x1f;
    min = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code_point = lead & 0x0f;
    min = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code_point = lead & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (s.size() < length) {
    return 0;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(s[i]);
    if ((byte & 0xc0) != 0x80) {
      return 0;
    }
    code_point = (code_point << 6) | (byte & 0x3f);
  }
  const bool surrogate = code_point >= 0xd800 && code_point <= 0xdfff;
  return code_point < min || surrogate || code_point > 0x10ffff ? 0 : length;
}

bool is_c1_or_bidi(char32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9f) ||
         (code_point >= 0x202a && code_point <= 0x202e) ||
         (code_point >= 0x2066 && code_point <= 0x2069);
}

std::string escape_controls(std::string_view s, bool keep_line_breaks) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto byte = static_cast<unsigned char>(s[i]);
    if (byte < 0x80) {
      const bool kept = keep_line_breaks && (byte == '\n' || byte == '\t');
      if ((byte < 0x20 || byte == 0x7f) && !kept) {
        append_escape(out, "\\x", byte, 2);
      } else {
        out += s[i];
      }
      ++i;
      continue;
    }
    char32_t code_point = 0;
    const std::size_t length = utf8_sequence(s.substr(i), code_point);
    if (length == 0) {
      // Not UTF-8: a raw 8-bit C1 control is escaped, any other stray byte kept.
      if (byte <= 0x9f) {
        append_escape(out, "\\x", byte, 2);
      } else {
        out += s[i];
      }
      ++i;
    } else {
      if (is_c1_or_bidi(code_point)) {
        append_escape(out, "\\u", static_cast<unsigned>(code_point), 4);
      } else {
        out.append(s, i, length);
      }
      i += length;
    }
  }
  return out;
}

}  // namespace

std::string printable(std::string_view s) {
  return escape_controls(s, false);
}

std::string terminal_text(std::string_view s) {
  return escape_controls(s, true);
}

std::string markdown_cell(std::string_view s, CellControls controls) {
  const bool escape = controls == CellControls::Printable;
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || (escape && c == '\r')) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return escape ? printable(out) : out;
}

std::string markdown_text(std::string_view s) {
  // CommonMark lets any ASCII punctuation be backslash-escaped; these are the ones that open
  // inline markup, links, raw HTML or entities. '>' is markup only at a line's start, where
  // this text never is (markdown_cell folds newlines).
  constexpr std::string_view k_markup = "\\`*_[]<&";
  std::string escaped;
  escaped.reserve(s.size());
  for (char c : s) {
    if (k_markup.find(c) != std::string_view::npos) {
      escaped += '\\';
    }
    escaped += c;
  }
  return markdown_cell(escaped);
}

namespace {

// The length of the run of backticks starting at `pos`.
std::size_t backtick_run(std::string_view s, std::size_t pos) {
  std::size_t end = pos;
  while (end < s.size() && s[end] == '`') {
    ++end;
  }
  return end - pos;
}

// Where the next run of exactly `length` backticks starts at or after `from`; npos if none.
std::size_t closing_run(std::string_view s, std::size_t from, std::size_t length) {
  for (std::size_t pos = s.find('`', from); pos != std::string_view::npos;) {
    const std::size_t run = backtick_run(s, pos);
    if (run == length) {
      return pos;
    }
    pos = s.find('`', pos + run);
  }
  return std::string_view::npos;
}

}  // namespace

std::string markdown_code(std::string_view s) {
  std::string content;
  content.reserve(s.size());
  for (char c : s) {
    content += c == '\n' || c == '\r' ? ' ' : c;
  }
  content = printable(content);
  std::size_t longest = 0;
  for (std::size_t pos = 0; pos < content.size(); ++pos) {
    const std::size_t run = backtick_run(content, pos);
    longest = std::max(longest, run);
    pos += run;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !content.empty() && (content.front() == '`' || content.back() == '`');
  const std::string space = pad ? " " : "";
  return fence + space + content + space + fence;
}

std::string markdown_with_code(std::string_view s) {
  std::string out;
  std::size_t text_start = 0;
  std::size_t pos = s.find('`');
  while (pos != std::string_view::npos) {
    const std::size_t run = backtick_run(s, pos);
    const std::size_t close = closing_run(s, pos + run, run);
    if (close == std::string_view::npos) {
      // An opener without its closer is literal text (markdown_text escapes each backtick).
      pos = s.find('`', pos + run);
      continue;
    }
    out += markdown_text(s.substr(text_start, pos - text_start));
    out += markdown_code(s.substr(pos + run, close - pos - run));
    text_start = close + run;
    pos = s.find('`', text_start);
  }
  out += markdown_text(s.substr(text_start));
  return out;
}

std::string shell_quote(std::string_view word, std::string_view plain_punctuation) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           plain_punctuation.find(c) != std::string_view::npos;
  });
  if (plain) {
    return std::string(word);
  }
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table at a time: distances from a[0..i) to each b[0..j).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      const std::size_t a_start = i;
      const std::size_t b_start = j;
      while (i < a.size() && is_digit(a[i])) {
        ++i;
      }
      while (j < b.size() && is_digit(b[j])) {
        ++j;
      }
      // Compare the runs as numbers without parsing: skip leading zeros, then length, then bytes.
      std::string_view x = a.substr(a_start, i - a_start);
      std::string_view y = b.substr(b_start, j - b_start);
      const std::string_view x_value = x.substr(std::min(x.find_first_not_of('0'), x.size()));
      const std::string_view y_value = y.substr(std::min(y.find_first_not_of('0'), y.size()));
      if (x_value.size() != y_value.size()) {
        return x_value.size() < y_value.size();
      }
      if (x_value != y_value) {
        return x_value < y_value;
      }
      continue;
    }
    if (a[i] != b[j]) {
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    }
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) {
    return a.size() - i < b.size() - j;
  }
  return a < b;  // equal as numbers ("s010", "s10"): bytes decide, so the order is total
}

}  // namespace netdoctor
