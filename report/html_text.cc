#include "report/html_text.h"

#include "base/strings.h"

namespace netdoctor::report {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t start = 0;
  // Keep newlines and tabs (they lay out <pre> text); every other control byte made visible.
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n' && text[i] != '\t') {
      continue;
    }
    const std::string piece = printable(text.substr(start, i - start));
    for (char c : piece) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        default:
          out += c;
      }
    }
    if (i < text.size()) {
      out += text[i];
    }
    start = i + 1;
  }
  return out;
}

std::string script_json(std::string_view json_text) {
  std::string out;
  out.reserve(json_text.size());
  for (char c : json_text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace netdoctor::report
