// ibnetdiscover -p lines (internal to parsers/ibnetdiscover.cc).
#pragma once

#include <optional>
#include <string_view>

#include "parsers/ibnetdiscover.h"

namespace netdoctor::parsers::detail {

// One trimmed -p line ("CA    78  1 0x946dae0300630bfe 4x HDR - SW    51 81 0x... ( 'a' - 'b' )"
// or an unconnected "SW    24 1 0x946dae0300618c82 4x SDR    'desc'"); nullopt otherwise.
std::optional<IbnetPortLine> read_ibnet_port_line(std::string_view line);

}  // namespace netdoctor::parsers::detail
