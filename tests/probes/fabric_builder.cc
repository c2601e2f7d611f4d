#include "tests/probes/fabric_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace netdoctor::testing {
namespace {

constexpr double k_t0 = 1'766'000'000.0;
constexpr int k_roce = 3;

// A deterministic +-10 % wiggle per entity and metric.
double wiggle(int seed) {
  return 1.0 + 0.1 * std::sin(static_cast<double>(seed) * 12.9898);
}

void put(std::vector<model::CounterSample>& samples, const std::string& name, int index,
         double per_second, double base) {
  double t0 = samples.front().captured_at;
  for (auto& sample : samples) {
    sample.values[model::MetricKey{name, index}] =
        std::floor(base + per_second * (sample.captured_at - t0));
  }
}

std::vector<model::CounterSample> make_samples(const std::vector<double>& times) {
  std::vector<model::CounterSample> samples;
  for (double t : times) {
    model::CounterSample sample;
    sample.captured_at = t;
    samples.push_back(sample);
  }
  return samples;
}

void fill_nic_counters(model::Nic& nic, int seed) {
  auto& s = nic.samples;
  double bytes = 14e9 * wiggle(seed);
  double packets = bytes / 4150.0;
  put(s, "pfc_tx_pause_frames", k_roce, 5.0 * wiggle(seed + 1), 2e4);
  put(s, "pfc_rx_pause_frames", k_roce, 12.0 * wiggle(seed + 2), 4e4);
  put(s, "pfc_tx_pause_us", k_roce, 16.0 * wiggle(seed + 3), 6e4);
  put(s, "pfc_rx_pause_us", k_roce, 38.0 * wiggle(seed + 4), 1e5);
  put(s, "pause_storm_warning_events", -1, 0.0, 0.0);
  put(s, "pause_storm_error_events", -1, 0.0, 0.0);
  put(s, "port_rx_discards", -1, 0.0, 3.0);
  put(s, "prio_rx_discards", k_roce, 0.0, 3.0);
  put(s, "rx_out_of_buffer", -1, 0.3 * wiggle(seed + 5), 16.0);
  put(s, "fcs_errors", -1, 0.0, 2.0);
  put(s, "symbol_errors", -1, 0.0, 2.0);
  put(s, "fec_corrected_bits", -1, 30.0 * wiggle(seed + 6), 1e7);
  put(s, "fec_uncorrectable_blocks", -1, 0.0, 0.0);
  put(s, "link_down_events", -1, 0.0, 1.0);
  put(s, "rx_bits", -1, bytes * 8.0, 1e15);
  put(s, "prio_tx_bytes", k_roce, bytes, 1e15);
  put(s, "prio_rx_bytes", k_roce, bytes * wiggle(seed + 7), 1e15);
  put(s, "prio_tx_packets", k_roce, packets, 1e12);
  put(s, "prio_rx_packets", k_roce, packets * wiggle(seed + 7), 1e12);
  put(s, "rdma_tx_bytes", -1, bytes, 1e15);
  put(s, "rdma_rx_bytes", -1, bytes * wiggle(seed + 7), 1e15);
  put(s, "port_tx_bytes", -1, bytes * 1.03, 1.1e15);
  put(s, "port_rx_bytes", -1, bytes * 1.03 * wiggle(seed + 7), 1.1e15);
  put(s, "port_tx_packets", -1, packets * 1.1, 1.1e12);
  put(s, "port_rx_packets", -1, packets * 1.1 * wiggle(seed + 7), 1.1e12);
  put(s, "ecn_marked_packets", -1, 300.0 * wiggle(seed + 8), 1e6);
  put(s, "cnp_sent", -1, 280.0 * wiggle(seed + 9), 1e6);
  put(s, "cnp_handled", -1, 270.0 * wiggle(seed + 10), 1e6);
  put(s, "cnp_ignored", -1, 0.0, 0.0);
  put(s, "out_of_sequence", -1, 0.1 * wiggle(seed + 11), 100.0);
  put(s, "seq_err_naks", -1, 0.05 * wiggle(seed + 12), 50.0);
  put(s, "ack_timeouts", -1, 0.0, 3.0);
  put(s, "retransmits", -1, 0.1 * wiggle(seed + 13), 100.0);
  put(s, "duplicate_requests", -1, 0.05 * wiggle(seed + 14), 40.0);
}

// The usual mlx5 GID table: link-local v1/v2 at 0/1, the NIC's IPv4 address v1/v2 at 2/3.
void add_gid_table(model::Nic& nic) {
  const std::string ip = nic.ipv4.front().substr(0, nic.ipv4.front().find('/'));
  unsigned a = 0, b = 0, c = 0, d = 0;
  std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d);
  const std::string local = "fe80:0000:0000:0000:0ac0:ebff:fe21:03da";
  const std::string mapped =
      fmt::format("0000:0000:0000:0000:0000:ffff:{:04x}:{:04x}", (a << 8) | b, (c << 8) | d);
  nic.gids = {{0, local, "IB/RoCE v1", nic.netdev, ""},
              {1, local, "RoCE v2", nic.netdev, ""},
              {2, mapped, "IB/RoCE v1", nic.netdev, ip},
              {3, mapped, "RoCE v2", nic.netdev, ip}};
  nic.sources["sysfs gids"] = model::SourceState{model::Availability::Observed, {}};
}

