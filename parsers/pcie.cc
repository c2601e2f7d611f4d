#include "parsers/pcie.h"

#include <array>
#include <cctype>
#include <cmath>

#include "base/strings.h"

namespace netdoctor::parsers {
namespace {

bool all_hex(std::string_view s) {
  for (char c : s) {
    if (std::isxdigit(static_cast<unsigned char>(c)) == 0) {
      return false;
    }
  }
  return !s.empty();
}

struct Generation {
  double gt_s;
  std::uint32_t generation;
  double efficiency;
};

constexpr std::array<Generation, 6> k_generations = {{{2.5, 1, 0.8},
                                                      {5.0, 2, 0.8},
                                                      {8.0, 3, 128.0 / 130.0},
                                                      {16.0, 4, 128.0 / 130.0},
                                                      {32.0, 5, 128.0 / 130.0},
                                                      {64.0, 6, 242.0 / 256.0}}};

const Generation* find_generation(double gt_s) {
  for (const auto& g : k_generations) {
    if (std::fabs(g.gt_s - gt_s) < 0.01) {
      return &g;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> normalize_pci_address(std::string_view text) {
  // bus:device.function is the last 7 characters; anything before is "domain:".
  if (text.size() < 7) {
    return std::nullopt;
  }
  std::string_view bdf = text.substr(text.size() - 7);
  std::string_view domain = text.substr(0, text.size() - 7);
  if (bdf[2] != ':' || bdf[5] != '.' || !all_hex(bdf.substr(0, 2)) || !all_hex(bdf.substr(3, 2)) ||
      bdf[6] < '0' || bdf[6] > '7') {
    return std::nullopt;
  }
  std::string out;
  if (domain.empty()) {
    out = "0000";
  } else {
    if (!domain.ends_with(':') || domain.size() > 9) {
      return std::nullopt;
    }
    domain.remove_suffix(1);
    if (!all_hex(domain)) {
      return std::nullopt;
    }
    out.assign(domain.size() < 4 ? 4 - domain.size() : 0, '0');
    out += domain;
  }
  out += ':';
  out += bdf;
  return to_lower(out);
}

std::optional<std::uint32_t> pcie_generation(double gt_s) {
  const Generation* g = find_generation(gt_s);
  return g != nullptr ? std::optional<std::uint32_t>(g->generation) : std::nullopt;
}

std::optional<double> pcie_bandwidth_gbit_s(double gt_s, std::uint32_t lanes) {
  const Generation* g = find_generation(gt_s);
  if (g == nullptr || lanes == 0) {
    return std::nullopt;
  }
  return static_cast<double>(lanes) * g->gt_s * g->efficiency;
}

std::optional<double> parse_gt_s(std::string_view text) {
  auto unit = text.find("GT/s");
  if (unit == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view before = trim_right(text.substr(0, unit));
  std::size_t start = before.size();
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(before[start - 1])) != 0 ||
                       before[start - 1] == '.')) {
    --start;
  }
  return parse_double(before.substr(start));
}

std::optional<std::uint32_t> parse_lane_width(std::string_view text) {
  text = trim_left(text);
  if (!text.starts_with('x')) {
    return std::nullopt;
  }
  text.remove_prefix(1);
  std::size_t n = 0;
  while (n < text.size() && n < 3 && std::isdigit(static_cast<unsigned char>(text[n])) != 0) {
    ++n;
  }
  auto lanes = parse_u64(text.substr(0, n));
  if (!lanes) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*lanes);
}

}  // namespace netdoctor::parsers
