// gids: every RoCE NIC can be reached with RoCE v2 at the GID index the fleet uses.
//
// Reads each RDMA port's GID table (sysfs gids with their gid_attrs, or show_gids) and the
// netdev's IPv4 address (ip address). RoCE v2 addresses a peer by a GID whose address is the
// netdev's IP; with the usual mlx5 layout that GID sits at the same index on every host (3:
// link-local v1/v2 at 0/1, the IPv4-mapped v1/v2 at 2/3), and NCCL (NCCL_IB_GID_INDEX) and most
// launchers pick one index for the whole job.
//
// A NIC with no GID for its address (no-rocev2-gid), or only a RoCE v1 one (rocev1-only), cannot
// be reached by a RoCE v2 job at all. A NIC whose v2 GID sits at another index than most of the
// fleet's (an extra IPv6 address or VLAN netdev added first, v1 entries in between) connects with
// the wrong GID type or address under the fleet's index: connections time out or fall back
// (gid-index-differs). InfiniBand ports are not judged: their GIDs carry no IP.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "model/nic_gids.h"
#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

constexpr std::size_t k_listed = 4;  // NICs named in one summary; the entities list them all

enum class V2Gid { AtIndex, V1Only, Missing, Unknown };

struct RoceNic {
  const model::Nic* nic = nullptr;
  std::string address;  // its first IPv4 address, without the prefix
  V2Gid state = V2Gid::Unknown;
  int index = -1;     // AtIndex: the lowest RoCE v2 GID index carrying the address
  int v1_index = -1;  // V1Only: the RoCE v1 entry that carries it
};

struct Survey {
  std::vector<RoceNic> nics;              // RoCE NICs with an address and a GID table
  std::size_t addressed = 0;              // RoCE NICs with an RDMA device and an IPv4 address
  std::size_t infiniband = 0;             // InfiniBand ports: not judged
  std::map<int, std::size_t> v2_indices;  // GID index -> NICs whose v2 GID sits there
};

bool has_gid_table(const model::Nic& nic) {
  for (const auto* source : {&model::source::k_sysfs_gids, &model::source::k_show_gids}) {
    const auto it = nic.sources.find(*source);
    if (it != nic.sources.end() && it->second.availability == model::Availability::Observed) {
      return true;
    }
  }
  return false;
}

// Where the table puts the NIC's address: the lowest v2 entry, else a v1 one.
RoceNic locate(const model::Nic& nic, std::string address) {
  RoceNic located{&nic, std::move(address), V2Gid::Missing, -1, -1};
  for (const auto& gid : nic.gids) {
    if (gid.ipv4 != located.address) {
      continue;
    }
    if (gid.type == model::k_gid_roce_v2) {
      located.state = V2Gid::AtIndex;
      located.index = gid.index;
      return located;
    }
    if (gid.type == model::k_gid_roce_v1) {
      located.state = V2Gid::V1Only;
      located.v1_index = located.v1_index < 0 ? gid.index : located.v1_index;
    } else if (located.state == V2Gid::Missing) {
      located.state = V2Gid::Unknown;  // a GID of unknown type: no verdict either way
    }
  }
  return located;
}

void survey_nic(const model::Nic& nic, Survey& fleet) {
  if (nic.link_layer == "InfiniBand") {
    ++fleet.infiniband;
    return;
  }
  if (nic.device.empty() || nic.ipv4.empty()) {
    return;
  }
  ++fleet.addressed;
  if (!has_gid_table(nic)) {
    return;
  }
  RoceNic located = locate(nic, nic.ipv4.front().substr(0, nic.ipv4.front().find('/')));
  if (located.state == V2Gid::Unknown) {
    return;
  }
  if (located.state == V2Gid::AtIndex) {
    ++fleet.v2_indices[located.index];
  }
  fleet.nics.push_back(std::move(located));
}

// The fleet's index: the one most NICs use (the lowest of a tie), and how many do.
std::pair<int, std::size_t> fleet_index(const Survey& fleet) {
  std::pair<int, std::size_t> mode{-1, 0};
  for (const auto& [index, count] : fleet.v2_indices) {
    if (count > mode.second) {
      mode = {index, count};
    }
  }
  return mode;
}

std::size_t with_v2_gid(const Survey& fleet) {
  std::size_t total = 0;
  for (const auto& [index, count] : fleet.v2_indices) {
    total += count;
  }
  return total;
}

// One finding per host: its NICs (and their netdevs), then the host.
using HostNics = std::map<std::string, std::vector<const RoceNic*>>;

std::vector<std::string> entities_of(const std::vector<const RoceNic*>& nics) {
  std::vector<std::string> entities;
  for (const RoceNic* located : nics) {
    for (const auto& entity : nic_entities(*located->nic, false)) {
      append_unique(entities, entity);
    }
  }
  entities.push_back(model::host_entity(nics.front()->nic->host));
  return entities;
}

