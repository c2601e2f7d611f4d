// A small scanner for the HTML Chromium serialises with --dump-dom (and for the report file
// itself): start tags with their attributes, entity references decoded, and the text right
// after each start tag. Script and style bodies are raw text, never scanned for tags. Enough
// to check a page the browser has already parsed; not a general HTML parser.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace netdoctor::testing {

struct DomElement {
  std::string name;                          // lower case: "html", "rect", "script"
  std::map<std::string, std::string> attrs;  // names lower case, values decoded
  std::string text;                          // decoded text up to the next tag (raw for script)
  bool has(const std::string& attr) const { return attrs.count(attr) != 0; }
  // The attribute's value, empty when absent.
  const std::string& get(const std::string& attr) const;
  // Whether the class attribute holds this token.
  bool has_class(std::string_view token) const;
};

std::vector<DomElement> scan_elements(std::string_view html);

// "&lt;b&gt; &amp; &#39;&#x41;" -> "<b> & 'A": the references a serialiser writes.
std::string decode_entities(std::string_view text);

}  // namespace netdoctor::testing
