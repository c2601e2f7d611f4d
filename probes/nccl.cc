// nccl: whether NCCL rides RDMA as intended, from the job's own NCCL_DEBUG=INFO log and
// nccl-tests output (nccl/<job>/ of the bundle), joined with each host's NICs.
//
// In a healthy job every inter-node channel runs on NET/IB (IB or RoCE verbs) with GPUDirect
// RDMA ("via NET/IB/<n>/GDRDMA"), each host uses all its active RDMA NICs, every host uses the
// GID index where the fleet's RoCE v2 IPv4 GID sits, and nccl-tests' bus bandwidth comes near
// what the hosts' NICs carry.
//
// Channels on NET/Socket (no usable HCA, NCCL_IB_DISABLE, a missing plugin), GPUDirect RDMA
// off (nvidia-peermem not loaded, NCCL_NET_GDR_LEVEL) on a host while its peers have it, a
// host using fewer HCAs than it has active (NCCL_IB_HCA too narrow), or a GID index unlike the
// fleet's, are NCCL's configuration (nccl-transport). An HCA NCCL skipped because its port is
// down or trained low is the port's own fault, and evidence against NCCL's.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/strings.h"
#include "model/nic_gids.h"
#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

constexpr double k_bits_per_byte = 8.0;  // nccl-tests prints GB/s, line rates are Gb/s

// One host of one job: what NCCL logged, and the fabric's host it joins to (nullptr if none).
struct HostUse {
  const model::NcclJob* job = nullptr;
  const model::NcclHostView* view = nullptr;
  const model::Host* host = nullptr;
};

struct Survey {
  std::vector<const model::NcclJob*> jobs;
  std::vector<HostUse> uses;     // hosts whose log shows NCCL's network choice
  std::size_t fabric_hosts = 0;  // hosts of the fabric
  std::size_t joined = 0;        // of them in some job's log
  std::size_t busbw_jobs = 0;    // jobs with nccl-tests bus bandwidth
  std::optional<int> v2_index;   // the fleet's usual RoCE v2 IPv4 GID index
};

bool shows_network(const model::NcclHostView& view) {
  return !view.network.empty() || !view.hcas.empty() || view.net_channels > 0 ||
         !view.socket_devices.empty() || !view.warnings.empty();
}

std::string entity_of(const HostUse& use) {
  return model::host_entity(use.host != nullptr ? use.host->name : use.view->host);
}

std::string name_of(const HostUse& use) {
  return use.host != nullptr ? use.host->name : use.view->host;
}

bool on_socket(const model::NcclHostView& view) {
  for (const auto& [transport, count] : view.channels) {
    if (starts_with(transport, "NET/Socket") && count > 0) {
      return true;
    }
  }
  return view.network == "Socket";
}

// GPUDirect RDMA is off on the host: an HCA logged Disabled, or network channels without it.
bool gdr_off(const model::NcclHostView& view) {
  const bool disabled =
      std::any_of(view.gdr.begin(), view.gdr.end(), [](const auto& hca) { return !hca.second; });
  return disabled || (view.net_channels > 0 && view.gdr_channels < view.net_channels);
}

bool gdr_on(const model::NcclHostView& view) {
  const bool enabled =
      std::any_of(view.gdr.begin(), view.gdr.end(), [](const auto& hca) { return hca.second; });
  return !gdr_off(view) && (enabled || view.gdr_channels > 0);
}

// The index of the NIC's RoCE v2 GID carrying an IPv4 address, if any.
std::optional<int> v2_ipv4_index(const model::Nic& nic) {
  for (const auto& gid : nic.gids) {
    if (gid.type == model::k_gid_roce_v2 && !gid.ipv4.empty()) {
      return gid.index;
    }
  }
  return std::nullopt;
}

std::optional<int> fleet_v2_index(const model::Fabric& fabric) {
  std::vector<int> indexes;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      if (auto index = v2_ipv4_index(nic)) {
        indexes.push_back(*index);
      }
    }
  }
  return int_mode_of(indexes);
}

