#include "tests/browser/dom_scan.h"

#include <cctype>
#include <cstdint>
#include <sstream>

namespace netdoctor::testing {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// The position of the first `needle` at or after `from`, ignoring case; npos when none.
std::size_t find_nocase(std::string_view text, std::string_view needle, std::size_t from) {
  for (std::size_t i = from; i + needle.size() <= text.size(); ++i) {
    if (lower(text.substr(i, needle.size())) == needle) {
      return i;
    }
  }
  return std::string_view::npos;
}

// Reads the attributes of a start tag from `i` (just past its name) to its '>'; returns the
// position after the '>'.
std::size_t read_attributes(std::string_view html, std::size_t i, DomElement& element) {
  while (i < html.size() && html[i] != '>') {
    if (is_space(html[i]) || html[i] == '/') {
      ++i;
      continue;
    }
    const std::size_t name_start = i;
    while (i < html.size() && !is_space(html[i]) && html[i] != '=' && html[i] != '>' &&
           html[i] != '/') {
      ++i;
    }
    const std::string name = lower(html.substr(name_start, i - name_start));
    std::string value;
    if (i < html.size() && html[i] == '=') {
      ++i;
      if (i < html.size() && (html[i] == '"' || html[i] == '\'')) {
        const char quote = html[i++];
        const std::size_t end = html.find(quote, i);
        const std::size_t stop = end == std::string_view::npos ? html.size() : end;
        value = decode_entities(html.substr(i, stop - i));
        i = stop == html.size() ? stop : stop + 1;
      } else {
        const std::size_t value_start = i;
        while (i < html.size() && !is_space(html[i]) && html[i] != '>') {
          ++i;
        }
        value = decode_entities(html.substr(value_start, i - value_start));
      }
    }
    element.attrs.emplace(name, std::move(value));
  }
  return i < html.size() ? i + 1 : i;
}

}  // namespace

const std::string& DomElement::get(const std::string& attr) const {
  static const std::string k_none;
  const auto found = attrs.find(attr);
  return found == attrs.end() ? k_none : found->second;
}

bool DomElement::has_class(std::string_view token) const {
  std::istringstream classes(get("class"));
  for (std::string word; classes >> word;) {
    if (word == token) {
      return true;
    }
  }
  return false;
}

std::string decode_entities(std::string_view text) {
  static const std::map<std::string, std::uint32_t, std::less<>> k_named = {
      {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", 0xa0}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t semi = text[i] == '&' ? text.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 10) {
      out += text[i];
      continue;
    }
    const std::string_view ref = text.substr(i + 1, semi - i - 1);
    std::uint32_t code = 0;
    bool known = false;
    if (ref.size() > 1 && ref[0] == '#') {
      const bool hex = ref[1] == 'x' || ref[1] == 'X';
      try {
        code = static_cast<std::uint32_t>(
            std::stoul(std::string(ref.substr(hex ? 2 : 1)), nullptr, hex ? 16 : 10));
        known = true;
      } catch (const std::exception&) {
        known = false;
      }
    } else if (const auto named = k_named.find(ref); named != k_named.end()) {
      code = named->second;
      known = true;
    }
    if (!known) {
      out += text[i];
      continue;
    }
    append_utf8(out, code);
    i = semi;
  }
  return out;
}

std::vector<DomElement> scan_elements(std::string_view html) {
  std::vector<DomElement> elements;
  std::size_t i = html.find('<');
  while (i != std::string_view::npos && i + 1 < html.size()) {
    if (html.substr(i, 4) == "<!--") {
      const std::size_t end = html.find("-->", i + 4);
      i = end == std::string_view::npos ? end : html.find('<', end + 3);
      continue;
    }
    if (html[i + 1] == '!' || html[i + 1] == '?' || html[i + 1] == '/' ||
        std::isalpha(static_cast<unsigned char>(html[i + 1])) == 0) {
      const std::size_t end = html.find('>', i + 1);
      i = end == std::string_view::npos ? end : html.find('<', end + 1);
      continue;
    }
    DomElement element;
    std::size_t j = i + 1;
    while (j < html.size() && !is_space(html[j]) && html[j] != '>' && html[j] != '/') {
      ++j;
    }
    element.name = lower(html.substr(i + 1, j - i - 1));
    j = read_attributes(html, j, element);
    if (element.name == "script" || element.name == "style") {
      const std::size_t end = find_nocase(html, "</" + element.name, j);
      const std::size_t stop = end == std::string_view::npos ? html.size() : end;
      element.text = std::string(html.substr(j, stop - j));
      i = html.find('<', stop + 1);
    } else {
      i = html.find('<', j);
      const std::size_t stop = i == std::string_view::npos ? html.size() : i;
      element.text = decode_entities(html.substr(j, stop - j));
    }
    elements.push_back(std::move(element));
  }
  return elements;
}

}  // namespace netdoctor::testing
