// Kernel log: `dmesg`, `dmesg -T`, `journalctl -k` / kern.log / syslog lines ("Aug 15 12:21:39
// host kernel: ..."), ISO-stamped journal lines, printk-level prefixes ("<6>[ 1.2] ..."), e-mail
// quoted or wrapped copies. Every kernel line is kept; the ones a network diagnosis needs are
// also classified as events (link up/down, PCIe bandwidth limits, PCIe AER, driver errors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

// One kernel message. A line that does not start like a log line and directly follows one
// (a message wrapped by a mail client or a terminal) is appended to it after a space.
struct KernelLogLine {
  std::size_t line_number = 0;        // 1-based, of the input line the message starts on
  std::optional<double> timestamp_s;  // "[   12.345678]": seconds since boot
  std::string timestamp_text;         // "Tue Feb 14 18:48:25 2023" (-T), "Aug 15 12:21:39", ISO
  std::string host;                   // syslog / journal host ("ps502b-104"); "" otherwise
  std::string level;                  // "kern.err" (collector prefix) or "<6>" (printk level)
  std::string source;                 // driver or subsystem: "mlx5_core", "pcieport", "e1000e"
  std::string device;                 // normalised PCI address ("0000:3b:00.0") when named
  std::string interface;              // "enp1s0f0np0" when named
  std::string message;                // text after source/device/interface: "Link down"
  std::string text;                   // the whole kernel message after the time prefix
};

enum class KernelEventKind {
  LinkUp,         // "Link up" (mlx5), "NIC Link is Up ..." (i40e, ice, ixgbe, e1000e, bnxt_en)
  LinkDown,       // "Link down", "NIC Link is Down", "link state changed to down"
  PcieBandwidth,  // "... Gb/s available PCIe bandwidth[, limited by ... link at ADDR (capable of
                  // ...)]"
  PcieAer,        // PCIe AER: "AER: ...", "PCIe Bus Error: severity=...", "[ 6] BadTLP"
  DriverError,    // other messages with "error", "fail", "timeout", "health", "fatal"
};

struct KernelLogEvent {
  KernelEventKind kind = KernelEventKind::DriverError;
  std::size_t entry = 0;  // index into KernelLog::lines
  // Link up/down.
  std::optional<double> link_speed_gbit_s;  // "100 Gbps" -> 100, "100000 Mbps" -> 100
  std::string duplex;                       // "full", "half", ""
  // PCIe bandwidth: the kernel's own numbers, Gbit/s per direction as printed.
  std::optional<double> available_gbit_s;      // "63.008 Gb/s available PCIe bandwidth"
  std::optional<double> capable_gbit_s;        // "(capable of 252.048 Gb/s ...)"; = available when
                                               // the link is not limited
  bool bandwidth_limited = false;              // "limited by" present
  std::optional<double> link_speed_gt_s;       // the limiting (or only) link: "8.0 GT/s"
  std::optional<std::uint32_t> link_width;     // "x8"
  std::optional<double> capable_speed_gt_s;    // "with 16.0 GT/s PCIe x16 link"
  std::optional<std::uint32_t> capable_width;  // 16
  std::string limiting_device;                 // "link at 0000:00:01.0": the bottleneck port
  // PCIe AER.
  std::string severity;    // "Corrected", "Uncorrected (Non-Fatal)", "Correctable"
  std::string error_type;  // "Physical Layer", "Data Link Layer", "Transaction Layer"
  std::string error_name;  // "BadTLP", "RxErr", "Receiver Error" (from "[ n] Name" lines)
  // Driver error: the word that classified it: "health", "timeout", "failed", "error", "fatal".
  std::string keyword;
};

struct KernelLog {
  std::vector<KernelLogLine> lines;
  std::vector<KernelLogEvent> events;
  std::size_t unclassified = 0;          // lines without an event (all kept in `lines`)
  std::vector<std::string> other_lines;  // non-blank input that is not kernel log (prompts,
                                         // "...", other daemons' syslog lines)
};

const char* kernel_event_kind_name(KernelEventKind kind);  // "link_up", "pcie_aer", ...

// Fails when no line is kernel-log shaped: none starts with "[seconds]", "[ctime]", a syslog or
// ISO stamp followed by "kernel:", or names a driver and a PCI address ("mlx5_core 0000:3b:00.0
// ..."). Arbitrary text is therefore rejected.
Result<KernelLog> parse_dmesg(std::string_view text);

nlohmann::json to_json(const KernelLog& log);

}  // namespace netdoctor::parsers
