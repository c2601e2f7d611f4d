#include "sim/ib_traffic.h"

#include <algorithm>

#include "sim/counter_clock.h"
#include "sim/traffic.h"

namespace netdoctor::sim {
namespace {

// A port busy at `utilization` waits for credits this share of the time: a fraction of a
// percent at the usual loads (short bursts of many-to-one traffic), never more than 0.8 %.
double healthy_wait_share(double utilization, double coefficient) {
  return std::clamp(utilization * coefficient, 0.0, 0.008);
}

double coefficient(const Fabric& fabric, std::string_view key) {
  return 0.001 + 0.007 * hash_unit(fabric.noise_seed ^ 0x1b873593ull, key, 0);
}

}  // namespace

double xmit_wait_ticks_per_s(int gbps, int lanes) {
  constexpr double k_bytes_per_tick = 8.0;  // Tick 7: (7 + 1) symbol (byte) times
  const double lane_bytes_per_s = static_cast<double>(gbps) / std::max(1, lanes) * 1e9 / 8.0;
  return lane_bytes_per_s / k_bytes_per_tick;
}

void seed_ib_rates(Fabric& fabric) {
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      for (const NicRate rate :
           {NicRate::SymbolErrors, NicRate::CrcErrors, NicRate::FecUncorrectable,
            NicRate::LinkDowns, NicRate::LinkRecovers}) {
        nic.rates[rate] = 0.0;
      }
    }
  }
  for (Switch& sw : fabric.switches) {
    for (Port& port : sw.ports) {
      for (const PortRate rate :
           {PortRate::RxErrors, PortRate::RxDrops, PortRate::LinkDowns, PortRate::SymbolErrors,
            PortRate::LinkRecovers, PortRate::XmitDiscards}) {
        port.rates[rate] = 0.0;
      }
    }
  }
}

void seed_ib_history(Fabric& fabric, Rng& rng) {
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      nic.history[NicRate::SymbolErrors] =
          rng.chance(0.2) ? rng.uniform(1.0, 30.0) / host.uptime_s : 0.0;
      nic.history[NicRate::LinkRecovers] = rng.chance(0.1) ? 1.0 / host.uptime_s : 0.0;
      nic.history[NicRate::CrcErrors] = 0.0;
      nic.history[NicRate::FecUncorrectable] = 0.0;
    }
  }
  for (Switch& sw : fabric.switches) {
    const double age = sw.pma_cleared_s;
    bool saturated_one = false;
    for (Port& port : sw.ports) {
      port.history[PortRate::SymbolErrors] = rng.chance(0.15) ? rng.uniform(1.0, 40.0) / age : 0.0;
      port.history[PortRate::LinkRecovers] = rng.chance(0.08) ? 1.0 / age : 0.0;
      port.history[PortRate::XmitDiscards] = rng.chance(0.1) ? rng.uniform(1.0, 200.0) / age : 0.0;
      port.history[PortRate::RxErrors] = rng.chance(0.1) ? rng.uniform(1.0, 20.0) / age : 0.0;
      port.history[PortRate::LinkDowns] = static_cast<double>(1 + rng.below(2)) / age;
      // A long-running switch: one cable that was bad once (replaced or reseated since) left its
      // 16-bit SymbolErrorCounter at the maximum.
      if (!saturated_one && age == sw.uptime_s && rng.chance(0.3)) {
        port.history[PortRate::SymbolErrors] = 70000.0 / age;
        saturated_one = true;
      }
    }
  }
}

void derive_ib_waits(Fabric& fabric) {
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      const double share = healthy_wait_share(
          nic_tx_bytes(nic) / line_rate_bytes(nic.speed_gbps),
          coefficient(fabric, nic_link_key(host, nic)) * 0.3);  // HCAs rarely wait
      const double ticks = xmit_wait_ticks_per_s(nic.speed_gbps, nic.lanes);
      nic.rates[NicRate::XmitWait] = (share + nic.ib_wait_share) * ticks;
      nic.history[NicRate::XmitWait] = share * ticks * 0.7;
    }
  }
  for (Switch& sw : fabric.switches) {
    for (Port& port : sw.ports) {
      const double utilization = port.rates[PortRate::TxBytes] / line_rate_bytes(port.speed_gbps);
      const double share =
          healthy_wait_share(utilization, coefficient(fabric, sw.name + "/" + port.name));
      const double ticks = xmit_wait_ticks_per_s(port.speed_gbps, port.lanes);
      port.rates[PortRate::XmitWait] = (share + port.ib_wait_share) * ticks;
      port.history[PortRate::XmitWait] = share * ticks * 0.7;
    }
  }
}

}  // namespace netdoctor::sim
