// `mlnx_qos -i <if>`: DCBX mode, trust, DSCP->priority map, buffers, PFC and traffic classes.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct MlnxQosTc {
  std::uint32_t tc = 0;
  std::string ratelimit;                    // "unlimited" or as printed
  std::string tsa;                          // "ets", "strict", "vendor"
  std::optional<std::uint32_t> bw_percent;  // ets only
  std::vector<std::uint32_t> priorities;
};

struct MlnxQos {
  std::string dcbx_mode;    // "OS controlled" / "Firmware controlled"
  std::string trust_state;  // "dscp" / "pcp"
  std::map<std::uint32_t, std::vector<std::uint32_t>> dscp2prio;  // priority -> DSCP values
  std::vector<std::uint64_t> receive_buffer_bytes;                // per buffer index, bytes
  std::optional<std::uint64_t> max_buffer_size;  // bytes ("max_buffer_size=262016")
  std::optional<std::uint32_t> cable_len;        // metres
  std::vector<bool> pfc_enabled;                 // index = priority; empty without a PFC block
  std::vector<std::uint32_t> pfc_buffer;         // index = priority -> receive buffer index
  std::vector<MlnxQosTc> tcs;

  std::optional<std::uint32_t> priority_of_dscp(std::uint32_t dscp) const;
  // nullopt when the PFC block is missing or shorter than `priority`.
  std::optional<bool> pfc_enabled_on(std::uint32_t priority) const;
};

// Fails when none of "Priority trust state", "PFC configuration", "dscp2prio", "tc:" is found.
Result<MlnxQos> parse_mlnx_qos(std::string_view text);

nlohmann::json to_json(const MlnxQos& qos);

}  // namespace netdoctor::parsers
