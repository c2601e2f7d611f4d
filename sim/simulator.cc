#include "sim/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "base/strings.h"
#include "sim/counter_clock.h"
#include "sim/faults/fault_table.h"
#include "sim/ib_bundle.h"
#include "sim/ib_traffic.h"
#include "sim/perftest_model.h"
#include "sim/traffic.h"
#include "sim/writers/host_writers.h"
#include "sim/writers/ib_writers.h"
#include "sim/writers/sonic_writer.h"

namespace netdoctor::sim {
namespace {

constexpr std::uint64_t k_traffic_stream = 0x7f4a7c159e3779b9ull;

using Put = std::function<void(const std::string&, std::string_view)>;

// One NIC's files of one sample; its `rdma statistic show` line appended to `statistic`.
void write_nic(const Fabric& fabric, const Host& host, const Nic& nic, const NicSnapshot& counters,
               std::size_t k, const std::string& dir, const Put& put, std::string& statistic) {
  std::vector<CounterFile> hw_counters;
  sysfs_files(nic, host, counters, [&](std::string_view path, std::string_view content) {
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
  gid_files(nic, [&](std::string_view path, std::string_view content) {
    put(dir + std::string(path), content);
  });
  const std::string net = dir + "sos_commands/networking/";
  put(net + "ethtool_-S_" + nic.netdev, ethtool_stats(fabric, nic, counters, k));
  put(net + "ethtool_-i_" + nic.netdev, ethtool_info(nic));
  put(net + "ethtool_" + nic.netdev, ethtool_settings(nic));
  const QosTool tool = fabric.qos_tool != QosTool::Auto ? fabric.qos_tool
                       : nic.vendor == Vendor::Mlx5     ? QosTool::MlnxQos
                                                        : QosTool::Dcb;
  if (tool == QosTool::MlnxQos) {
    put(dir + "sos_commands/mellanox/mlnx_qos_-i_" + nic.netdev, mlnx_qos(nic));
  } else if (tool == QosTool::Dcb) {
    for (const auto& [object, text] : dcb_show(nic, fabric.roce_priority)) {
      put(dir + "sos_commands/networking/dcb_" + object + "_show_dev_" + nic.netdev, text);
    }
  }
}

// The host's RDMA tools of one sample: ip, ibv_devinfo, rdma link (ibstat on InfiniBand,
// show_gids on RoCE), ibdev2netdev, rdma statistic and resource.
void write_rdma_tools(const Fabric& fabric, const Host& host, const std::string& dir,
                      const std::string& statistic, const Put& put) {
  const std::string infiniband = dir + "sos_commands/infiniband/";
  if (fabric.kind == FabricKind::Ib) {
    put(dir + "sos_commands/networking/ip_-d_address", ip_address(host, FabricKind::Ib));
    put(infiniband + "ibstat", ibstat(host));
    put(infiniband + "ibv_devinfo_-v", ibv_devinfo(host, FabricKind::Ib));
    put(infiniband + "rdma_link_show", ib_rdma_link_show(host));
  } else {
    put(dir + "sos_commands/networking/ip_-d_address", ip_address(host));
    put(infiniband + "ibv_devinfo_-v", ibv_devinfo(host));
    put(infiniband + "rdma_link_show", rdma_link_show(host));
    put(infiniband + "show_gids", show_gids(host));
  }
  put(infiniband + "ibdev2netdev", ibdev2netdev(host));
  put(infiniband + "rdma_statistic_show", statistic);
  put(infiniband + "rdma_resource_show", rdma_resource_show(host));
}

Status write_host(const Fabric& fabric, const Host& host, TreeWriter& writer,
                  const std::string& prefix, std::size_t& files) {
  const std::vector<double> times = sample_times(fabric, host.name);
  std::vector<std::vector<double>> elapsed;
  for (const Nic& nic : host.nics) {
    elapsed.push_back(traffic_elapsed(fabric, nic_link_key(host, nic), times));
  }
  Status status;
  const auto put = [&](const std::string& path, std::string_view content) {
    if (status.ok()) {
      status = writer.write_file(path, content);
      ++files;
    }
  };
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::string dir = prefix + "hosts/" + host.name + "/" + sample_name(fabric, k) + "/";
    const double host_time = times[k] + host.clock_offset_s;
    put(dir + "captured_at", fmt::format("{:.6f}\n", host_time));
    std::string statistic;  // rdma statistic show: every port's hw_counters on one line
    const bool ib = fabric.kind == FabricKind::Ib;
    for (std::size_t n = 0; n < host.nics.size(); ++n) {
      const Nic& nic = host.nics[n];
      const NicSnapshot counters(nic.rates, nic.history, host.uptime_s, times[k] - times[0],
                                 elapsed[n][k], &nic.before, onset_seconds(fabric));
      if (ib) {
        write_ib_nic(fabric, host, nic, counters, dir, put, statistic);
      } else {
        write_nic(fabric, host, nic, counters, k, dir, put, statistic);
      }
    }
    write_rdma_tools(fabric, host, dir, statistic, put);
    const auto index = static_cast<std::size_t>(&host - fabric.hosts.data());
    const ClockView view = fabric.clock_views[index % fabric.clock_views.size()];
    const auto [clock_path, clock_text] = clock_view_output(fabric, host, view, host_time, k);
    put(dir + clock_path, clock_text);
    if (ib) {
      // No LLDP on InfiniBand: the subnet's own views say what is cabled where.
    } else if (fabric.lldp_view == LldpView::Text) {
      put(dir + "sos_commands/lldp/lldpcli_show_neighbors", lldp_neighbors_text(fabric, host));
    } else {
      put(dir + "sos_commands/lldp/lldpcli_show_neighbors_-f_json", lldp_neighbors(fabric, host));
    }
    put(dir + "sos_commands/pci/lspci_-vvv", lspci_vvv(host));
    put(dir + "sos_commands/kernel/dmesg", dmesg(host));
  }
  return status;
}

Status write_switch(const Fabric& fabric, const Switch& sw, TreeWriter& writer,
                    const std::string& prefix, std::size_t& files) {
  const std::vector<double> times = sample_times(fabric, sw.name);
  std::vector<std::string> keys;
  std::vector<std::vector<double>> elapsed;
  for (const Port& port : sw.ports) {
    keys.push_back(port.kind == PortKind::HostFacing
                       ? nic_link_key(fabric.hosts[port.peer_host],
                                      fabric.hosts[port.peer_host].nics[port.peer_nic])
                       : uplink_key(fabric, sw, port));
    elapsed.push_back(traffic_elapsed(fabric, keys.back(), times));
  }
  const std::string lldp = show_lldp_table(fabric, sw);
  const std::string status_table = show_interfaces_status(sw);
  const std::string pfcwd_config = show_pfcwd_config(sw);
  for (std::size_t k = 0; k < times.size(); ++k) {
    std::vector<PortSample> ports;
    ports.reserve(sw.ports.size());
    for (std::size_t p = 0; p < sw.ports.size(); ++p) {
      ports.push_back(
          {PortSnapshot(sw.ports[p].rates, sw.ports[p].history, sw.uptime_s, times[k] - times[0],
                        elapsed[p][k], &sw.ports[p].before, onset_seconds(fabric)),
           traffic_factor(fabric, keys[p], k)});
    }
    const std::string dir = prefix + "switches/" + sw.name + "/" + sample_name(fabric, k) + "/";
    const std::string sonic = dir + "sos_commands/sonic/";
    const std::pair<std::string, std::string> outputs[] = {
        {dir + "captured_at", fmt::format("{:.3f}\n", times[k])},
        {sonic + "show_interfaces_counters", show_interfaces_counters(sw, ports)},
        {sonic + "show_interfaces_status", status_table},
        {sonic + "show_pfc_counters", show_pfc_counters(sw, ports, fabric.roce_priority)},
        {sonic + "show_queue_counters", show_queue_counters(sw, ports, fabric.roce_priority)},
        {sonic + "show_lldp_table", lldp},
        {sonic + "show_pfcwd_stats", show_pfcwd_stats(sw, ports, fabric.roce_priority)},
        {sonic + "show_pfcwd_config", pfcwd_config},
    };
    for (const auto& [path, content] : outputs) {
      ND_TRY(writer.write_file(path, content));
      ++files;
    }
  }
  return {};
}

Status write_perftest(const Fabric& fabric, TreeWriter& writer, const std::string& prefix,
                      std::size_t& files) {
  for (const bool baseline : {false, true}) {
    const std::string root = prefix + (baseline ? "perftest-baseline/" : "perftest/");
    for (const PerftestResult& run : measure_perftest(fabric, baseline)) {
      const std::string dir =
          root + fabric.hosts[run.client].name + "__" + fabric.hosts[run.server].name + "/";
      ND_TRY(writer.write_file(dir + write_bw_name(fabric, run),
                               write_bw_output(fabric, run, baseline)));
      ND_TRY(writer.write_file(dir + read_lat_name(fabric, run),
                               read_lat_output(fabric, run, baseline)));
      files += 2;
    }
  }
  return {};
}

// The job's NCCL_DEBUG=INFO log of every host and its nccl-tests output (spec/bundle.md 1.1).
Status write_nccl(const Fabric& fabric, TreeWriter& writer, const std::string& prefix,
                  std::size_t& files) {
  const std::string dir = prefix + "nccl/" + k_nccl_job + "/";
  for (std::size_t h = 0; h < fabric.hosts.size(); ++h) {
    ND_TRY(writer.write_file(dir + fabric.hosts[h].name + ".log", nccl_log(fabric, h)));
    ++files;
  }
  ND_TRY(writer.write_file(dir + "all_reduce_perf.txt", nccl_tests_output(fabric)));
  ++files;
  return {};
}

// What every NIC and port carries before the faults, for a capture that sees them begin.
void keep_rates_before_faults(Fabric& fabric) {
  if (fabric.kind == FabricKind::Ib) {
    derive_ib_waits(fabric);
  }
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      nic.before = nic.rates;
    }
  }
  for (Switch& sw : fabric.switches) {
    for (Port& port : sw.ports) {
      port.before = port.rates;
    }
  }
}

// The healthy workload, its history, the faults' consequences on it, and what every link then
// carries (InfiniBand: with credit waits and frozen error history).
Status run_traffic(Fabric& fabric, Rng& rng, const std::vector<const FaultSpec*>& specs,
                   std::vector<FaultContext>& contexts, std::vector<InjectedFault>& injected) {
  const bool ib = fabric.kind == FabricKind::Ib;
  seed_base_rates(fabric, rng);
  if (ib) {
    seed_ib_rates(fabric);
  }
  derive_links(fabric);
  snapshot_history(fabric, rng);
  if (ib) {
    seed_ib_history(fabric, rng);
  }
  if (fabric.onset_interval > 0) {
    keep_rates_before_faults(fabric);
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    ND_TRY(specs[i]->on(fabric.kind).inject(contexts[i]));
    injected.push_back({specs[i]->id, contexts[i].culprits, contexts[i].variant});
  }
  derive_links(fabric);
  if (ib) {
    derive_ib_waits(fabric);
  }
  return {};
}

}  // namespace

