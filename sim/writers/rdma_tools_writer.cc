// The host RDMA tools' outputs: MLNX_OFED's `ibdev2netdev`, iproute2's `rdma statistic show`
// and `rdma resource show`, in the layouts of shared/reference/iplink/ibdev2netdev_dgxspark.txt
// and shared/reference/sysfs/rdma_{statistic,resource}_show_mlx5_bond.txt.
#include <fmt/format.h>

#include "base/strings.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

std::string ibdev2netdev(const Host& host) {
  std::string out;
  for (const Nic& nic : host.nics) {
    out += fmt::format("{} port 1 ==> {} (Up)\n", nic.rdma_dev, nic.netdev);
  }
  return out;
}

std::string rdma_statistic_line(const Nic& nic, const std::vector<CounterFile>& counters) {
  std::string out = fmt::format("link {}/1", nic.rdma_dev);
  for (const auto& [name, value] : counters) {
    out += fmt::format(" {} {}", name, trim(value));
  }
  return out + "\n";
}

std::string rdma_resource_show(const Host& host) {
  std::string out;
  // The job's verbs objects per device: a few PDs and contexts, a QP per peer and channel.
  for (std::size_t i = 0; i < host.nics.size(); ++i) {
    out += fmt::format("{}: {}: pd 9 cq 132 qp 130 cm_id 0 mr 260 ctx 9 srq 0\n", i,
                       host.nics[i].rdma_dev);
  }
  return out;
}

}  // namespace netdoctor::sim
