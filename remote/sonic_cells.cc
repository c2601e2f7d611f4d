#include "remote/sonic_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "base/strings.h"

namespace netdoctor::remote {

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
