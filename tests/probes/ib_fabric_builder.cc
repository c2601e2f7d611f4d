#include "tests/probes/ib_fabric_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/source_names.h"

namespace netdoctor::testing {
namespace {

constexpr double k_t0 = 1'766'000'000.0;
constexpr std::uint64_t k_switch_guid = 0x946dae0300600000ULL;
constexpr std::uint64_t k_ca_guid = 0x0c42a10300700000ULL;

double wiggle(int seed) {
  return 1.0 + 0.1 * std::sin(static_cast<double>(seed) * 12.9898);
}

double lane_gbps(const std::string& speed) {
  return speed == "NDR" ? 106.25 : 53.125;
}
double data_gbps(const std::string& speed) {
  return speed == "NDR" ? 400.0 : 200.0;
}

void put(std::vector<model::CounterSample>& samples, const std::string& name, double per_second,
         double base) {
  const double t0 = samples.front().captured_at;
  for (auto& sample : samples) {
    sample.values[model::MetricKey{name, -1}] =
        std::floor(base + per_second * (sample.captured_at - t0));
  }
}

model::IbPort up_port(std::uint32_t number, std::uint64_t guid, const std::string& speed,
                      const std::vector<double>& times) {
  model::IbPort port;
  port.number = number;
  port.guid = guid;
  port.state = model::RdmaPortState::Active;
  port.phys = model::PhysState::LinkUp;
  port.width = 4;
  port.speed = speed;
  port.lane_gbps = lane_gbps(speed);
  port.data_gbps = data_gbps(speed);
  port.supported_width = 4;
  port.supported_speed = speed;
  port.supported_data_gbps = data_gbps(speed);
  port.mtu = 4096;
  for (double t : times) {
    model::CounterSample sample;
    sample.captured_at = t;
    port.samples.push_back(sample);
  }
  return port;
}

// About a third of line rate each way, a little credit wait (0.2 % of ticks at the 1 tick per
// ns the probes assume is well under any threshold), errors frozen at small history values.
void fill_counters(model::IbPort& port, double line_gbps, double share, int seed) {
  const double bytes = line_gbps * 1e9 / 8.0 * share * wiggle(seed);
  auto& s = port.samples;
  put(s, "ib_tx_bytes", bytes, 4e14);
  put(s, "ib_rx_bytes", bytes * wiggle(seed + 1), 4e14);
  put(s, "ib_tx_packets", bytes / 4096.0, 1e11);
  put(s, "ib_rx_packets", bytes * wiggle(seed + 1) / 4096.0, 1e11);
  put(s, "ib_xmit_wait", 2e6 * wiggle(seed + 2), 5e9);
  put(s, "ib_symbol_errors", 0.0, 3.0);
  put(s, "ib_link_error_recovery", 0.0, 1.0);
  put(s, "ib_link_downed", 0.0, 1.0);
  put(s, "ib_rcv_errors", 0.0, 2.0);
  put(s, "ib_rcv_remote_physical_errors", 0.0, 0.0);
  put(s, "ib_xmit_discards", 0.0, 4.0);
  put(s, "ib_local_link_integrity_errors", 0.0, 0.0);
  put(s, "ib_excessive_buffer_overrun", 0.0, 0.0);
}

void cable(model::IbNode& a, model::IbPort& pa, model::IbNode& b, model::IbPort& pb) {
  pa.peer_guid = b.guid;
  pa.peer_port = pb.number;
  pb.peer_guid = a.guid;
  pb.peer_port = pa.number;
}

model::IbNode make_switch(const std::string& name, std::uint64_t guid, std::uint32_t lid) {
  model::IbNode sw;
  sw.kind = model::IbNodeKind::Switch;
  sw.guid = guid;
  sw.description = fmt::format("MF0;{}:MQM8700/U1", name);
  sw.name = name;
  sw.lid = lid;
  sw.port_count = 40;
  sw.vendor_id = "0x2c9";
  sw.device_id = "0xd2f0";
  sw.model = "MQM8700";
  sw.firmware = "27.2010.3118";
  return sw;
}

}  // namespace

model::Fabric ib_fat_tree(const IbSpec& spec) {
  model::Fabric fabric;
  fabric.name = "ib-test";
  std::vector<double> times;
  for (int i = 0; i < spec.samples; ++i) {
    times.push_back(k_t0 + spec.window_s * i);
  }
  auto& ib = fabric.ib;
  for (int i = 0; i < spec.samples; ++i) {
    model::IbFabricSample sample;
    sample.name = std::to_string(i);
    sample.captured_at = times[static_cast<std::size_t>(i)];
    sample.sm_queried = true;  // sminfo ran in every sample, answered or not
    if (spec.subnet_manager) {
      sample.sm_answered = true;
      sample.managers.push_back(
          model::IbSubnetManager{.guid = k_ca_guid + 1,
                                 .lid = 1,
                                 .priority = 15,
                                 .state = 3,
                                 .activity_count = 1000u + static_cast<std::uint64_t>(i) * 40u,
                                 .source = "sminfo"});
    }
    ib.samples.push_back(sample);
  }
  // The views a capture of the subnet holds (sminfo was run even where no SM answered).
  for (const std::string& view : {model::source::k_ibnetdiscover, model::source::k_iblinkinfo,
                                  model::source::k_perfquery, model::source::k_sminfo}) {
    ib.sources[view] = model::SourceState{model::Availability::Observed, ""};
  }
  const double line = data_gbps(spec.speed);
  const int down = spec.hosts_per_leaf * spec.hcas_per_host;
  const int per_spine =
      spec.uplinks_per_spine > 0 ? spec.uplinks_per_spine : std::max(1, down / spec.spines);
  std::vector<model::IbNode> leaves;
  std::vector<model::IbNode> spines;
  std::uint32_t lid = 1;
  for (int s = 0; s < spec.spines; ++s) {
    auto sw = make_switch(fmt::format("spine-{:02}", s + 1),
                          k_switch_guid + 0x100 * static_cast<std::uint64_t>(s + 1), ++lid);
    for (int p = 0; p < spec.leaves * per_spine; ++p) {
      sw.ports.push_back(up_port(static_cast<std::uint32_t>(p + 1), sw.guid, spec.speed, times));
    }
    spines.push_back(std::move(sw));
  }
  int host_number = 0;
  int seed = 0;
  for (int l = 0; l < spec.leaves; ++l) {
    auto leaf = make_switch(fmt::format("leaf-{:02}", l + 1),
                            k_switch_guid + 0x10000 * static_cast<std::uint64_t>(l + 1), ++lid);
    for (int p = 0; p < down + spec.spines * per_spine; ++p) {
      leaf.ports.push_back(
          up_port(static_cast<std::uint32_t>(p + 1), leaf.guid, spec.speed, times));
    }
    for (int h = 0; h < spec.hosts_per_leaf; ++h) {
      model::Host host;
      host.name = fmt::format("node{:02}", ++host_number);
      host.captured_at = times;
      for (int c = 0; c < spec.hcas_per_host; ++c) {
        const auto leaf_port = static_cast<std::size_t>(h * spec.hcas_per_host + c);
        model::Nic nic;
        nic.host = host.name;
        nic.device = fmt::format("mlx5_{}", c);
        nic.netdev = fmt::format("ibp{}s0", 24 + c * 16);
        nic.vendor = "mlx5";
        nic.driver = "mlx5_core";
        nic.firmware = "20.39.1002";
        nic.part_id = "4123";
        nic.board_id = "MT_0000000223";
        nic.link_layer = "InfiniBand";
        nic.state = model::RdmaPortState::Active;
        nic.phys_state = model::PhysState::LinkUp;
        nic.speed_gbps = line;
        nic.rated_gbps = line;
        nic.active_width = 4;
        nic.active_mtu = 4096;
        nic.max_mtu = 4096;
        nic.mtu = 4092;
        for (double t : times) {
          model::CounterSample sample;
          sample.captured_at = t;
          nic.samples.push_back(sample);
        }
        model::IbNode ca;
        ca.kind = model::IbNodeKind::Ca;
        ca.guid = k_ca_guid + static_cast<std::uint64_t>(host_number * 16 + c) * 2;
        ca.description = host.name + " " + nic.device;
        ca.name = host.name + "/" + nic.device;
        ca.host = host.name;
        ca.device = nic.device;
        ca.port_count = 1;
        ca.vendor_id = "0x2c9";
        ca.device_id = "0x101b";
        ca.firmware = nic.firmware;
        auto port = up_port(1, ca.guid + 1, spec.speed, times);
        port.lid = ++lid;
        fill_counters(port, line, 0.35, ++seed);
        fill_counters(leaf.ports[leaf_port], line, 0.35, ++seed);
        ca.ports.push_back(std::move(port));
        cable(ca, ca.ports.back(), leaf, leaf.ports[leaf_port]);
        nic.samples = ca.ports.back().samples;  // the host's sysfs counters are the same PMA
        host.nics.push_back(std::move(nic));
        ib.nodes.push_back(std::move(ca));
      }
      fabric.hosts.push_back(std::move(host));
    }
    for (int s = 0; s < spec.spines; ++s) {
      for (int k = 0; k < per_spine; ++k) {
        auto& up = leaf.ports[static_cast<std::size_t>(down + s * per_spine + k)];
        auto& spine_port =
            spines[static_cast<std::size_t>(s)].ports[static_cast<std::size_t>(l * per_spine + k)];
        // Half the traffic leaves the leaf, spread evenly over its up-ports.
        const double share = 0.35 * 0.5 * down / (spec.spines * per_spine);
        fill_counters(up, line, share, ++seed);
        fill_counters(spine_port, line, share, ++seed);
        cable(leaf, up, spines[static_cast<std::size_t>(s)], spine_port);
      }
    }
    leaves.push_back(std::move(leaf));
  }
  std::vector<model::IbNode> nodes;
  for (auto& n : leaves) {
    nodes.push_back(std::move(n));
  }
  for (auto& n : spines) {
    nodes.push_back(std::move(n));
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const model::IbNode& a, const model::IbNode& b) { return a.name < b.name; });
  auto cas = std::move(ib.nodes);
  std::sort(cas.begin(), cas.end(),
            [](const model::IbNode& a, const model::IbNode& b) { return a.name < b.name; });
  ib.nodes = std::move(nodes);
  std::move(cas.begin(), cas.end(), std::back_inserter(ib.nodes));
  ib.reindex();
  return fabric;
}

