#include "sim/writers/sonic_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/sonic_table.h"

namespace netdoctor::sim {

std::string show_interfaces_counters(const Switch& sw, const std::vector<PortSample>& ports) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < sw.ports.size(); ++i) {
    const Port& port = sw.ports[i];
    const PortSnapshot& s = ports[i].counters;
    const double line = line_rate_bytes(port.speed_gbps);
    const double rx = port.rates[PortRate::RxBytes] * ports[i].rate_factor;
    const double tx = port.rates[PortRate::TxBytes] * ports[i].rate_factor;
    rows.push_back({port.name, "U", grouped_count(s[PortRate::RxPackets]), sonic_byte_rate(rx),
                    fmt::format("{:.2f}%", 100.0 * rx / line), grouped_count(s[PortRate::RxErrors]),
                    grouped_count(s[PortRate::RxDrops]), "0", grouped_count(s[PortRate::TxPackets]),
                    sonic_byte_rate(tx), fmt::format("{:.2f}%", 100.0 * tx / line), "0",
                    grouped_count(s[PortRate::RoceQueueDrops] + s[PortRate::OtherQueueDrops]),
                    "0"});
  }
  return render_sonic_table({"IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP",
                             "RX_OVR", "TX_OK", "TX_BPS", "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR"},
                            rows);
}

std::string show_interfaces_status(const Switch& sw) {
  std::vector<std::vector<std::string>> rows;
  for (const Port& port : sw.ports) {
    std::string lanes;
    for (int lane = 0; lane < port.rated_lanes; ++lane) {
      lanes += fmt::format("{}{}", lane == 0 ? "" : ",", port.first_lane + lane);
    }
    const bool wide = port.rated_lanes >= 8;
    rows.push_back({port.name, lanes, fmt::format("{}G", port.speed_gbps),
                    fmt::format("{}", port.mtu), "rs", port.alias, "routed", "up", "up",
                    wide ? "QSFP-DD Double Density 8X Pluggable Transceiver" : "QSFP56", "N/A"});
  }
  return render_sonic_table({"Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper",
                             "Admin", "Type", "Asym PFC"},
                            rows);
}

std::string show_pfc_counters(const Switch& sw, const std::vector<PortSample>& ports,
                              int roce_priority) {
  std::string out;
  for (const bool rx : {true, false}) {
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < sw.ports.size(); ++i) {
      std::vector<std::string> row = {sw.ports[i].name};
      for (int prio = 0; prio < 8; ++prio) {
        const std::uint64_t value =
            prio == roce_priority ? ports[i].counters[rx ? PortRate::PfcRx : PortRate::PfcTx] : 0;
        row.push_back(grouped_count(value));
      }
      rows.push_back(std::move(row));
    }
    if (!rx) {
      out += "\n";
    }
    out += render_sonic_table({rx ? "Port Rx" : "Port Tx", "PFC0", "PFC1", "PFC2", "PFC3", "PFC4",
                               "PFC5", "PFC6", "PFC7"},
                              rows);
  }
  return out;
}

std::string show_queue_counters(const Switch& sw, const std::vector<PortSample>& ports,
                                int roce_priority) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < sw.ports.size(); ++i) {
    const PortSnapshot& s = ports[i].counters;
    const std::uint64_t roce_packets = s[PortRate::TxRocePackets];
    const std::uint64_t roce_bytes = s[PortRate::TxRoceBytes];
    const std::uint64_t all_packets = s[PortRate::TxPackets];
    const std::uint64_t all_bytes = s[PortRate::TxBytes];
    const std::uint64_t other_packets = all_packets > roce_packets ? all_packets - roce_packets : 0;
    const std::uint64_t other_bytes = all_bytes > roce_bytes ? all_bytes - roce_bytes : 0;
    for (int q = 0; q < 10; ++q) {
      std::uint64_t packets = 0, bytes = 0, drops = 0, drop_bytes = 0;
      if (q == 0) {
        packets = other_packets;
        bytes = other_bytes;
        drops = s[PortRate::OtherQueueDrops];
        drop_bytes = drops * 900;
      } else if (q == roce_priority) {
        packets = roce_packets;
        bytes = roce_bytes;
        drops = s[PortRate::RoceQueueDrops];
        drop_bytes = drops * 4000;
      }
      rows.push_back({sw.ports[i].name, fmt::format("{}{}", q < 8 ? "UC" : "MC", q),
                      grouped_count(packets), grouped_count(bytes), grouped_count(drops),
                      grouped_count(drop_bytes)});
    }
  }
  return render_sonic_table(
      {"Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes"}, rows);
}