std::optional<int> gid_index_of(const model::NcclHostView& view) {
  const auto it = view.env.find("NCCL_IB_GID_INDEX");
  if (it == view.env.end()) {
    return std::nullopt;
  }
  try {
    return std::stoi(it->second);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// NET/Socket channels (or NCCL's network chosen as Socket in a multi-host job).
void judge_socket(const std::vector<HostUse>& job, Judgement& judgement) {
  for (const HostUse& use : job) {
    const model::NcclHostView& view = *use.view;
    const bool multi_host = job.size() > 1 || view.net_channels > 0;
    if (!on_socket(view) || !multi_host) {
      continue;
    }
    std::size_t sockets = 0;
    for (const auto& [transport, count] : view.channels) {
      sockets += starts_with(transport, "NET/Socket") ? count : 0;
    }
    judgement.find(
        "nccl-socket-transport", {entity_of(use)}, judgement.limit("socket_strength"),
        fmt::format("NCCL on {} (job {}) runs its inter-node channels on sockets "
                    "(network {}, {} NET/Socket channel lines{}): TCP through the "
                    "kernel instead of RDMA",
                    name_of(use), use.job->name, view.network.empty() ? "?" : view.network, sockets,
                    view.socket_devices.empty() ? "" : ", over " + join(view.socket_devices, ", ")),
        static_cast<double>(sockets), 0.0, "channels");
  }
}

// GPUDirect RDMA off: on a host whose peers have it (strong), or on every host (weaker: it may
// be the platform's, yet every byte still bounces through host memory).
void judge_gdr(const std::vector<HostUse>& job, Judgement& judgement) {
  std::vector<const HostUse*> off;
  std::size_t on = 0;
  for (const HostUse& use : job) {
    if (on_socket(*use.view) || (use.view->hcas.empty() && use.view->net_channels == 0)) {
      continue;
    }
    if (gdr_off(*use.view)) {
      off.push_back(&use);
    } else if (gdr_on(*use.view)) {
      ++on;
    }
  }
  const bool peers_have_it = on > 0;
  const double strength =
      judgement.limit(peers_have_it ? "gdr_off_strength" : "fleet_gdr_off_strength");
  for (const HostUse* use : off) {
    const model::NcclHostView& view = *use->view;
    const double without = static_cast<double>(view.net_channels - view.gdr_channels);
    judgement.find("nccl-gdr-off", {entity_of(*use)}, strength,
                   fmt::format("GPUDirect RDMA off for NCCL on {} (job {}): {} of {} network "
                               "channels without GDRDMA{}{}",
                               name_of(*use), use->job->name, without, view.net_channels,
                               view.gdr.empty() ? "" : ", 'GPU Direct RDMA Disabled' for an HCA",
                               peers_have_it ? fmt::format(", while {} peer host(s) use it", on)
                                             : "; no host of the job uses it"),
                   without, 0.0, "channels without GDRDMA");
  }
}

// A NIC is one NCCL could have used: its RDMA port active, its link at its rated speed.
bool port_down(const model::Nic& nic) {
  const bool state_down = nic.state != model::RdmaPortState::Unknown &&
                          nic.state != model::RdmaPortState::Active &&
                          nic.state != model::RdmaPortState::ActiveDefer;
  const bool netdev_down =
      nic.operstate == model::LinkState::Down || nic.operstate == model::LinkState::LowerLayerDown;
  const bool trained_low = nic.speed_gbps && nic.rated_gbps && *nic.speed_gbps < *nic.rated_gbps;
  return state_down || netdev_down || trained_low;
}

std::string nic_list(const std::vector<const model::Nic*>& nics) {
  std::vector<std::string> names;
  for (const model::Nic* nic : nics) {
    names.push_back(nic->device);
  }
  return join(names, ", ");
}

std::string hca_setting(const model::NcclHostView& view) {
  const auto it = view.env.find("NCCL_IB_HCA");
  return it == view.env.end() ? "" : fmt::format(" (NCCL_IB_HCA={})", it->second);
}

void find_skipped_ports(const HostUse& use, const std::vector<const model::Nic*>& down,
                        Judgement& judgement) {
  std::vector<std::string> entities;
  for (const model::Nic* nic : down) {
    for (const auto& entity : nic_entities(*nic)) {
      append_unique(entities, entity);
    }
  }
  judgement.find("nccl-hca-port-down", entities, judgement.limit("port_down_strength"),
                 fmt::format("NCCL on {} left out {}: its port is down or trained below its "
                             "rated speed, the port's fault rather than NCCL's",
                             name_of(use), nic_list(down)),
                 static_cast<double>(down.size()), 0.0, "NICs");
}

// The host's RDMA NICs NCCL did not use, split by whether their port explains it.
void judge_host_hcas(const HostUse& use, Judgement& judgement) {
  std::vector<const model::Nic*> down;
  std::vector<const model::Nic*> unused;
  std::size_t usable = 0;
  for (const auto& nic : use.host->nics) {
    const bool used =
        std::find(use.view->hcas.begin(), use.view->hcas.end(), nic.device) != use.view->hcas.end();
    usable += port_down(nic) ? 0u : 1u;
    if (!used && !nic.device.empty()) {
      (port_down(nic) ? down : unused).push_back(&nic);
    }
  }
  if (!down.empty()) {
    find_skipped_ports(use, down, judgement);
  }
  if (unused.empty()) {
    return;
  }
  std::vector<std::string> entities = {entity_of(use)};
  for (const model::Nic* nic : unused) {
    entities.push_back(nic->nic_entity());
  }
  judgement.find("nccl-too-few-hcas", entities, judgement.limit("too_few_hcas_strength"),
                 fmt::format("NCCL on {} (job {}) uses {} HCA(s){} of its {} active RDMA NICs; "
                             "{} left idle with its port up",
                             name_of(use), use.job->name, use.view->hcas.size(),
                             hca_setting(*use.view), usable, nic_list(unused)),
                 static_cast<double>(use.view->hcas.size()), static_cast<double>(usable), "HCAs");
}

// Hosts not in the fabric can only be held against their peers.
void judge_hcas(const std::vector<HostUse>& job, Judgement& judgement) {
  std::size_t most = 0;
  for (const HostUse& use : job) {
    most = std::max(most, use.view->hcas.size());
  }
  for (const HostUse& use : job) {
    if (use.view->hcas.empty() || on_socket(*use.view)) {
      continue;
    }
    if (use.host != nullptr) {
      judge_host_hcas(use, judgement);
    } else if (use.view->hcas.size() < most) {
      judgement.find(
          "nccl-too-few-hcas", {entity_of(use)}, judgement.limit("too_few_hcas_strength"),
          fmt::format("NCCL on {} (job {}) uses {} HCA(s){} where its peers use {}", name_of(use),
                      use.job->name, use.view->hcas.size(), hca_setting(*use.view), most),
          static_cast<double>(use.view->hcas.size()), static_cast<double>(most), "HCAs");
    }
  }
}

// NCCL_IB_GID_INDEX: the same on every host, and where the fleet's RoCE v2 IPv4 GID sits.
void judge_gid_index(const std::vector<HostUse>& job, std::optional<int> fleet_index,
                     Judgement& judgement) {
  std::vector<int> logged;
  for (const HostUse& use : job) {
    if (auto index = gid_index_of(*use.view)) {
      logged.push_back(*index);
    }
  }
  const auto job_index = int_mode_of(logged);
  if (!job_index) {
    return;
  }
  const int expected = fleet_index.value_or(*job_index);
  for (const HostUse& use : job) {
    const auto index = gid_index_of(*use.view);
    if (!index || *index == expected) {
      continue;
    }
    judgement.find("nccl-gid-index-wrong", {entity_of(use)}, judgement.limit("gid_index_strength"),
                   fmt::format("NCCL on {} (job {}) uses GID index {} (NCCL_IB_GID_INDEX), where "
                               "the {} RoCE v2 IPv4 GID is at {}",
                               name_of(use), use.job->name, *index,
                               fleet_index ? "fleet's" : "job's other hosts'", expected),
                   static_cast<double>(*index), static_cast<double>(expected), "index");
  }
}

// What the NICs of one host of the job carry, in Gb/s: those NCCL used, else its active ones.
double host_line_rate(const model::Host& host, const model::NcclJob& job) {
  const model::NcclHostView* view = nullptr;
  for (const auto& candidate : job.hosts) {
    view = candidate.fabric_host == host.name && !candidate.hcas.empty() ? &candidate : view;
  }
  double total = 0.0;
  for (const auto& nic : host.nics) {
    const bool counted = view != nullptr ? std::find(view->hcas.begin(), view->hcas.end(),
                                                     nic.device) != view->hcas.end()
                                         : !port_down(nic);
    total += counted ? nic.speed_gbps.value_or(0.0) : 0.0;
  }
  return total;
}

std::set<std::string> job_hosts(const model::NcclJob& job, const model::Fabric& fabric) {
  std::set<std::string> hosts;
  for (const auto& name : job.test_hosts) {
    if (fabric.find_host(name) != nullptr) {
      hosts.insert(name);
    }
  }
  for (const auto& view : job.hosts) {
    if (!view.fabric_host.empty()) {
      hosts.insert(view.fabric_host);
    }
  }
  return hosts;
}

// nccl-tests' best bus bandwidth against the slowest host's NICs (busbw is what each GPU's
// share of the network moves: a node's GPUs together reach its NICs' line rate at best).
void judge_busbw(const model::NcclJob& job, const model::Fabric& fabric, Judgement& judgement) {
  if (!job.busbw_peak_gbyte_s) {
    return;
  }
  const auto hosts = job_hosts(job, fabric);
  const std::size_t ranked_hosts = std::max(hosts.size(), job.test_hosts.size());
  if (ranked_hosts < 2) {
    judgement.rule_out(
        fmt::format("job {}: nccl-tests on one host measures NVLink/PCIe, not "
                    "the network",
                    job.name));
    return;
  }
  double slowest = 0.0;
  for (const auto& name : hosts) {
    const model::Host* host = fabric.find_host(name);
    if (host == nullptr) {
      continue;  // a log's host the fabric does not hold
    }
    const double rate = host_line_rate(*host, job);
    slowest = rate > 0.0 && (slowest == 0.0 || rate < slowest) ? rate : slowest;
  }
  if (slowest == 0.0) {
    return;  // no host of the job in the fabric with a known line rate
  }
  const double busbw = *job.busbw_peak_gbyte_s * k_bits_per_byte;
  const double expected = slowest * judgement.limit("min_busbw_efficiency");
  if (busbw >= expected) {
    return;
  }
  std::vector<std::string> entities;
  for (const auto& name : hosts) {
    entities.push_back(model::host_entity(name));
  }
  judgement.find(
      "nccl-busbw-low", entities,
      saturating(expected / busbw - 1.0, judgement.limit("busbw_shortfall_half_strength")),
      fmt::format("nccl-tests of job {} peaks at {} Gb/s bus bandwidth ({} GB/s), below "
                  "{} Gb/s: {} of the {} Gb/s its slowest host's NICs carry",
                  job.name, human(busbw), human(*job.busbw_peak_gbyte_s), human(expected),
                  percent(busbw / slowest), human(slowest)),
      busbw, expected, "Gb/s");
}

void judge_warnings(const std::vector<HostUse>& job, Judgement& judgement) {
  for (const HostUse& use : job) {
    if (use.view->warnings.empty()) {
      continue;
    }
    judgement.find(
        "nccl-warnings", {entity_of(use)}, judgement.limit("warning_strength"),
        fmt::format("NCCL on {} (job {}) warned {} time(s), first: {}", name_of(use), use.job->name,
                    use.view->warnings.size(), use.view->warnings.front()),
        static_cast<double>(use.view->warnings.size()), 0.0, "warnings");
  }
}

class NcclProbe final : public FleetProbe<Survey> {
 public:
  NcclProbe()
      : FleetProbe(
            {.id = "nccl",
             .description = "NCCL channels on sockets, GPUDirect RDMA off, too few HCAs",
             .cost = CostClass::Passive,
             .reads = {source::k_nccl, source::k_sysfs_port, source::k_ibv_devinfo,
                       source::k_ethtool_link, source::k_ip_address, source::k_sysfs_net,
                       source::k_sysfs_gids, source::k_show_gids},
             .findings = {"nccl-socket-transport", "nccl-gdr-off", "nccl-too-few-hcas",
                          "nccl-gid-index-wrong", "nccl-busbw-low", "nccl-warnings",
                          "nccl-hca-port-down"},
             .clearing = "nccl-on-rdma",
             .thresholds = {"socket_strength", "gdr_off_strength", "fleet_gdr_off_strength",
                            "too_few_hcas_strength", "port_down_strength", "gid_index_strength",
                            "min_busbw_efficiency", "busbw_shortfall_half_strength",
                            "warning_strength", "ok_strength", "busbw_only_ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    fleet.fabric_hosts = fabric.hosts.size();
    fleet.v2_index = fleet_v2_index(fabric);
    std::set<std::string> joined;
    for (const auto& job : fabric.nccl_jobs) {
      fleet.jobs.push_back(&job);
      fleet.busbw_jobs += job.busbw_peak_gbyte_s ? 1u : 0u;
      for (const auto& view : job.hosts) {
        if (!shows_network(view)) {
          continue;
        }
        const model::Host* host = fabric.find_host(view.fabric_host);
        fleet.uses.push_back({&job, &view, view.fabric_host.empty() ? nullptr : host});
        if (!view.fabric_host.empty()) {
          joined.insert(view.fabric_host);
        }
      }
    }
    fleet.joined = joined.size();
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"hosts", "NCCL_DEBUG=INFO logs (nccl/)", fleet.joined, fleet.fabric_hosts, false},
            {"NCCL jobs", "nccl-tests output (nccl/)", fleet.busbw_jobs, fleet.jobs.size(), false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const model::NcclJob* job : fleet.jobs) {
      std::vector<HostUse> uses;
      std::copy_if(fleet.uses.begin(), fleet.uses.end(), std::back_inserter(uses),
                   [job](const HostUse& use) { return use.job == job; });
      judge_socket(uses, judgement);
      judge_gdr(uses, judgement);
      judge_hcas(uses, judgement);
      judge_gid_index(uses, fleet.v2_index, judgement);
      judge_busbw(*job, judgement.fabric(), judgement);
      judge_warnings(uses, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::size_t channels = 0;
    for (const HostUse& use : fleet.uses) {
      channels += use.view->net_channels;
    }
    if (channels == 0) {
      return {.summary = fmt::format("{} NCCL job(s): no inter-node channel logged to judge; "
                                     "nccl-tests bus bandwidth within reach of the NICs",
                                     fleet.jobs.size()),
              .strength = judgement.limit("busbw_only_ok_strength")};
    }
    return {.summary = fmt::format("{} inter-node NCCL channels of {} host(s) all on NET/IB with "
                                   "GPUDirect RDMA, each host on its active RDMA NICs",
                                   channels, fleet.uses.size()),
            .strength = judgement.limit("ok_strength"),
            .value = static_cast<double>(channels),
            .unit = "channels"};
  }
};

}  // namespace

std::unique_ptr<Probe> make_nccl_probe() {
  return std::make_unique<NcclProbe>();
}

}  // namespace netdoctor::probes
