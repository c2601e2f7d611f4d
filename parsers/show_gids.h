// Mellanox's `show_gids` script: one row per GID table entry of every RDMA port,
// "DEV PORT INDEX GID IPv4 VER DEV" (tab separated, or spaces in copies), a dashes line under
// the header and a trailing "n_gids_found=N".
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct ShowGidsEntry {
  std::string device;                         // RDMA device: "mlx5_0", "hrn3_bond_0"
  std::uint32_t port = 0;                     // 1
  std::uint32_t index = 0;                    // GID index (NCCL_IB_GID_INDEX picks one)
  std::string gid;                            // as printed: "0000:...:ffff:c0a8:d3f2"
  std::string ipv4;                           // "192.168.211.242"; empty for link-local GIDs
  std::string version;                        // as printed: "v1", "v2"
  std::optional<std::uint32_t> roce_version;  // 1 or 2 (from "v1"/"v2"); nullopt otherwise
  std::string netdev;                         // last column; empty when the port has none
};

struct ShowGids {
  std::vector<ShowGidsEntry> gids;  // in printed order
  // Each "n_gids_found=N" footer, in order: one per output (several when outputs of several
  // hosts were pasted together).
  std::vector<std::uint64_t> n_gids_found;
  // Non-blank lines that are none of header, dashes, row, footer or shell prompt (labels
  // between pasted outputs, rows of a shape we do not know), trimmed, in order.
  std::vector<std::string> unparsed_lines;
};

// Fails when the text has no GID row, no "DEV PORT INDEX GID" header and no n_gids_found
// footer (an empty GID table still prints the header and "n_gids_found=0").
Result<ShowGids> parse_show_gids(std::string_view text);

nlohmann::json to_json(const ShowGids& gids);

}  // namespace netdoctor::parsers
