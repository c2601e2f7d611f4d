// `lspci -vvv` (also `-vvv -s BDF`, with or without `-nn`, `-x`, or a `| grep` fragment of the
// LnkCap/LnkSta lines): PCI devices with their PCIe link capability and status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

// One "LnkCap:" (what the device and its slot can do) or "LnkSta:" (what was negotiated) line.
// generation and bandwidth_gbit_s are derived with pcie_generation / pcie_bandwidth_gbit_s
// (parsers/pcie.h): lanes x GT/s x encoding efficiency (8b/10b gen1-2, 128b/130b gen3-5,
// 242/256 FLIT gen6), per direction, 1 Gbit = 1e9 bit.
struct PcieLinkState {
  std::optional<double> speed_gt_s;    // per lane; nullopt for "Speed unknown"
  std::optional<std::uint32_t> width;  // lanes; "Width x0" gives 0
  bool speed_downgraded = false;       // "(downgraded)" after the speed (LnkSta only)
  bool width_downgraded = false;       // "(downgraded)" after the width (LnkSta only)
  std::optional<std::uint32_t> generation;
  std::optional<double> bandwidth_gbit_s;
  std::string text;  // the value as printed: "Port #0, Speed 16GT/s, Width x16, ASPM ..."
};

struct LspciDevice {
  std::string address;        // normalised "0000:3b:00.0"; "" for a grep fragment with no header
  std::string class_name;     // "Ethernet controller"
  std::string class_code;     // "0200" (-nn); "" otherwise
  std::string description;    // "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]"
  std::string vendor_device;  // "15b3:1019" (-nn); "" otherwise
  std::string revision;       // "01" from "(rev 01)"
  std::string subsystem;      // "Subsystem:" value
  std::optional<PcieLinkState> link_capability;    // LnkCap
  std::optional<PcieLinkState> link_status;        // LnkSta
  std::string link_capability2;                    // LnkCap2 value as printed
  std::optional<double> max_supported_speed_gt_s;  // LnkCap2 "Supported Link Speeds: 2.5-16GT/s"
  std::string link_status2;                        // LnkSta2 value as printed (first line)
  // LnkSta below LnkCap in speed or width, or a "(downgraded)" mark: the link trained slower
  // than the device can run (the slot, riser or the other end limits it).
  bool link_degraded = false;
  std::string kernel_driver;               // "Kernel driver in use:"
  std::string kernel_modules;              // "Kernel modules:"
  std::string product_name;                // VPD "Product Name:"
  std::string part_number;                 // VPD "[PN] Part number:"
  std::string serial_number;               // VPD "[SN] Serial number:"
  std::map<std::string, std::string> vpd;  // every "[XX] label: value" by XX (first one kept)
  std::vector<std::string> capabilities;   // "[60] Express (v2) Endpoint, MSI 00", ...
  std::vector<std::string> lines;          // every line of the block after the header, trimmed
};

struct LspciOutput {
  std::vector<LspciDevice> devices;
  std::vector<std::string> other_lines;  // non-blank lines outside any device (prompts, notes)

  const LspciDevice* find(std::string_view address) const;  // normalised or as printed
};

// Fails when there is neither a device header line ("3b:00.0 Ethernet controller: ...") nor a
// LnkCap/LnkSta line.
Result<LspciOutput> parse_lspci(std::string_view text);

nlohmann::json to_json(const LspciOutput& output);

}  // namespace netdoctor::parsers
