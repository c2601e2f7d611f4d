// PCI addresses and PCIe link arithmetic shared by the lspci and dmesg parsers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace netdoctor::parsers {

// "3b:00.0", "0000:3B:00.0", "10000:e1:00.0" (VMD domains) -> "0000:3b:00.0", "10000:e1:00.0":
// lowercase, the domain padded to 4 hex digits ("0000" when absent). nullopt when `text` is not
// exactly [domain:]bus:device.function (bus and device 2 hex digits, function 0-7).
std::optional<std::string> normalize_pci_address(std::string_view text);

// The PCIe generation of a per-lane rate: 2.5 GT/s -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5,
// 64 -> 6; nullopt for any other rate.
std::optional<std::uint32_t> pcie_generation(double gt_s);

// Usable bandwidth of a link per direction, in Gbit/s (1e9 bit/s):
//   lanes x GT/s x encoding efficiency, where the efficiency is
//   8b/10b = 0.8 for gen1 and gen2, 128b/130b for gen3, gen4 and gen5, and 242/256 (~0.945, the
//   FLIT payload share) for gen6.
// 8 GT/s x8 -> 63.015, 16 GT/s x16 -> 252.06. The kernel's own "available PCIe bandwidth" line
// rounds the per-lane rate first (7.876 for gen3) and so prints 63.008 / 252.048. nullopt when
// the rate is not a PCIe generation's or there are no lanes.
std::optional<double> pcie_bandwidth_gbit_s(double gt_s, std::uint32_t lanes);

// A rate as lspci or the kernel prints it: "16GT/s", "2.5 GT/s", "8.0 GT/s PCIe" -> 16, 2.5, 8.
// nullopt when there is no number directly before "GT/s" ("Speed unknown").
std::optional<double> parse_gt_s(std::string_view text);

// A link width: "x16" -> 16 (leading blanks allowed, trailing text ignored). nullopt otherwise.
std::optional<std::uint32_t> parse_lane_width(std::string_view text);

}  // namespace netdoctor::parsers
