// NIC models per vendor with the firmware and driver a well-kept fleet runs, and an older
// combination for the firmware-mismatch fault.
#pragma once

#include <string>

#include "sim/sim_config.h"

namespace netdoctor::sim {

struct NicModel {
  Vendor vendor;
  const char* model;
  const char* board_id;
  int vendor_part_id;
  const char* vendor_id;  // PCI vendor, as ibv_devinfo prints it
  int rated_gbps;
  int lanes;
  const char* fw;              // as `ethtool -i` prints it (mlx5 adds the PSID itself)
  const char* driver;          // module name
  const char* driver_version;  // MLNX_OFED release, or the kernel release for in-box drivers
  const char* old_fw;
  const char* old_driver_version;
};

const NicModel& nic_model(Vendor vendor);
std::string vendor_name(Vendor vendor);  // "mlx5", "bnxt"
// The firmware version alone (first token of ethtool's firmware-version).
std::string fw_version_only(const std::string& fw);

}  // namespace netdoctor::sim