model::SwitchPort make_port(const std::string& name, double gbps, int mtu, const std::string& peer,
                            const std::string& peer_port, const std::vector<double>& times,
                            int seed) {
  model::SwitchPort port;
  port.name = name;
  port.speed_gbps = gbps;
  port.mtu = mtu;
  port.oper = model::LinkState::Up;
  port.admin = model::LinkState::Up;
  port.peer_device = peer;
  port.peer_port = peer_port;
  port.samples = make_samples(times);
  auto& s = port.samples;
  double pps = 3e6 * wiggle(seed);
  put(s, "rx_packets", -1, pps, 1e12);
  put(s, "tx_packets", -1, pps, 1e12);
  put(s, "rx_errors", -1, 0.0, 1.0);
  put(s, "rx_drops", -1, 0.5 * wiggle(seed + 1), 30.0);
  put(s, "tx_drops", -1, 0.5 * wiggle(seed + 2), 30.0);
  put(s, "pfc_rx_pause_frames", k_roce, 5.0 * wiggle(seed + 3), 2e4);
  put(s, "pfc_tx_pause_frames", k_roce, 12.0 * wiggle(seed + 4), 4e4);
  put(s, "queue_tx_packets", k_roce, pps, 1e12);
  put(s, "queue_tx_bytes", k_roce, pps * 4150.0, 4e15);
  put(s, "queue_drop_packets", k_roce, 0.02 * wiggle(seed + 5), 5.0);
  put(s, "queue_tx_packets", 0, pps * 0.05, 1e11);
  put(s, "queue_drop_packets", 0, 0.3 * wiggle(seed + 6), 100.0);
  double util = 50.0 * wiggle(seed + 7);
  for (auto& sample : s) {
    sample.values[model::MetricKey{"tx_util_pct", -1}] = util;
    sample.values[model::MetricKey{"rx_util_pct", -1}] = util;
    sample.values[model::MetricKey{"tx_bps", -1}] = util / 100.0 * gbps * 1e9 / 8.0;
    sample.values[model::MetricKey{"rx_bps", -1}] = util / 100.0 * gbps * 1e9 / 8.0;
  }
  return port;
}

}  // namespace