std::string listed(const std::vector<const RoceNic*>& nics) {
  std::string text;
  for (std::size_t i = 0; i < nics.size() && i < k_listed; ++i) {
    text += fmt::format("{}{} ({})", i == 0 ? "" : ", ", nics[i]->nic->device, nics[i]->address);
  }
  return nics.size() > k_listed ? fmt::format("{} and {} more", text, nics.size() - k_listed)
                                : text;
}

void judge_unreachable(const Survey& fleet, Judgement& judgement) {
  HostNics missing;
  HostNics v1_only;
  for (const auto& located : fleet.nics) {
    if (located.state == V2Gid::Missing) {
      missing[located.nic->host].push_back(&located);
    } else if (located.state == V2Gid::V1Only) {
      v1_only[located.nic->host].push_back(&located);
    }
  }
  for (const auto& [host, nics] : missing) {
    judgement.find("no-rocev2-gid", entities_of(nics), judgement.limit("missing_strength"),
                   fmt::format("{}: no GID carries the RDMA address of {}: RoCE v2 peers cannot "
                               "address it",
                               host, listed(nics)),
                   static_cast<double>(nics.size()), 0.0, "NICs");
  }
  for (const auto& [host, nics] : v1_only) {
    judgement.find("rocev1-only", entities_of(nics), judgement.limit("v1_only_strength"),
                   fmt::format("{}: only RoCE v1 GIDs (index {}) carry the address of {}: a RoCE "
                               "v2 job finds no v2 GID",
                               host, nics.front()->v1_index, listed(nics)),
                   static_cast<double>(nics.size()), 0.0, "NICs");
  }
}

// Only where one index is the fleet's convention (held by at least min_fleet_share of the NICs
// with a v2 GID); a fleet split evenly over many indices has none to differ from.
void judge_index(const Survey& fleet, Judgement& judgement) {
  const auto [index, count] = fleet_index(fleet);
  const std::size_t with_v2 = with_v2_gid(fleet);
  if (fleet.v2_indices.size() < 2) {
    return;
  }
  if (static_cast<double>(count) <
      judgement.limit("min_fleet_share") * static_cast<double>(with_v2)) {
    judgement.note(
        fmt::format("no GID index is the fleet's: the most used, {}, holds {} of {} "
                    "RoCE v2 GIDs",
                    index, count, with_v2));
    return;
  }
  std::map<std::pair<std::string, int>, std::vector<const RoceNic*>> off;
  for (const auto& located : fleet.nics) {
    if (located.state == V2Gid::AtIndex && located.index != index) {
      off[{located.nic->host, located.index}].push_back(&located);
    }
  }
  for (const auto& [where, nics] : off) {
    judgement.find(
        "gid-index-differs", entities_of(nics), judgement.limit("differs_strength"),
        fmt::format("{}: the RoCE v2 GID of {} sits at index {}, while {} of {} NICs "
                    "hold theirs at {}: a job using GID index {} takes another GID "
                    "there",
                    where.first, listed(nics), where.second, count, with_v2, index, index),
        static_cast<double>(where.second), static_cast<double>(index), "GID index");
  }
}

class GidsProbe final : public FleetProbe<Survey> {
 public:
  GidsProbe()
      : FleetProbe({.id = "gids",
                    .description = "A RoCE v2 GID for every NIC's address, at the fleet's index",
                    .cost = CostClass::Config,
                    .reads = {model::source::k_sysfs_gids, model::source::k_show_gids,
                              model::source::k_ip_address, model::source::k_sysfs_port,
                              model::source::k_ibv_devinfo},
                    .findings = {"no-rocev2-gid", "rocev1-only", "gid-index-differs"},
                    .clearing = "gids-consistent",
                    .thresholds = {"min_fleet_share", "missing_strength", "v1_only_strength",
                                   "differs_strength", "ok_strength"},
                    .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        survey_nic(nic, fleet);
      }
    }
    if (fleet.infiniband > 0) {
      judgement.note(fmt::format("{} InfiniBand ports not judged: their GIDs carry no IP address",
                                 fleet.infiniband));
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // A fleet of InfiniBand ports only is skipped: say why there is nothing to judge.
    const std::string noun =
        fleet.addressed == 0 && fleet.infiniband > 0
            ? fmt::format("RoCE NICs ({} InfiniBand ports not judged)", fleet.infiniband)
            : "RoCE NICs";
    return {{noun, "GID table", fleet.nics.size(), fleet.addressed}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_unreachable(fleet, judgement);
    judge_index(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const auto [index, count] = fleet_index(fleet);
    Clearance healthy;
    healthy.summary = fmt::format(
        "{} RoCE NICs carry their address in a RoCE v2 GID, {} of them "
        "at index {}",
        with_v2_gid(fleet), count, index);
    // Evidence against GID trouble only as far as the fleet agrees on one index.
    healthy.strength = judgement.limit("ok_strength") * static_cast<double>(count) /
                       static_cast<double>(std::max<std::size_t>(with_v2_gid(fleet), 1));
    healthy.value = static_cast<double>(index);
    healthy.unit = "GID index";
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_gids_probe() {
  return std::make_unique<GidsProbe>();
}

}  // namespace netdoctor::probes