model::IbNode& ib_node_named(model::Fabric& fabric, const std::string& name) {
  for (auto& node : fabric.ib.nodes) {
    if (node.name == name) {
      return node;
    }
  }
  throw std::out_of_range("no IB node " + name);
}

model::IbPort& ib_switch_port(model::Fabric& fabric, const std::string& switch_name,
                              std::uint32_t port) {
  for (auto& p : ib_node_named(fabric, switch_name).ports) {
    if (p.number == port) {
      return p;
    }
  }
  throw std::out_of_range(fmt::format("no port {}/{}", switch_name, port));
}

model::IbNode& ib_ca(model::Fabric& fabric, const std::string& host, const std::string& device) {
  return ib_node_named(fabric, host + "/" + device);
}

model::IbPort& ib_peer(model::Fabric& fabric, const model::IbPort& port) {
  for (auto& node : fabric.ib.nodes) {
    if (port.peer_guid && node.guid == *port.peer_guid) {
      for (auto& p : node.ports) {
        if (port.peer_port && p.number == *port.peer_port) {
          return p;
        }
      }
    }
  }
  throw std::out_of_range("port has no peer in the model");
}

void set_ib_rate(model::IbPort& port, const std::string& metric, double per_second, double base) {
  put(port.samples, metric, per_second, base);
}

void saturate(model::IbPort& port, const std::string& metric, std::size_t from) {
  for (std::size_t i = from; i < port.samples.size(); ++i) {
    port.samples[i].values.erase(model::MetricKey{metric, -1});
  }
  port.saturated[metric] = from;
}

}  // namespace netdoctor::testing