model::PcieLink pcie_link(double gt_s, std::uint32_t width, double max_gt_s,
                          std::uint32_t max_width) {
  model::PcieLink link;
  link.source = "sysfs pcie";
  link.gt_s = gt_s;
  link.width = width;
  link.max_gt_s = max_gt_s;
  link.max_width = max_width;
  link.generation = gt_s >= 32.0 ? 5 : gt_s >= 16.0 ? 4 : 3;
  // width x GT/s x 128b/130b (gen3 to gen5), per direction.
  link.ceiling_gbps = gt_s * width * 128.0 / 130.0;
  link.capable_gbps = max_gt_s * max_width * 128.0 / 130.0;
  link.width_downgraded = width < max_width;
  link.speed_downgraded = gt_s < max_gt_s;
  return link;
}

model::Fabric healthy_fleet(const FleetSpec& spec) {
  model::Fabric fabric;
  fabric.name = "test-fleet";
  int hosts_per_leaf = (spec.hosts + spec.leaves - 1) / spec.leaves;
  int downlinks = hosts_per_leaf * spec.nics_per_host;
  int uplinks = spec.uplinks_per_leaf > 0 ? spec.uplinks_per_leaf : downlinks;
  std::vector<double> switch_times;
  for (int i = 0; i < spec.samples; ++i) {
    switch_times.push_back(k_t0 + spec.window_s * i + 0.1);
  }
  std::vector<model::Switch> leaves(static_cast<std::size_t>(spec.leaves));
  for (int l = 0; l < spec.leaves; ++l) {
    auto& leaf = leaves[static_cast<std::size_t>(l)];
    leaf.name = fmt::format("leaf{}", l + 1);
    leaf.captured_at = switch_times;
  }
  for (int h = 0; h < spec.hosts; ++h) {
    model::Host host;
    // Zero-padded to the fleet's size, so the hosts are in name order as the loader keeps them
    // (Fabric::find_host searches by name).
    host.name = fmt::format("node{:0{}d}", h + 1,
                            std::max<std::size_t>(2, std::to_string(spec.hosts).size()));
    for (int i = 0; i < spec.samples; ++i) {
      host.captured_at.push_back(k_t0 + spec.window_s * i + 0.05 * std::sin(h * 3.0 + i));
    }
    host.clock.offset_s = 2e-5 * wiggle(h);
    host.clock.synchronised = true;
    host.clock.source = "chronyc tracking";
    host.clock.leap_status = "Normal";
    host.clock.reference = "0A000101 (10.0.1.1)";
    int leaf_index = h / hosts_per_leaf;
    auto& leaf = leaves[static_cast<std::size_t>(leaf_index)];
    for (int n = 0; n < spec.nics_per_host; ++n) {
      model::Nic nic;
      nic.host = host.name;
      nic.device = fmt::format("mlx5_{}", n);
      nic.netdev = fmt::format("ens{}f0np0", n + 1);
      nic.vendor = "mlx5";
      nic.driver = "mlx5_core";
      nic.driver_version = "24.04-0.6.6";
      nic.firmware = "28.39.1002";
      nic.board_id = "MT_0000000838";
      nic.part_id = "4129";
      nic.mtu = 9000;
      nic.active_mtu = 4096;
      nic.max_mtu = 4096;
      nic.speed_gbps = 400.0;
      nic.rated_gbps = 400.0;
      nic.active_width = 4;
      nic.state = model::RdmaPortState::Active;
      nic.phys_state = model::PhysState::LinkUp;
      nic.operstate = model::LinkState::Up;
      nic.link_layer = "Ethernet";
      nic.ipv4 = {fmt::format("10.{}.0.{}/24", 10 + n, h + 1)};
      add_gid_table(nic);
      nic.qos.tool = "mlnx_qos";
      nic.qos.trust = "dscp";
      for (std::size_t p = 0; p < 8; ++p) {
        nic.qos.pfc_enabled[p] = (p == static_cast<std::size_t>(k_roce));
      }
      int local = (h % hosts_per_leaf) * spec.nics_per_host + n;
      nic.switch_name = leaf.name;
      nic.switch_port = fmt::format("Ethernet{}", local * 4);
      nic.bus_info = fmt::format("0000:{:02x}:00.0", 0x1a + 0x10 * n);
      nic.pcie = pcie_link(32.0, 16, 32.0, 16);  // gen5 x16: ~504 Gb/s for a 400G port
      nic.samples = make_samples(host.captured_at);
      fill_nic_counters(nic, h * 16 + n);
      for (const char* source :
           {"ethtool -S", "sysfs hw_counters", "ethtool -i", "mlnx_qos", "dmesg"}) {
        nic.sources[source] = model::SourceState{model::Availability::Observed, {}};
      }
      leaf.ports.push_back(make_port(nic.switch_port, 400.0, 9100, host.name, nic.netdev,
                                     switch_times, 1000 + h * 16 + n));
      host.nics.push_back(nic);
    }
    fabric.hosts.push_back(host);
  }
  int spines = 4;
  std::vector<model::Switch> spine_list(static_cast<std::size_t>(spines));
  for (int s = 0; s < spines; ++s) {
    spine_list[static_cast<std::size_t>(s)].name = fmt::format("spine{}", s + 1);
    spine_list[static_cast<std::size_t>(s)].captured_at = switch_times;
  }
  for (int l = 0; l < spec.leaves; ++l) {
    auto& leaf = leaves[static_cast<std::size_t>(l)];
    for (int u = 0; u < uplinks; ++u) {
      auto& spine = spine_list[static_cast<std::size_t>(u % spines)];
      std::string leaf_port = fmt::format("Ethernet{}", 256 + u * 8);
      std::string spine_port = fmt::format("Ethernet{}", (l * uplinks + u) * 4);
      leaf.ports.push_back(make_port(leaf_port, spec.uplink_gbps, 9100, spine.name, spine_port,
                                     switch_times, 5000 + l * 100 + u));
      spine.ports.push_back(make_port(spine_port, spec.uplink_gbps, 9100, leaf.name, leaf_port,
                                      switch_times, 7000 + l * 100 + u));
    }
  }
  for (auto& leaf : leaves) {
    fabric.switches.push_back(std::move(leaf));
  }
  for (auto& spine : spine_list) {
    fabric.switches.push_back(std::move(spine));
  }
  for (int h = 0; h + 1 < spec.hosts; h += 2) {
    for (bool baseline : {true, false}) {
      model::PerftestResult bw;
      bw.client = fabric.hosts[static_cast<std::size_t>(h)].name;
      bw.server = fabric.hosts[static_cast<std::size_t>(h + 1)].name;
      bw.test = "ib_write_bw";
      bw.device = "mlx5_0";
      bw.baseline = baseline;
      bw.ok = true;
      bw.bw_avg_gbps = baseline ? 392.0 : 390.5;
      model::PerftestResult lat = bw;
      lat.test = "ib_read_lat";
      lat.bw_avg_gbps.reset();
      lat.lat_typical_us = baseline ? 2.50 : 2.52;
      fabric.perftests.push_back(bw);
      fabric.perftests.push_back(lat);
    }
  }
  fabric.nccl_jobs.push_back(nccl_job(fabric));
  // An active sweep of the fleet that found every NIC at its rate (docs/sweep.md).
  model::SweepResult sweep;
  sweep.file = "sweep/active-1.json";
  sweep.verdict = "all-healthy";
  sweep.nics = sweep.tested_nics = static_cast<std::size_t>(spec.hosts * spec.nics_per_host);
  sweep.rounds = 2;
  fabric.sweeps.push_back(sweep);
  return fabric;
}

