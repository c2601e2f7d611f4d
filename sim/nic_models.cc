#include "sim/nic_models.h"

namespace netdoctor::sim {

const NicModel& nic_model(Vendor vendor) {
  static const NicModel k_mlx5{
      Vendor::Mlx5, "ConnectX-7", "MT_0000000838", 4129,         "0x02c9",     200, 4,
      "28.41.1000", "mlx5_core",  "24.10-1.1.4",   "28.39.2048", "23.10-2.1.3"};
  static const NicModel k_bnxt{Vendor::Bnxt,
                               "BCM57508",
                               "BCM957508-P2100G",
                               5968,
                               "0x14e4",
                               200,
                               4,
                               "227.0.131.0/pkg 227.1.111.0",
                               "bnxt_en",
                               "6.8.0-45-generic",
                               "224.0.158.0/pkg 224.1.102.0",
                               "6.5.0-35-generic"};
  return vendor == Vendor::Bnxt ? k_bnxt : k_mlx5;
}

std::string vendor_name(Vendor vendor) {
  return vendor == Vendor::Bnxt ? "bnxt" : "mlx5";
}

std::string fw_version_only(const std::string& fw) {
  const size_t cut = fw.find_first_of(" /");
  return cut == std::string::npos ? fw : fw.substr(0, cut);
}

}  // namespace netdoctor::sim
