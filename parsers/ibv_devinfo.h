// `ibv_devinfo [-v]` (and, cheaply, `ibstat`): HCAs, their ports, port state, MTU, speed, GIDs.
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

struct IbvGid {
  std::uint32_t index = 0;
  std::string gid;   // "::ffff:10.10.0.10" or "fe80:0000:..."
  std::string type;  // "RoCE v2", "RoCE v1", "" when not printed
};

struct IbvPort {
  std::uint32_t port_num = 0;
  std::string state;                            // "PORT_ACTIVE" (ibv_devinfo) or "Active" (ibstat)
  std::optional<std::uint32_t> state_num;       // 1 down, 2 init, 3 armed, 4 active
  std::string phys_state;                       // "LINK_UP" (ibv_devinfo) or "LinkUp" (ibstat)
  std::optional<std::uint32_t> phys_state_num;  // 2 polling, 3 disabled, 5 link up
  std::optional<std::uint32_t> max_mtu_bytes;   // "4096 (5)" -> 4096
  std::optional<std::uint32_t> active_mtu_bytes;    // bytes
  std::string link_layer;                           // "InfiniBand" / "Ethernet"
  std::string active_width;                         // as printed: "4X (2)"
  std::optional<std::uint32_t> active_width_lanes;  // 4
  std::string active_speed;                         // as printed: "50.0 Gbps (64)" (per lane)
  std::optional<double> active_speed_gbps;          // per-lane Gb/s: 50.0
  std::optional<double> rate_gbps;  // whole-port Gb/s: ibstat "Rate:", or lanes x lane speed
  std::optional<std::uint32_t> sm_lid;
  std::optional<std::uint32_t> port_lid;  // ibstat "Base lid"
  std::vector<IbvGid> gids;
  std::map<std::string, std::string> fields;  // every key of the port block, values trimmed
};

struct IbvDevice {
  std::string hca_id;     // "mlx5_0"
  std::string fw_ver;     // "28.39.1002"
  std::string node_guid;  // as printed
  std::string sys_image_guid;
  std::string vendor_id;                        // as printed: "0x02c9" (empty for ibstat)
  std::optional<std::uint32_t> vendor_part_id;  // 4129 (ibstat: from "CA type: MT4120")
  std::string board_id;                         // "MT_0000000838" (empty for ibstat)
  std::optional<std::uint32_t> phys_port_cnt;
  std::string transport;  // "InfiniBand (0)"
  std::string ca_type;    // ibstat "CA type" (may be empty)
  std::vector<IbvPort> ports;
  std::map<std::string, std::string> fields;  // every device-level key, values trimmed
};

struct IbvDevinfo {
  std::string source;  // "ibv_devinfo" or "ibstat"
  std::vector<IbvDevice> devices;
};

// Tolerates expanded tabs, markdown indentation, single-space separator lines and a leading
// prompt. Fails when no "hca_id:" (or ibstat "CA '<dev>'") block is found.
Result<IbvDevinfo> parse_ibv_devinfo(std::string_view text);

nlohmann::json to_json(const IbvDevinfo& info);

}  // namespace netdoctor::parsers