model::NcclJob nccl_job(const model::Fabric& fabric) {
  model::NcclJob job;
  job.name = "train";
  job.files = {"nccl/train/job.log", "nccl/train/all_reduce_perf.txt"};
  double slowest = 0.0;
  for (const auto& host : fabric.hosts) {
    model::NcclHostView view;
    view.host = view.fabric_host = host.name;
    view.network = "IB";
    double rate = 0.0;
    for (const auto& nic : host.nics) {
      view.hcas.push_back(nic.device);
      view.gdr[nic.device] = true;
      rate += nic.speed_gbps.value_or(0.0);
    }
    slowest = slowest == 0.0 ? rate : std::min(slowest, rate);
    view.rings_gdr = true;
    view.net_channels = view.gdr_channels = 2 * host.nics.size();
    view.channels["NET/IB"] = view.net_channels;
    view.channels["P2P/IPC"] = 16;
    view.env = {{"NCCL_IB_GID_INDEX", "3"}, {"NCCL_DEBUG", "INFO"}};
    job.test_hosts.push_back(host.name);
    job.hosts.push_back(std::move(view));
  }
  job.env = {{"NCCL_IB_GID_INDEX", "3"}, {"NCCL_DEBUG", "INFO"}};
  job.busbw_peak_gbyte_s = 0.85 * slowest / 8.0;  // 85 % of a host's line rate, in GB/s
  job.busbw_avg_gbyte_s = 0.6 * slowest / 8.0;
  return job;
}