Result<Simulation> simulate(const SimConfig& config) {
  ND_TRY(validate_config(config));
  const bool has_healthy = std::any_of(config.faults.begin(), config.faults.end(),
                                       [](const FaultRequest& f) { return f.id == "healthy"; });
  if (has_healthy && config.faults.size() > 1) {
    return make_error(ErrorCode::InvalidArgument, "healthy cannot be combined with a fault");
  }
  Simulation sim;
  sim.fabric = build_topology(config, config.seed);
  Fabric& fabric = sim.fabric;
  Rng rng(config.seed ^ k_traffic_stream);

  std::vector<FaultContext> contexts;
  std::vector<const FaultSpec*> specs;
  for (const FaultRequest& request : config.faults) {
    if (request.id == "healthy") {
      continue;
    }
    specs.push_back(find_fault(request.id));
    contexts.push_back(FaultContext{fabric, rng, request.entity, request.variant, {}, k_none, {}});
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const Status prepared = specs[i]->on(fabric.kind).prepare(contexts[i]);
    if (!prepared.ok()) {
      Error error = prepared.error();
      error.message = std::string(specs[i]->id) + ": " + error.message;
      return error;
    }
  }
  ND_TRY(run_traffic(fabric, rng, specs, contexts, sim.faults));

  std::vector<std::string> ids;
  for (const InjectedFault& fault : sim.faults) {
    ids.push_back(fault.id);
  }
  sim.name = !config.name.empty() ? config.name : (ids.empty() ? "healthy" : join(ids, "+"));
  if (!config.symptom.empty()) {
    sim.symptom = config.symptom;
  } else {
    sim.symptom = sim.faults.empty() ? "timeouts" : find_fault(sim.faults[0].id)->symptom;
  }
  return sim;
}