namespace {

// SONiC's default lossless queues (buffers_config.j2) with the RoCE priority's among them.
std::vector<int> lossless_queues(int roce_priority) {
  std::vector<int> queues = {3, 4};
  if (roce_priority != 3 && roce_priority != 4) {
    queues.push_back(roce_priority);
  }
  std::sort(queues.begin(), queues.end());
  return queues;
}

std::string pair_cell(std::uint64_t a, std::uint64_t b) {
  return grouped_count(a) + "/" + grouped_count(b);
}

// One queue row; only the RoCE queue of a storming port shows the watchdog at work.
std::vector<std::string> pfcwd_row(const Port& port, const PortSnapshot& s, int queue,
                                   bool roce_queue) {
  const bool storming = roce_queue && port.rates[PortRate::PfcwdStorms] > 0.0;
  if (!storming) {
    return {
        fmt::format("{}:{}", port.name, queue), "operational", "0/0", "0/0", "0/0", "0/0", "0/0"};
  }
  // The storm began before the capture: its first detection predates the first sample, and
  // the latest one is still on.
  const std::uint64_t detected = 1 + s[PortRate::PfcwdStorms];
  const std::uint64_t tx_drop = s[PortRate::PfcwdTxDrops];
  const std::uint64_t rx_drop = s[PortRate::PfcwdRxDrops];
  return {fmt::format("{}:{}", port.name, queue),
          "stormed",
          pair_cell(detected, detected - 1),
          pair_cell(0, tx_drop),
          pair_cell(0, rx_drop),
          pair_cell(0, tx_drop / detected),
          pair_cell(0, rx_drop / detected)};
}

}  // namespace

std::string show_pfcwd_stats(const Switch& sw, const std::vector<PortSample>& ports,
                             int roce_priority) {
  std::vector<std::vector<std::string>> rows;
  const std::vector<int> queues = lossless_queues(roce_priority);
  for (std::size_t i = 0; i < sw.ports.size(); ++i) {
    for (const int q : queues) {
      rows.push_back(pfcwd_row(sw.ports[i], ports[i].counters, q, q == roce_priority));
    }
  }
  return render_sonic_table({"QUEUE", "STATUS", "STORM DETECTED/RESTORED", "TX OK/DROP",
                             "RX OK/DROP", "TX LAST OK/DROP", "RX LAST OK/DROP"},
                            rows);
}

std::string show_pfcwd_config(const Switch& sw) {
  std::vector<std::vector<std::string>> rows;
  for (const Port& port : sw.ports) {
    rows.push_back({port.name, "drop", "200", "200"});
  }
  return "Changed polling interval to 200ms\n" +
         render_sonic_table({"PORT", "ACTION", "DETECTION TIME", "RESTORATION TIME"}, rows);
}

std::string show_lldp_table(const Fabric& fabric, const Switch& sw) {
  std::vector<std::vector<std::string>> rows;
  for (const Port& port : sw.ports) {
    if (port.kind == PortKind::HostFacing) {
      const Nic& nic = fabric.hosts[port.peer_host].nics[port.peer_nic];
      rows.push_back({port.name, fabric.hosts[port.peer_host].name, nic.netdev, "", nic.netdev});
    } else {
      const Port& far = fabric.switches[port.peer_switch].ports[port.peer_port];
      rows.push_back({port.name, fabric.switches[port.peer_switch].name, far.name, "BR", far.name});
    }
  }
  return "Capability codes: (R) Router, (B) Bridge, (O) Other\n" +
         render_sonic_table(
             {"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"}, rows) +
         std::string(50, '-') + fmt::format("\nTotal entries displayed:  {}\n", rows.size());
}

}  // namespace netdoctor::sim
