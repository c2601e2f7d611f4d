#include "sim/ib_bundle.h"

#include <fmt/format.h>

#include "sim/writers/host_writers.h"
#include "sim/writers/ib_writers.h"
#include "sim/writers/nic_totals.h"

namespace netdoctor::sim {
namespace {

// The capture host's clock: fabric samples are taken from the first host.
std::vector<double> fabric_times(const Fabric& fabric) {
  return sample_times(fabric, "fabric");
}

std::string link_key(const Fabric& fabric, const Switch& sw, const Port& port) {
  if (port.kind == PortKind::HostFacing) {
    const Host& host = fabric.hosts[port.peer_host];
    return nic_link_key(host, host.nics[port.peer_nic]);
  }
  return uplink_key(fabric, sw, port);
}

// A switch port's PMA counters: the 64-bit data counters since boot (`ext`), the errors and
// PortXmitWait since the PortCounters were last cleared (`plain`).
PmaPort switch_pma(const Port& port, const PortSnapshot& ext, const PortSnapshot& plain) {
  PmaPort p;
  p.number = port.number;
  p.xmit_data = ext[PortRate::TxBytes] / 4;
  p.rcv_data = ext[PortRate::RxBytes] / 4;
  p.xmit_pkts = ext[PortRate::TxPackets];
  p.rcv_pkts = ext[PortRate::RxPackets];
  p.multicast_xmit = p.xmit_pkts / 20000;
  p.multicast_rcv = p.rcv_pkts / 30000;
  p.symbol_errors = plain[PortRate::SymbolErrors];
  p.link_recovers = plain[PortRate::LinkRecovers];
  p.link_downed = plain[PortRate::LinkDowns];
  p.rcv_errors = plain[PortRate::RxErrors];
  p.xmit_discards = plain[PortRate::XmitDiscards];
  p.xmit_wait = plain[PortRate::XmitWait];
  return p;
}

// The same port as plain PortCounters see it: data and packets since the clear too.
PmaPort plain_pma(const Port& port, const PortSnapshot& plain) {
  PmaPort p = switch_pma(port, plain, plain);
  return p;
}

PmaPort hca_pma(const NicSnapshot& s) {
  const NicTotals t = nic_totals(s);
  PmaPort p;
  p.number = 1;
  p.xmit_data = t.tx_bytes / 4;
  p.rcv_data = t.rx_bytes / 4;
  p.xmit_pkts = t.tx_packets;
  p.rcv_pkts = t.rx_packets;
  p.multicast_xmit = t.tx_kernel_packets / 80;
  p.multicast_rcv = t.rx_kernel_packets / 50;
  p.symbol_errors = s[NicRate::SymbolErrors];
  p.link_recovers = s[NicRate::LinkRecovers];
  p.link_downed = s[NicRate::LinkDowns];
  p.rcv_errors = s[NicRate::CrcErrors] + s[NicRate::FecUncorrectable];
  p.xmit_wait = s[NicRate::XmitWait];
  return p;
}

// Every port 1..radix: cabled ones from their counters, the others all zero.
void switch_perfquery(const Fabric& fabric, const Switch& sw, const std::vector<double>& times,
                      std::size_t k, std::string& ext_text, std::string& plain_text) {
  std::vector<PmaPort> ext(sw.radix);
  std::vector<PmaPort> plain(sw.radix);
  for (std::size_t n = 0; n < sw.radix; ++n) {
    ext[n].number = plain[n].number = static_cast<int>(n + 1);
  }
  for (const Port& port : sw.ports) {
    const std::vector<double> elapsed = traffic_elapsed(fabric, link_key(fabric, sw, port), times);
    const double since = times[k] - times[0];
    const PortSnapshot boot(port.rates, port.history, sw.uptime_s, since, elapsed[k], &port.before,
                            onset_seconds(fabric));
    const PortSnapshot cleared(port.rates, port.history, sw.pma_cleared_s, since, elapsed[k],
                               &port.before, onset_seconds(fabric));
    const auto n = static_cast<std::size_t>(port.number - 1);
    ext[n] = switch_pma(port, boot, cleared);
    plain[n] = plain_pma(port, cleared);
  }
  ext_text = perfquery_extended(sw.lid, ext, false);
  plain_text = perfquery_plain(sw.lid, plain);
}

std::string generated_on(double unix_time) {
  // format_utc gives "Wed Dec 02 07:58:31 2026"; ctime's day of month is space-padded.
  std::string text = format_utc(unix_time);
  if (text.size() > 8 && text[8] == '0') {
    text[8] = ' ';
  }
  return text;
}

}  // namespace

void write_ib_nic(const Fabric& fabric, const Host& host, const Nic& nic,
                  const NicSnapshot& counters, const std::string& dir, const PutFile& put,
                  std::string& statistic) {
  std::vector<CounterFile> hw_counters;
  ib_sysfs_files(nic, host, counters, [&](std::string_view path, std::string_view content) {
    constexpr std::string_view k_dir = "/hw_counters/";
    const auto at = path.find(k_dir);
    if (at != std::string_view::npos) {
      hw_counters.emplace_back(std::string(path.substr(at + k_dir.size())), std::string(content));
      if (!fabric.hw_counters) {
        return;
      }
    }
    put(dir + std::string(path), content);
  });
  statistic += rdma_statistic_line(nic, hw_counters);
}

Status write_ib_fabric(const Fabric& fabric, TreeWriter& writer, const std::string& prefix,
                       std::size_t& files) {
  const std::vector<double> times = fabric_times(fabric);
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::string dir = prefix + "fabric/" + sample_name(fabric, k) + "/";
    const std::string ib = dir + "sos_commands/infiniband/";
    std::vector<std::pair<std::string, std::string>> outputs = {
        {dir + "captured_at", fmt::format("{:.6f}\n", times[k])},
        {ib + "ibnetdiscover", ibnetdiscover(fabric, generated_on(times[k]))},
        {ib + "iblinkinfo", iblinkinfo(fabric)},
        {ib + "ibswitches", ibswitches(fabric)},
        {ib + "ibhosts", ibhosts(fabric)},
        {ib + "ibnodes", ibhosts(fabric) + ibswitches(fabric)},
        {ib + "sminfo", sminfo(fabric, k)},
    };
    for (const Switch& sw : fabric.switches) {
      std::string ext;
      std::string plain;
      switch_perfquery(fabric, sw, times, k, ext, plain);
      outputs.emplace_back(fmt::format("{}perfquery_-x_-l_{}", ib, sw.lid), std::move(ext));
      outputs.emplace_back(fmt::format("{}perfquery_-l_{}", ib, sw.lid), std::move(plain));
    }
    for (const Host& host : fabric.hosts) {
      for (const Nic& nic : host.nics) {
        if (!hca_discovered(nic) || nic.lid == 0) {
          continue;  // no LID: nothing can address its PMA
        }
        const std::vector<double> elapsed = traffic_elapsed(fabric, nic_link_key(host, nic), times);
        const NicSnapshot s(nic.rates, nic.history, host.uptime_s, times[k] - times[0], elapsed[k],
                            &nic.before, onset_seconds(fabric));
        outputs.emplace_back(fmt::format("{}perfquery_-x_-l_{}", ib, nic.lid),
                             perfquery_extended(nic.lid, {hca_pma(s)}, true));
      }
    }
    for (const auto& [path, content] : outputs) {
      ND_TRY(writer.write_file(path, content));
      ++files;
    }
  }
  return {};
}

}  // namespace netdoctor::sim