model::Nic& nic_at(model::Fabric& fabric, int host, int index) {
  return fabric.hosts.at(static_cast<std::size_t>(host)).nics.at(static_cast<std::size_t>(index));
}

model::SwitchPort& port_named(model::Fabric& fabric, const std::string& switch_name,
                              const std::string& port) {
  for (auto& sw : fabric.switches) {
    if (sw.name != switch_name) {
      continue;
    }
    for (auto& p : sw.ports) {
      if (p.name == port) {
        return p;
      }
    }
  }
  throw std::out_of_range("no port " + switch_name + "/" + port);
}

void set_rate(std::vector<model::CounterSample>& samples, const std::string& name, int index,
              double per_second, double base) {
  put(samples, name, index, per_second, base);
}

void set_gauge(std::vector<model::CounterSample>& samples, const std::string& name, int index,
               double value) {
  for (auto& sample : samples) {
    sample.values[model::MetricKey{name, index}] = value;
  }
}

void remove_metric(std::vector<model::CounterSample>& samples, const std::string& name, int index) {
  for (auto& sample : samples) {
    sample.values.erase(model::MetricKey{name, index});
  }
}

void clear_nic_counters(model::Fabric& fabric) {
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      for (auto& sample : nic.samples) {
        sample.values.clear();
      }
      nic.sources["ethtool -S"] = model::SourceState{model::Availability::Absent, "not captured"};
      nic.sources["sysfs hw_counters"] =
          model::SourceState{model::Availability::Absent, "not captured"};
    }
  }
}

void keep_first_sample(model::Fabric& fabric) {
  for (auto& host : fabric.hosts) {
    host.captured_at.resize(1);
    for (auto& nic : host.nics) {
      nic.samples.resize(1);
    }
  }
  for (auto& sw : fabric.switches) {
    sw.captured_at.resize(1);
    for (auto& port : sw.ports) {
      port.samples.resize(1);
    }
  }
}

void inject_pfc_storm(model::Fabric& fabric) {
  auto& nic = nic_at(fabric, 0, 0);
  set_rate(nic.samples, "pfc_tx_pause_frames", 3, 41000.0);
  set_rate(nic.samples, "pfc_tx_pause_us", 3, 230000.0);  // 23 % of the time
  set_rate(nic.samples, "pause_storm_warning_events", -1, 0.1, 0.0);
  // Its neighbours behind the same leaf receive pause.
  for (int h = 0; h < 4; ++h) {
    for (int n = 0; n < 4; ++n) {
      if (h != 0 || n != 0) {
        set_rate(nic_at(fabric, h, n).samples, "pfc_rx_pause_frames", 3, 4000.0);
      }
    }
  }
  set_rate(port_named(fabric, "leaf1", "Ethernet0").samples, "pfc_rx_pause_frames", 3, 41000.0);
}

}  // namespace netdoctor::testing
