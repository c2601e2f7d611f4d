// Which vendor made a NIC, the key into the counter table (model/counters.tsv): "mlx5", "mlx4",
// "bnxt", "intel", else the driver's own name or "unknown".
#pragma once

#include <string>
#include <string_view>

#include "model/fabric.h"
#include "parsers/ibv_devinfo.h"

namespace netdoctor::model {

// From the kernel driver ("mlx5_core" -> "mlx5", "bnxt_en" -> "bnxt", "irdma" -> "intel");
// empty when the driver says nothing.
std::string vendor_from_driver(std::string_view driver);
// From the RDMA device name ("mlx5_0", "bnxt_re1", "irdma0"); empty for renamed devices such
// as "rocep90s0f0".
std::string vendor_from_device(std::string_view device);
// From ibv_devinfo's PCI vendor id ("0x02c9") and board id ("MT_..."); empty when unknown.
std::string vendor_from_ids(std::string_view vendor_id, std::string_view board_id);

// The NIC's vendor: by its driver, else its device name, else the ids ibv_devinfo lists for
// it (`device`, nullptr when not listed), else its driver name, else "unknown".
// REQUIRES: nic.driver and nic.device filled.
std::string nic_vendor(const Nic& nic, const parsers::IbvDevice* device);

}  // namespace netdoctor::model
