// iproute2's `dcb` (`dcb [-s] [-j] pfc|ets|app|apptrust|buffer|maxrate|dcbx show dev <if>`):
// the vendor-neutral view of a NIC's DCB configuration through the kernel's dcbnl, whatever
// the driver (mlx5, bnxt_en, ice, ...). One file may hold the output of one or several of these
// commands, in text or JSON (`-j`, one object per command).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

// One rule of the APP table: a DSCP, PCP, ethertype or port mapped to a priority. `key` is as
// printed ("AF31", "24", "8906"); `value` is the number it stands for (DSCP names resolved with
// iproute2's rt_dsfield names; ethertypes are hexadecimal), nullopt when unreadable.
struct DcbAppRule {
  std::string selector;  // "dscp", "pcp", "ethtype", "default", "stream-port", "dgram-port", "port"
  std::string key;
  std::optional<std::uint32_t> value;
  std::uint32_t priority = 0;
};

// Eight slots per array, index = priority (prio-*) or traffic class (tc-*); nullopt when the
// output did not list that slot. Sizes are bytes ("10Kb" is 10 KiB: iproute2 prints sizes in
// binary units with a "b" for bytes).
struct DcbConfig {
  // dcb pfc show: PFC per priority; with -s the pause frames requested (sent) and indicated
  // (received) per priority.
  std::optional<std::uint32_t> pfc_cap;
  std::optional<bool> macsec_bypass;
  std::optional<std::uint32_t> delay_bit_times;
  std::array<std::optional<bool>, 8> prio_pfc{};
  std::array<std::optional<std::uint64_t>, 8> pfc_requests{};
  std::array<std::optional<std::uint64_t>, 8> pfc_indications{};
  // dcb ets show: priority -> traffic class, and per traffic class its selection algorithm
  // ("strict", "ets", "cbs", "vendor") and bandwidth share in percent.
  std::optional<bool> willing;
  std::optional<std::uint32_t> ets_cap;
  std::optional<bool> cbs;
  std::array<std::optional<std::uint32_t>, 8> prio_tc{};
  std::array<std::string, 8> tc_tsa{};
  std::array<std::optional<std::uint32_t>, 8> tc_bw{};
  // dcb app show / dcb apptrust show: classification rules, and which fields the NIC trusts,
  // in order ("dscp", "pcp").
  std::vector<DcbAppRule> apps;
  std::vector<std::string> apptrust_order;
  // dcb buffer show: priority -> receive buffer, buffer sizes.
  std::array<std::optional<std::uint32_t>, 8> prio_buffer{};
  std::array<std::optional<std::uint64_t>, 8> buffer_size_bytes{};
  std::optional<std::uint64_t> total_size_bytes;
  // dcb maxrate show: per traffic class, as printed ("0bit", "100Gbit").
  std::array<std::string, 8> tc_maxrate{};
  // dcb dcbx show: the DCBX mode flags ("host", "lld-managed", "cee", "ieee", "static").
  std::vector<std::string> dcbx;
  // Every key this parser does not interpret, with its values as printed: nothing is lost.
  std::map<std::string, std::string> other;
  std::vector<std::string> unparsed_lines;  // text lines that start with no known key

  // Which commands' outputs were seen: "pfc", "ets", "app", "apptrust", "buffer", "maxrate",
  // "dcbx".
  std::vector<std::string> parts;
  bool has(std::string_view part) const;
  // The priority a DSCP value is mapped to by the APP table; nullopt when it has no rule.
  std::optional<std::uint32_t> priority_of_dscp(std::uint32_t dscp) const;
};

// Fails (Parse) on text where no line starts with a dcb key (or JSON without one), and on JSON
// that does not parse.
Result<DcbConfig> parse_dcb(std::string_view text);

// A DSCP value from an rt_dsfield name ("AF31" -> 26, "CS6" -> 48, "EF" -> 46) or a number.
std::optional<std::uint32_t> dscp_value(std::string_view name);

nlohmann::json to_json(const DcbConfig& config);

}  // namespace netdoctor::parsers
