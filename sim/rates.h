// Per-second rates of everything a NIC or a switch port counts. Cumulative counters in the
// written bundle are `history rate x uptime + current rate x elapsed`, so a fault shows in the
// deltas between samples (what probes read) while absolute values look like a long uptime.
#pragma once

#include <array>
#include <cstddef>

namespace netdoctor::sim {

enum class NicRate : std::size_t {
  TxRdmaBytes,  // RoCE traffic on the RoCE priority, bytes on the wire
  TxRdmaPackets,
  RxRdmaBytes,
  RxRdmaPackets,
  TxOtherBytes,  // kernel (TCP/IP) traffic on priority 0
  TxOtherPackets,
  RxOtherBytes,
  RxOtherPackets,
  TxOtherRoceBytes,  // non-RDMA traffic mapped onto the RoCE priority (isolation fault)
  TxOtherRocePackets,
  RxOtherRoceBytes,
  RxOtherRocePackets,
  TxPause,  // PFC frames on the RoCE priority
  RxPause,
  TxPauseMicros,  // microseconds paused per second (mlx5 *_pause_duration)
  RxPauseMicros,
  PauseStormWarnings,
  PauseStormErrors,
  EcnMarked,  // RoCE packets received with CE
  CnpSent,
  CnpHandled,
  CnpIgnored,
  RxDiscardsPhy,   // no receive buffer at the port
  RxRoceDiscards,  // drops on the RoCE priority
  RxOutOfBuffer,   // netdev software buffers
  RdmaOutOfBuffer,
  OutOfSequence,
  PacketSeqErr,
  LocalAckTimeout,
  DuplicateRequest,
  ImpliedNakSeqErr,
  RnrNakRetryErr,
  SymbolErrors,
  CrcErrors,
  CorrectedBits,
  FecUncorrectable,
  LinkDowns,
  OversizePackets,  // frames longer than our MTU (the peer's MTU is larger)
  XmitWait,         // InfiniBand PortXmitWait ticks (1 tick per ns)
  LinkRecovers,     // InfiniBand LinkErrorRecoveryCounter
  Count
};

enum class PortRate : std::size_t {
  RxBytes,
  RxPackets,
  TxBytes,
  TxPackets,
  TxRoceBytes,  // egress on the lossless queue (UC3)
  TxRocePackets,
  RxErrors,
  RxDrops,
  RoceQueueDrops,  // egress drops on the lossless queue: packets
  OtherQueueDrops,
  PfcRx,  // PFC frames on the RoCE priority received from the peer
  PfcTx,
  LinkDowns,
  PfcwdStorms,   // storms the PFC watchdog detects on the RoCE queue
  PfcwdTxDrops,  // packets it drops towards the stormed peer
  PfcwdRxDrops,  // and from it
  XmitWait,      // InfiniBand: PortXmitWait ticks (1 tick per ns)
  SymbolErrors,  // InfiniBand: SymbolErrorCounter, LinkErrorRecoveryCounter, PortXmitDiscards
  LinkRecovers,
  XmitDiscards,
  Count
};

template <typename Index>
class Rates {
 public:
  double& operator[](Index index) { return m_values[static_cast<std::size_t>(index)]; }
  double operator[](Index index) const { return m_values[static_cast<std::size_t>(index)]; }
  void scale(Index index, double factor) { (*this)[index] *= factor; }
  void add(Index index, double amount) { (*this)[index] += amount; }

 private:
  std::array<double, static_cast<std::size_t>(Index::Count)> m_values{};
};

using NicRates = Rates<NicRate>;
using PortRates = Rates<PortRate>;

// Whether a counter follows the traffic noise of its link (bytes, packets, pause) or grows
// smoothly (errors, marks): the two ends of a cable must see the same traffic noise.
bool is_traffic(NicRate rate);
bool is_traffic(PortRate rate);

}  // namespace netdoctor::sim
