#include "parsers/ib_common.h"

#include <array>
#include <utility>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers::ib {

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (auto raw : split_lines(text)) {
    out.push_back(trim_right(detail::strip_quote(raw)));
  }
  return out;
}

std::optional<std::uint64_t> guid(std::string_view text) {
  text = trim(text);
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
  }
  if (text.empty() || text.size() > 16) {
    return std::nullopt;
  }
  return parse_hex(text);
}

std::optional<std::string_view> quoted(std::string_view line, std::size_t from, std::size_t& end,
                                       char quote) {
  auto open = line.find(quote, from);
  if (open == std::string_view::npos) {
    return std::nullopt;
  }
  auto close = line.find(quote, open + 1);
  if (close == std::string_view::npos) {
    return std::nullopt;
  }
  end = close + 1;
  return line.substr(open + 1, close - open - 1);
}

unsigned port_counter_bits(std::string_view name) {
  // IBA 1.3 vol 1, 16.1.3.5 PortCounters attribute layout.
  static constexpr std::array<std::pair<std::string_view, unsigned>, 18> k_bits = {{
      {"SymbolErrorCounter", 16},
      {"LinkErrorRecoveryCounter", 8},
      {"LinkDownedCounter", 8},
      {"PortRcvErrors", 16},
      {"PortRcvRemotePhysicalErrors", 16},
      {"PortRcvSwitchRelayErrors", 16},
      {"PortXmitDiscards", 16},
      {"PortXmitConstraintErrors", 8},
      {"PortRcvConstraintErrors", 8},
      {"LocalLinkIntegrityErrors", 4},
      {"ExcessiveBufferOverrunErrors", 4},
      {"QP1Dropped", 16},
      {"VL15Dropped", 16},
      {"PortXmitData", 32},
      {"PortRcvData", 32},
      {"PortXmitPkts", 32},
      {"PortRcvPkts", 32},
      {"PortXmitWait", 32},
  }};
  for (const auto& [field, bits] : k_bits) {
    if (field == name) {
      return bits;
    }
  }
  return 0;
}

std::string guid_text(std::uint64_t guid) {
  static constexpr std::string_view k_digits = "0123456789abcdef";
  std::string out = "0x0000000000000000";
  for (std::size_t i = 0; i < 16; ++i) {
    out[17 - i] = k_digits[(guid >> (4 * i)) & 0xf];
  }
  return out;
}

std::optional<std::uint32_t> u32(std::string_view text) {
  auto v = parse_u64(trim(text));
  if (!v || *v > 0xffffffffu) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*v);
}

bool saturated(std::uint64_t value, unsigned bits) {
  if (bits == 0 || bits >= 64) {
    return false;
  }
  return value == (std::uint64_t{1} << bits) - 1;
}

}  // namespace netdoctor::parsers::ib