Result<std::size_t> write_bundle(const Simulation& simulation, TreeWriter& writer,
                                 const std::string& prefix) {
  std::size_t files = 0;
  for (const Host& host : simulation.fabric.hosts) {
    ND_TRY(write_host(simulation.fabric, host, writer, prefix, files));
  }
  if (simulation.fabric.kind == FabricKind::Ib) {
    ND_TRY(write_ib_fabric(simulation.fabric, writer, prefix, files));
  } else {
    for (const Switch& sw : simulation.fabric.switches) {
      ND_TRY(write_switch(simulation.fabric, sw, writer, prefix, files));
    }
  }
  ND_TRY(write_perftest(simulation.fabric, writer, prefix, files));
  ND_TRY(write_nccl(simulation.fabric, writer, prefix, files));
  return files;
}

nlohmann::ordered_json expected_entry(const Simulation& simulation, const SimConfig& config,
                                      const std::string& bundle_name) {
  nlohmann::ordered_json entry;
  entry["scenario"] = simulation.name;
  std::vector<std::string> ids;
  std::vector<std::string> culprits;
  for (const InjectedFault& fault : simulation.faults) {
    ids.push_back(fault.id);
    for (const std::string& culprit : fault.culprits) {
      if (std::find(culprits.begin(), culprits.end(), culprit) == culprits.end()) {
        culprits.push_back(culprit);
      }
    }
  }
  entry["fault"] = ids.empty() ? "healthy" : join(ids, "+");
  entry["symptom"] = simulation.symptom;
  entry["cause"] = ids.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ids[0]);
  entry["verdict"] = ids.empty() ? "healthy" : "root-cause-found";
  entry["culprits_any"] = culprits;
  entry["hosts"] = config.hosts;
  entry["nics_per_host"] = config.nics_per_host;
  entry["bundle"] = bundle_name;
  if (ids.size() > 1) {
    entry["causes"] = ids;
  }
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const InjectedFault& fault : simulation.faults) {
    nlohmann::ordered_json one = {{"id", fault.id}, {"culprits_any", fault.culprits}};
    if (!fault.variant.empty()) {
      one["variant"] = fault.variant;
    }
    faults.push_back(std::move(one));
  }
  entry["faults"] = faults;
  if (config.onset_interval > 0 && !simulation.faults.empty()) {
    entry["samples"] = config.samples;
    entry["onset_interval"] = config.onset_interval;
  }
  if (simulation.fabric.kind == FabricKind::Ib) {
    entry["fabric"] = "ib";
    entry["ib_speed"] = simulation.fabric.ib_speed == IbSpeed::Ndr ? "ndr" : "hdr";
  }
  entry["seed"] = config.seed;
  return entry;
}

}  // namespace netdoctor::sim
