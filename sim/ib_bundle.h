// The InfiniBand parts of a bundle: each HCA's files in a host sample, and fabric/<sample>/
// with the subnet's views as one host captures them with infiniband-diags (spec/bundle.md,
// "InfiniBand fabric views"): captured_at and sos_commands/infiniband/{ibnetdiscover,
// iblinkinfo, ibswitches, ibhosts, ibnodes, sminfo, perfquery_-x_-l_<lid>} per node, plus
// perfquery_-l_<lid> for switches (their -x block has no error counters or PortXmitWait).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/tree_writer.h"
#include "sim/counter_clock.h"
#include "sim/topology.h"

namespace netdoctor::sim {

using PutFile = std::function<void(const std::string&, std::string_view)>;

// One HCA's sysfs files of one host sample under `dir`; its `rdma statistic show` line is
// appended to `statistic`.
void write_ib_nic(const Fabric& fabric, const Host& host, const Nic& nic,
                  const NicSnapshot& counters, const std::string& dir, const PutFile& put,
                  std::string& statistic);

// fabric/<sample>/ for every sample; adds the files written to `files`.
Status write_ib_fabric(const Fabric& fabric, TreeWriter& writer, const std::string& prefix,
                       std::size_t& files);

}  // namespace netdoctor::sim
