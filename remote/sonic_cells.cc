#include "remote/sonic_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "base/strings.h"

namespace netdoctor::remote {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The end of the run of digits starting at `i`.
std::size_t digits_end(std::string_view text, std::size_t i) {
  while (i < text.size() && is_digit(text[i])) {
    ++i;
  }
  return i;
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      const std::size_t ie = digits_end(a, i);
      const std::size_t je = digits_end(b, j);
      const auto na = parse_u64(a.substr(i, ie - i)).value_or(0);
      const auto nb = parse_u64(b.substr(j, je - j)).value_or(0);
      if (na != nb) {
        return na < nb;
      }
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) {
      return a[i] < b[j];
    }
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

bool is_one_word(std::string_view text) {
  return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return std::isspace(byte) != 0 || byte < 0x20 || byte == 0x7f;
  });
}

std::string cell_word(std::string_view text) {
  return is_one_word(text) ? std::string(text) : std::string("N/A");
}

}  // namespace netdoctor::remote
