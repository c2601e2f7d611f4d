#include "remote/prometheus_batches.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace netdoctor::remote {

std::vector<std::vector<std::string>> group_values(const std::vector<std::string>& values,
                                                   std::size_t size) {
  size = std::max<std::size_t>(size, 1);
  std::vector<std::vector<std::string>> out;
  for (std::size_t i = 0; i < values.size(); i += size) {
    const std::size_t end = std::min(values.size(), i + size);
    out.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(i),
                     values.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return out;
}

std::string exact_values_matcher(const std::string& label, const std::vector<std::string>& values) {
  std::string regex;
  for (const auto& value : values) {
    if (!regex.empty()) {
      regex += '|';
    }
    for (char c : value) {
      // Go's regexp reads "\<punctuation>" as the character itself.
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' &&
          static_cast<unsigned char>(c) < 0x80) {
        regex += '\\';
      }
      regex += c;
    }
  }
  std::string literal;
  for (char c : regex) {
    if (c == '\\' || c == '"') {
      literal += '\\';
    }
    literal += c == '\n' ? 'n' : c;
  }
  return fmt::format("{}=~\"{}\"", label, literal);
}

}  // namespace netdoctor::remote
