// ibnetdiscover (infiniband-diags): the fabric as the SM sees it, in its two forms.
// Topology (plain) form: per node "vendid=/devid=/sysimgguid=/switchguid=" lines, a header
//   Switch	36 "S-f4521403001165a0"		# "MF0;ib5:SX6036/U1" enhanced port 0 lid 128 lmc 0
// and one line per connected port
//   [1]	"H-24be05ffff980030"[1](24be05ffff980031) 		# "stage114 mlx4_0" lid 105
//   4xQDR [1](24be05ffff985d91) 	"S-f4521403001165a0"[32]		# lid 121 lmc 0
//   "MF0;ib5:SX6036/U1" lid 128 4xQDR
// Ports (-p) form: one line per port, connected or not; descriptions in single quotes keep
// their leading/trailing spaces:
//   CA    88  1 0xb83fd20300da1138 4x HDR - SW    51 79 0x946dae0300630bf6 ( 'worker20 mlx5_3' -
//   '5FB0405-leaf-IB01 ' ) SW    24 1 0x946dae0300618c82 4x SDR '5FB0406-spine-IB01 '
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

// A connected port of a topology-form node.
struct IbnetLink {
  std::uint32_t port = 0;                  // local port number
  std::optional<std::uint64_t> port_guid;  // CA ports: "(24be05ffff985d91)"
  std::optional<std::uint32_t> lid;        // CA ports: the port's own "lid 121 lmc 0"
  std::optional<std::uint32_t> lmc;
  std::string remote_id;  // "S-f4521403001165a0", "H-..."
  std::optional<std::uint32_t> remote_port;
  std::optional<std::uint64_t> remote_port_guid;
  std::string remote_description;  // spaces kept
  std::optional<std::uint32_t> remote_lid;
  std::string width;  // "4x"
  std::string speed;  // "QDR", "FDR10", "HDR"
};

struct IbnetNode {
  std::string type;                    // "Switch", "Ca", "Rt"
  std::optional<std::uint32_t> ports;  // number of ports
  std::string id;                      // "S-f4521403001165a0"
  std::optional<std::uint64_t> guid;   // switchguid= / caguid= / routerguid=
  std::optional<std::uint64_t> system_image_guid;
  std::string vendor_id;               // "0x2c9" as printed
  std::string device_id;               // "0xc738"
  std::string description;             // NodeDescription, spaces kept
  std::optional<bool> enhanced_port0;  // switches
  std::optional<std::uint32_t> lid;    // switches: port 0 LID
  std::optional<std::uint32_t> lmc;
  std::vector<IbnetLink> links;
};

// One line of the -p form.
struct IbnetPortLine {
  std::string type;  // "SW", "CA", "RT"
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> port;
  std::uint64_t guid = 0;  // node GUID
  std::string width;       // "4x"
  std::string speed;       // "HDR", "SDR" (unconnected ports too)
  bool connected = false;
  std::string remote_type;
  std::optional<std::uint32_t> remote_lid;
  std::optional<std::uint32_t> remote_port;
  std::optional<std::uint64_t> remote_guid;
  std::string description;  // inside the quotes, spaces kept
  std::string remote_description;
};

struct IbNetDiscover {
  std::string generated_on;    // "# Topology file: generated on <date>"
  std::string initiated_from;  // "node 24be05ffff98aba0 port 24be05ffff98aba1"
  std::vector<IbnetNode> nodes;
  std::vector<IbnetPortLine> port_lines;
  std::vector<std::string> unparsed;  // non-blank lines of neither form

  const IbnetNode* find_node(std::string_view description) const;
};

// Fails when no line is a topology header (Switch/Ca/Rt) nor a -p port line.
Result<IbNetDiscover> parse_ibnetdiscover(std::string_view text);

nlohmann::json to_json(const IbNetDiscover& net);

}  // namespace netdoctor::parsers
