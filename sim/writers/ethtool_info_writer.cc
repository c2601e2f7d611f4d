#include <fmt/format.h>

#include "sim/nic_models.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

std::string ethtool_info(const Nic& nic) {
  const NicModel& model = nic_model(nic.vendor);
  // mlx5 appends the PSID to the firmware version; bnxt prints "fw/pkg" as is.
  const std::string fw =
      nic.vendor == Vendor::Mlx5 ? fmt::format("{} ({})", nic.fw, nic.board_id) : nic.fw;
  return fmt::format(
      "driver: {}\n"
      "version: {}\n"
      "firmware-version: {}\n"
      "expansion-rom-version: \n"
      "bus-info: {}\n"
      "supports-statistics: yes\n"
      "supports-test: yes\n"
      "supports-eeprom-access: {}\n"
      "supports-register-dump: {}\n"
      "supports-priv-flags: yes\n",
      model.driver, nic.driver_version, fw, nic.pci, nic.vendor == Vendor::Mlx5 ? "no" : "yes",
      nic.vendor == Vendor::Mlx5 ? "no" : "yes");
}

std::string ethtool_settings(const Nic& nic) {
  const int rated = nic.rated_gbps * 1000;
  const int half = rated / 2;
  const char* suffix = nic.rated_lanes >= 4 ? "CR4" : "CR2";
  return fmt::format(
      "Settings for {0}:\n"
      "\tSupported ports: [ Backplane ]\n"
      "\tSupported link modes:   {1}base{3}/Full\n"
      "\t                        {2}baseCR2/Full\n"
      "\tSupported pause frame use: Symmetric\n"
      "\tSupports auto-negotiation: Yes\n"
      "\tSupported FEC modes: None\t RS\n"
      "\tAdvertised link modes:  {1}base{3}/Full\n"
      "\tAdvertised pause frame use: No\n"
      "\tAdvertised auto-negotiation: Yes\n"
      "\tAdvertised FEC modes: RS\n"
      "\tSpeed: {4}Mb/s\n"
      "\tDuplex: Full\n"
      "\tAuto-negotiation: on\n"
      "\tPort: Direct Attach Copper\n"
      "\tPHYAD: 0\n"
      "\tTransceiver: internal\n"
      "\tSupports Wake-on: d\n"
      "\tWake-on: d\n"
      "\tCurrent message level: 0x00000004 (4)\n"
      "\t\t\t       link\n"
      "\tLink detected: yes\n",
      nic.netdev, rated, half, suffix, nic.speed_gbps * 1000);
}

}  // namespace netdoctor::sim
