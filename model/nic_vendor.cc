#include "model/nic_vendor.h"

#include "base/strings.h"

namespace netdoctor::model {

std::string vendor_from_driver(std::string_view driver) {
  if (starts_with(driver, "mlx5") || starts_with(driver, "mlx4")) {
    return std::string(driver.substr(0, 4));
  }
  if (starts_with(driver, "bnxt")) {
    return "bnxt";
  }
  if (driver == "irdma" || driver == "ice" || driver == "i40e") {
    return "intel";
  }
  return {};
}

std::string vendor_from_device(std::string_view device) {
  if (starts_with(device, "mlx5_")) {
    return "mlx5";
  }
  if (starts_with(device, "mlx4_")) {
    return "mlx4";
  }
  if (starts_with(device, "bnxt_re")) {
    return "bnxt";
  }
  if (starts_with(device, "irdma")) {
    return "intel";
  }
  return {};
}

std::string vendor_from_ids(std::string_view vendor_id, std::string_view board_id) {
  const auto id = to_lower(vendor_id);
  if (id == "0x02c9" || id == "0x15b3" || starts_with(board_id, "MT_")) {
    return "mlx5";
  }
  if (id == "0x14e4" || id == "0x0010" || id == "0x10b7") {  // Broadcom ids seen for bnxt_re
    return "bnxt";
  }
  if (id == "0x8086") {
    return "intel";
  }
  return {};
}

std::string nic_vendor(const Nic& nic, const parsers::IbvDevice* device) {
  if (auto vendor = vendor_from_driver(nic.driver); !vendor.empty()) {
    return vendor;
  }
  if (auto vendor = vendor_from_device(nic.device); !vendor.empty()) {
    return vendor;
  }
  if (device != nullptr) {
    if (auto vendor = vendor_from_ids(device->vendor_id, device->board_id); !vendor.empty()) {
      return vendor;
    }
  }
  return nic.driver.empty() ? "unknown" : nic.driver;
}

}  // namespace netdoctor::model
