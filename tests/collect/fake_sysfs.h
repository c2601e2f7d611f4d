// A fake host root on disk for collect tests: sysfs of mlx5 and Broadcom bnxt RDMA devices with
// their netdevs, a plain up interface, a down one and loopback.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace netdoctor::testing {

inline void put_file(const std::string& root, const std::string& relative,
                     const std::string& content) {
  const std::filesystem::path path = std::filesystem::path(root) / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << content;
}

struct FakeNic {
  std::string device;  // "mlx5_0", "bnxt_re0"
  std::string netdev;  // "ens1f0np0"
  std::string fw = "28.39.1002";
};

// `counter_base` offsets every counter so two trees can stand for two moments.
inline void write_fake_nic(const std::string& root, const FakeNic& nic, long counter_base) {
  const std::string ib = "sys/class/infiniband/" + nic.device;
  put_file(root, ib + "/fw_ver", nic.fw + "\n");
  put_file(root, ib + "/node_desc", "fakehost " + nic.device + "\n");
  put_file(root, ib + "/device/net/" + nic.netdev + "/ifindex", "4\n");
  const std::string port = ib + "/ports/1";
  put_file(root, port + "/state", "4: ACTIVE\n");
  put_file(root, port + "/phys_state", "5: LinkUp\n");
  put_file(root, port + "/rate", "400 Gb/sec (4X NDR)\n");
  put_file(root, port + "/link_layer", "Ethernet\n");
  const std::vector<std::string> counters = {"port_rcv_data", "port_xmit_data", "symbol_error",
                                             "port_rcv_errors", "link_downed"};
  for (std::size_t i = 0; i < counters.size(); ++i) {
    put_file(root, port + "/counters/" + counters[i],
             std::to_string(counter_base + static_cast<long>(i) * 1000) + "\n");
  }
  const bool mellanox = nic.device.rfind("mlx", 0) == 0;
  const std::vector<std::string> hw =
      mellanox ? std::vector<std::string>{"out_of_buffer", "np_cnp_sent", "rp_cnp_handled",
                                          "packet_seq_err"}
               : std::vector<std::string>{"rx_pkts", "tx_pkts", "rx_roce_discards", "tx_cnp_pkts"};
  for (std::size_t i = 0; i < hw.size(); ++i) {
    put_file(root, port + "/hw_counters/" + hw[i],
             std::to_string(counter_base + static_cast<long>(i)) + "\n");
  }
  const std::string net = "sys/class/net/" + nic.netdev;
  put_file(root, net + "/mtu", "4200\n");
  put_file(root, net + "/operstate", "up\n");
  put_file(root, net + "/speed", "400000\n");
  put_file(root, net + "/address", "b8:3f:d2:00:00:01\n");
  for (const char* stat : {"rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_dropped"}) {
    put_file(root, net + "/statistics/" + stat, std::to_string(counter_base) + "\n");
  }
}

// mlx5_0/ens1f0np0 and bnxt_re0/ens2f0np0, plus eth9 (up, no RDMA), eth8 (down) and lo.
inline std::vector<FakeNic> write_fake_host(const std::string& root, const std::string& hostname,
                                            long counter_base = 1000) {
  const std::vector<FakeNic> nics = {{"mlx5_0", "ens1f0np0", "28.39.1002"},
                                     {"bnxt_re0", "ens2f0np0", "227.0.131.0"}};
  for (const auto& nic : nics) {
    write_fake_nic(root, nic, counter_base);
  }
  put_file(root, "sys/class/net/eth9/operstate", "up\n");
  put_file(root, "sys/class/net/eth9/mtu", "1500\n");
  put_file(root, "sys/class/net/eth9/statistics/rx_bytes", "77\n");
  put_file(root, "sys/class/net/eth8/operstate", "down\n");
  put_file(root, "sys/class/net/eth8/mtu", "1500\n");
  put_file(root, "sys/class/net/lo/operstate", "unknown\n");
  put_file(root, "proc/sys/kernel/hostname", hostname + "\n");
  return nics;
}

}  // namespace netdoctor::testing
