// Cells of the SONiC tables that remote answers (eAPI JSON, Prometheus series) are rendered into
// (base/sonic_table.h), so that the SONiC parsers read them as they read a switch's own output:
// one word per cell, ports in the switch's natural order, rates as SONiC prints them.
#pragma once

#include <string>
#include <string_view>

#include "base/strings.h"

namespace netdoctor::remote {

// "Ethernet2" before "Ethernet10": runs of digits compare as numbers (base/strings.h).
using netdoctor::natural_less;

struct NaturalLess {
  bool operator()(const std::string& a, const std::string& b) const { return natural_less(a, b); }
};

// True when `text` can be one cell: not empty, no spaces or control characters (the parsers
// split rows on column positions and spaces).
bool is_one_word(std::string_view text);

// `text` when it is one word, else "N/A".
std::string cell_word(std::string_view text);

}  // namespace netdoctor::remote
