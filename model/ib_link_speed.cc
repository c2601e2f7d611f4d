#include "model/ib_link_speed.h"

#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "base/strings.h"

namespace netdoctor::model {
namespace {

struct SpeedBit {
  std::uint32_t bit;      // in ibdiagnet's 32-bit mask
  std::string_view lane;  // net_dump's LSA string
  IbSpeed speed;
};

// IBTA rates: 8b/10b up to QDR, 64b/66b for FDR10..EDR, PAM4 with FEC for HDR and later (the data
// rate per lane is what the standard names: HDR 50, NDR 100, XDR 200).
constexpr std::array<SpeedBit, 10> k_speeds = {{
    {0x1, "2.5", {"SDR", 2.5, 2.0}},
    {0x2, "5", {"DDR", 5.0, 4.0}},
    {0x4, "10", {"QDR", 10.0, 8.0}},
    {0x10000, "FDR10", {"FDR10", 10.3125, 10.0}},
    {0x100, "14", {"FDR", 14.0625, 14.0625 * 64.0 / 66.0}},
    {0x20000, "EDR20", {"EDR20", 20.625, 20.0}},
    {0x200, "25", {"EDR", 25.78125, 25.0}},
    {0x400, "50", {"HDR", 53.125, 50.0}},
    {0x800, "100", {"NDR", 106.25, 100.0}},
    {0x1000, "200", {"XDR", 212.5, 200.0}},
}};

std::optional<IbSpeed> fastest_in(std::uint32_t mask) {
  std::optional<IbSpeed> best;
  for (const auto& s : k_speeds) {  // in increasing data rate
    if ((mask & s.bit) != 0) {
      best = s.speed;
    }
  }
  return best;
}

}  // namespace

std::optional<IbSpeed> ib_active_speed(std::uint32_t mask) {
  for (std::uint32_t byte : {0xff00u, 0xff0000u, 0xffu}) {
    if (auto s = fastest_in(mask & byte)) {
      return s;
    }
  }
  return std::nullopt;
}

std::optional<IbSpeed> ib_fastest_speed(std::uint32_t mask) {
  return fastest_in(mask);
}

std::optional<IbSpeed> ib_speed_from_lane_text(std::string_view text) {
  text = trim(text);
  for (const auto& s : k_speeds) {
    if (s.lane == text) {
      return s.speed;
    }
  }
  return std::nullopt;
}

std::optional<IbSpeed> ib_speed_from_lane_gbps(double lane_gbps) {
  for (const auto& s : k_speeds) {
    if (std::abs(s.speed.lane_gbps - lane_gbps) < 0.001) {
      return s.speed;
    }
  }
  return std::nullopt;
}

std::optional<IbSpeed> ib_speed_named(std::string_view name) {
  std::string upper(trim(name));
  for (auto& c : upper) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  for (const auto& s : k_speeds) {
    if (s.speed.name == upper) {
      return s.speed;
    }
  }
  return std::nullopt;
}

std::optional<int> ib_width_lanes(std::uint32_t code) {
  switch (code) {
    case 1:
      return 1;
    case 2:
      return 4;
    case 4:
      return 8;
    case 8:
      return 12;
    case 16:
      return 2;
    default:
      return std::nullopt;
  }
}

std::optional<int> ib_widest_lanes(std::uint32_t mask) {
  std::optional<int> best;
  for (std::uint32_t bit = 1; bit <= 16; bit <<= 1) {
    auto lanes = (mask & bit) != 0 ? ib_width_lanes(bit) : std::nullopt;
    if (lanes && (!best || *lanes > *best)) {
      best = lanes;
    }
  }
  return best;
}

std::optional<int> ib_width_from_text(std::string_view text) {
  text = trim(text);
  if (text.size() < 2 || (text.back() != 'x' && text.back() != 'X')) {
    return std::nullopt;
  }
  auto lanes = parse_u64(text.substr(0, text.size() - 1));
  if (!lanes || *lanes == 0 || *lanes > 12) {
    return std::nullopt;
  }
  return static_cast<int>(*lanes);
}

std::optional<int> ib_mtu_bytes(std::uint32_t code) {
  if (code < 1 || code > 5) {
    return std::nullopt;
  }
  return 128 << code;
}

RdmaPortState ib_port_state(std::uint32_t code) {
  constexpr std::array<RdmaPortState, 5> k_states = {RdmaPortState::Unknown, RdmaPortState::Down,
                                                     RdmaPortState::Init, RdmaPortState::Armed,
                                                     RdmaPortState::Active};
  return code < k_states.size() ? k_states[code] : RdmaPortState::Unknown;
}

PhysState ib_phys_state(std::uint32_t code) {
  constexpr std::array<PhysState, 8> k_states = {PhysState::Unknown,
                                                 PhysState::Sleep,
                                                 PhysState::Polling,
                                                 PhysState::Disabled,
                                                 PhysState::PortConfigurationTraining,
                                                 PhysState::LinkUp,
                                                 PhysState::LinkErrorRecovery,
                                                 PhysState::PhyTest};
  return code < k_states.size() ? k_states[code] : PhysState::Unknown;
}

RdmaPortState ib_port_state_word(std::string_view word) {
  constexpr std::array<std::string_view, 5> k_words = {"", "DOWN", "INI", "ARM", "ACT"};
  for (std::uint32_t i = 1; i < k_words.size(); ++i) {
    if (trim(word) == k_words[i]) {
      return ib_port_state(i);
    }
  }
  return RdmaPortState::Unknown;
}

PhysState ib_phys_state_word(std::string_view word) {
  constexpr std::array<std::string_view, 8> k_words = {
      "", "SLEEP", "POLL", "DISABLE", "PORT CONF TRAIN", "LINK UP", "LINK ERR RECOVER", "PHY TEST"};
  for (std::uint32_t i = 1; i < k_words.size(); ++i) {
    if (trim(word) == k_words[i]) {
      return ib_phys_state(i);
    }
  }
  return PhysState::Unknown;
}

}  // namespace netdoctor::model
