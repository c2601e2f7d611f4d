// Counter values every NIC writer needs, combined from one snapshot the same way for sysfs and
// ethtool (so the two agree as they do on a real host).
#pragma once

#include <cstdint>

#include "sim/counter_clock.h"

namespace netdoctor::sim {

struct NicTotals {
  std::uint64_t tx_bytes = 0;  // on the wire, all traffic
  std::uint64_t rx_bytes = 0;
  std::uint64_t tx_packets = 0;
  std::uint64_t rx_packets = 0;
  std::uint64_t tx_kernel_bytes = 0;  // through the netdev (not RDMA): prio 0 + non-RDMA on RoCE
  std::uint64_t rx_kernel_bytes = 0;
  std::uint64_t tx_kernel_packets = 0;
  std::uint64_t rx_kernel_packets = 0;
  std::uint64_t tx_roce_prio_bytes = 0;  // everything on the RoCE priority
  std::uint64_t rx_roce_prio_bytes = 0;
  std::uint64_t tx_roce_prio_packets = 0;
  std::uint64_t rx_roce_prio_packets = 0;
};

inline NicTotals nic_totals(const NicSnapshot& s) {
  NicTotals t;
  t.tx_kernel_bytes = s[NicRate::TxOtherBytes] + s[NicRate::TxOtherRoceBytes];
  t.rx_kernel_bytes = s[NicRate::RxOtherBytes] + s[NicRate::RxOtherRoceBytes];
  t.tx_kernel_packets = s[NicRate::TxOtherPackets] + s[NicRate::TxOtherRocePackets];
  t.rx_kernel_packets = s[NicRate::RxOtherPackets] + s[NicRate::RxOtherRocePackets];
  t.tx_bytes = t.tx_kernel_bytes + s[NicRate::TxRdmaBytes];
  t.rx_bytes = t.rx_kernel_bytes + s[NicRate::RxRdmaBytes];
  t.tx_packets = t.tx_kernel_packets + s[NicRate::TxRdmaPackets];
  t.rx_packets = t.rx_kernel_packets + s[NicRate::RxRdmaPackets];
  t.tx_roce_prio_bytes = s[NicRate::TxRdmaBytes] + s[NicRate::TxOtherRoceBytes];
  t.rx_roce_prio_bytes = s[NicRate::RxRdmaBytes] + s[NicRate::RxOtherRoceBytes];
  t.tx_roce_prio_packets = s[NicRate::TxRdmaPackets] + s[NicRate::TxOtherRocePackets];
  t.rx_roce_prio_packets = s[NicRate::RxRdmaPackets] + s[NicRate::RxOtherRocePackets];
  return t;
}

}  // namespace netdoctor::sim
