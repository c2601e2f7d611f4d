// InfiniBand outputs of a simulated subnet, each in the exact layout the real tool prints
// (tests/fixtures/ib/ibsim_* and shared/reference/ib): the host's own view of its HCAs (sysfs
// with link_layer InfiniBand, ibstat, rdma link show) and the fabric-wide views one host takes
// with infiniband-diags (ibnetdiscover, iblinkinfo, perfquery, sminfo, ibswitches, ibhosts,
// ibnodes). Pure: text in, nothing written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/counter_clock.h"
#include "sim/topology.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

// NodeDescriptions: "MF0;leaf-01:MQM8700/U1" (Quantum's own form), "node01 mlx5_0".
std::string switch_description(const Switch& sw);
std::string hca_description(const Host& host, const Nic& nic);
// Whether the subnet's directed-route sweep reaches the HCA (its link trained, whatever its
// state): a host behind a down cable is missing from every fabric view.
bool hca_discovered(const Nic& nic);

// sys/class/infiniband/<dev>/ (node GUID, port state, LID, SM LID, rate, link_layer
// InfiniBand, PMA counters, hw_counters) and sys/class/net/<ipoib>/ of one HCA.
void ib_sysfs_files(const Nic& nic, const Host& host, const NicSnapshot& counters,
                    const FileSink& emit);
// infiniband-diags' `ibstat`, and iproute2's `rdma link show` for IB ports.
std::string ibstat(const Host& host);
std::string ib_rdma_link_show(const Host& host);

// `ibnetdiscover` (topology form): switches, then HCAs, each with its cabled, trained ports.
// `generated_on` is the "# Topology file: generated on ..." date.
std::string ibnetdiscover(const Fabric& fabric, const std::string& generated_on);
// `iblinkinfo` (plain form): every port of every switch and HCA the sweep reaches.
std::string iblinkinfo(const Fabric& fabric);
// `ibswitches`, `ibhosts` and `ibnodes` (HCAs then switches).
std::string ibswitches(const Fabric& fabric);
std::string ibhosts(const Fabric& fabric);
// `sminfo` of fabric sample k: the master the capture host's port reaches, or the tool's error
// when no SM answers.
std::string sminfo(const Fabric& fabric, std::size_t sample);

// One node's PMA counters at one fabric sample: a PortCounters(Extended) block per port.
struct PmaPort {
  int number = 0;
  std::uint64_t xmit_data = 0;  // octets / 4
  std::uint64_t rcv_data = 0;
  std::uint64_t xmit_pkts = 0;
  std::uint64_t rcv_pkts = 0;
  std::uint64_t multicast_xmit = 0;
  std::uint64_t multicast_rcv = 0;
  std::uint64_t symbol_errors = 0;
  std::uint64_t link_recovers = 0;
  std::uint64_t link_downed = 0;
  std::uint64_t rcv_errors = 0;
  std::uint64_t xmit_discards = 0;
  std::uint64_t xmit_wait = 0;
};
// `perfquery -x -l <lid>`: with_errors (CapMask2 bit set, as ConnectX) adds the 64-bit error
// counters and PortXmitWait; without (as Quantum switches and ibsim answer) the block stops at
// the multicast packets.
std::string perfquery_extended(std::uint32_t lid, const std::vector<PmaPort>& ports,
                               bool with_errors);
// `perfquery -l <lid>`: the 32-bit PortCounters, each stopped at its field's maximum.
std::string perfquery_plain(std::uint32_t lid, const std::vector<PmaPort>& ports);

}  // namespace netdoctor::sim
