// The shape of a simulated InfiniBand fat tree: switch radix and port speed of the generation,
// hosts per leaf, up-ports per leaf and spines, such that every leaf reaches every spine and no
// switch has more cabled ports than it has. Shared by validate_config (refuses what cannot be
// built) and build_topology.
#pragma once

#include <cstddef>
#include <string>

#include "base/result.h"
#include "sim/sim_config.h"

namespace netdoctor::sim {

struct IbGeneration {
  const char* speed;         // "HDR", "NDR": IBTA name of the lane speed
  int gbps;                  // 4X data rate: 200, 400
  const char* lane_text;     // per-lane signalling rate as infiniband-diags prints it
  int speed_code;            // PortInfo LinkSpeedExtActive / ibv_devinfo active_speed code
  std::size_t radix;         // switch ports: 40 (QM8700), 64 (QM9700)
  const char* switch_model;  // "MQM8700"
  const char* switch_devid;  // ibnetdiscover devid
  const char* switch_fw;     // "27.2012.1010"
  const char* hca_model;     // "ConnectX-6"
  const char* hca_type;      // ibstat "CA type": MT4123
  int hca_part_id;           // 4123
  const char* hca_devid;     // ibnetdiscover devid of the HCA
  const char* hca_board_id;  // PSID
  const char* hca_fw;        // current firmware
  const char* hca_old_fw;    // the older one of firmware-mismatch
};

const IbGeneration& ib_generation(IbSpeed speed);
// The generation whose 4X data rate is `gbps` per lane x 4, for a lane speed name in output.
const char* ib_speed_name(int lane_gbps);  // 25 -> "EDR", 50 -> "HDR", 100 -> "NDR"
const char* ib_lane_text(int lane_gbps);   // 50 -> "53.125 Gbps"
int ib_speed_code(int lane_gbps);          // 50 -> 64 (ibv_devinfo), 100 -> 128

struct IbShape {
  std::size_t hosts_per_leaf = 0;
  std::size_t leaves = 0;
  std::size_t uplinks_per_leaf = 0;
  std::size_t spines = 0;
};

// InvalidArgument (naming the limit) when the fabric does not fit a two-level fat tree of the
// generation's switches.
Result<IbShape> ib_shape(const SimConfig& config);

}  // namespace netdoctor::sim
