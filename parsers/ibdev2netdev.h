// Mellanox's `ibdev2netdev` script: which network interface each RDMA port drives.
//   mlx5_0 port 1 ==> ens1f0np0 (Up)
// and with -v, the PCI address, device id, part number, VPD description, firmware and the port
// state before the arrow:
//   0000:02:00.0 mlx5_0 (MT4115 - MT1523X04353) CX456A - ConnectX-4 QSFP fw 12.23.1020 port 1
//   (ACTIVE) ==> enp2s0f0 (Up)            (one line)
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct Ibdev2netdevEntry {
  std::string device;       // RDMA device, case kept: "mlx5_0", "roceP2p1s0f0"
  std::uint32_t port = 0;   // 1
  std::string netdev;       // "ens1f0np0", "bond0", "ib0"
  std::string state;        // netdev carrier as printed: "Up", "Down", "NA"
  bool verbose = false;     // the -v form (the fields below are empty otherwise)
  std::string pci_address;  // "0000:02:00.0"; empty when the script found none
  std::string device_id;    // "MT4115"
  std::string part_id;      // "MCX653106A-ECAT", "MT1523X04353", "NA"
  std::string description;  // VPD text between the ids and "fw": "CX456A - ConnectX-4 QSFP"
  std::string firmware;     // "12.23.1020"
  std::string port_state;   // RDMA port state, padding dropped: "ACTIVE", "DOWN"
  std::string extra;        // anything after "(state)" (a site's own suffix: "(o2ib)")
};

struct Ibdev2netdev {
  std::vector<Ibdev2netdevEntry> entries;  // in printed order
  // Non-blank, non-prompt lines that are not a mapping line, trimmed, in order.
  std::vector<std::string> unparsed_lines;
};

// Fails when no "<dev> port <n> ==> <netdev> (<state>)" line (plain or -v) is found.
Result<Ibdev2netdev> parse_ibdev2netdev(std::string_view text);

nlohmann::json to_json(const Ibdev2netdev& map);

}  // namespace netdoctor::parsers
