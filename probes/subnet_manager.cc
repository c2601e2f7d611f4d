// subnet-manager: one master subnet manager, alive, that gave every HCA port its LID.
//
// Reads what each fabric sample says of the subnet managers (sminfo; ibdiagnet's SM list; the
// SM LID each host's port points at) and each HCA port's LID (ibnetdiscover). A healthy subnet
// has exactly one SM in state MASTER (3), the same one in every sample, whose activity count
// grows between samples (it sweeps), and every HCA port that is LinkUp has a LID.
//
// No master answering (sminfo fails, or every SM is standby or discovering) leaves ports
// unconfigured and paths unanswered (sm-no-master). Two masters (different GUIDs in state 3, or
// hosts pointing at different SM LIDs) fight over the subnet and re-route it (sm-multiple-
// masters). A master whose activity count stands still has hung: nothing is swept, failed
// links are never routed around (sm-stalled). HCA ports up without a LID were never
// configured: nothing can reach them (sm-lids-missing). Ports LinkUp but held in Initialize
// or Armed (ib-link-state names them) leave the SM's work unfinished: it is not cleared then. A
// capture without sminfo says nothing of the SM, and so does a sample whose sminfo is missing: that
// is no data, never "no SM".
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "probes/fleet_probe.h"
#include "probes/ib_links.h"

namespace netdoctor::probes {
namespace {

// IBTA SMInfo SMState (vol 1, 14.4.1): 3 is MASTER. A protocol value, not a judgement.
constexpr std::uint32_t k_master = 3;
// How many ports a summary names before "and N more": presentation, not judgement.
constexpr std::size_t k_listed = 4;

struct SampleView {
  const model::IbFabricSample* sample = nullptr;
  bool seen = false;  // some view of the SM was captured for it
  std::map<std::uint64_t, const model::IbSubnetManager*> masters;  // by GUID, state 3
  std::set<std::uint32_t> host_sm_lids;  // the SM LIDs the hosts' ports point at
};

struct Survey {
  std::vector<SampleView> samples;
  std::size_t seen = 0;
  std::vector<IbEnd> lidless;   // HCA ports LinkUp without a LID
  std::size_t ca_up = 0;        // HCA ports LinkUp
  std::size_t ca_lid_view = 0;  // of those, judged (a view that gives LIDs was read)
  std::size_t held = 0;         // ports LinkUp but left in Initialize or Armed
};

bool captured(const model::IbFabric& ib, const std::string& source) {
  const auto it = ib.sources.find(source);
  return it != ib.sources.end() && it->second.availability != model::Availability::Absent;
}

SampleView view_of(const model::IbFabricSample& sample) {
  SampleView view;
  view.sample = &sample;
  view.seen = sample.sm_queried || sample.sm_answered || !sample.managers.empty();
  for (const auto& manager : sample.managers) {
    if (manager.source == source::k_sysfs_port && manager.lid) {
      view.host_sm_lids.insert(*manager.lid);
    } else if (manager.state == k_master) {
      view.masters.emplace(manager.guid, &manager);
    }
  }
  return view;
}

// The node an SM runs on, by its port GUID or else its LID; "" when the model lacks it.
std::string sm_entity(const model::IbFabric& ib, std::uint64_t guid,
                      std::optional<std::uint32_t> lid) {
  if (const model::IbNode* node = ib_node_with_guid(ib, guid)) {
    return node->entity();
  }
  for (const auto& node : ib.nodes) {
    for (const auto& port : node.ports) {
      if (lid && port.lid == lid) {
        return node.entity();
      }
    }
  }
  return {};
}

std::string sm_words(const model::IbSubnetManager& sm) {
  return fmt::format("0x{:016x} (LID {}, priority {})", sm.guid,
                     sm.lid ? std::to_string(*sm.lid) : std::string("?"),
                     sm.priority ? std::to_string(*sm.priority) : std::string("?"));
}

// What the sample showed instead of a master.
std::string instead(const SampleView& view) {
  if (!view.sample->sm_answered && view.sample->managers.empty()) {
    return "sminfo reached no SM";
  }
  std::string out;
  for (const auto& sm : view.sample->managers) {
    if (sm.state) {
      out += fmt::format("{}{} in state {}", out.empty() ? "" : ", ", sm_words(sm), *sm.state);
    }
  }
  return out.empty() ? std::string("no SM in state MASTER") : out;
}

void judge_no_master(const Survey& fleet, Judgement& judgement) {
  std::vector<const SampleView*> missing;
  std::vector<std::string> entities;
  for (const SampleView& view : fleet.samples) {
    if (view.seen && view.masters.empty()) {
      missing.push_back(&view);
    }
    for (const auto& sm : view.sample->managers) {
      append_unique(entities, sm_entity(judgement.fabric().ib, sm.guid, sm.lid));
    }
  }
  if (missing.empty()) {
    return;
  }
  entities.erase(std::remove(entities.begin(), entities.end(), std::string()), entities.end());
  const bool now = missing.back() == &fleet.samples.back();
  judgement.find(
      "sm-no-master", entities, judgement.limit(now ? "no_master_strength" : "failover_strength"),
      fmt::format("no master subnet manager in {} of {} fabric samples{} ({})", missing.size(),
                  fleet.seen, now ? ", the latest among them" : "", instead(*missing.back())),
      static_cast<double>(missing.size()), 0.0, "samples");
}

void judge_many_masters(const Survey& fleet, Judgement& judgement) {
  for (const SampleView& view : fleet.samples) {
    if (view.masters.size() < 2 && view.host_sm_lids.size() < 2) {
      continue;
    }
    std::vector<std::string> entities;
    std::string who;
    for (const auto& [guid, sm] : view.masters) {
      append_unique(entities, sm_entity(judgement.fabric().ib, guid, sm->lid));
      who += (who.empty() ? "" : ", ") + sm_words(*sm);
    }
    for (std::uint32_t lid : view.host_sm_lids) {
      append_unique(entities, sm_entity(judgement.fabric().ib, 0, lid));
    }
    entities.erase(std::remove(entities.begin(), entities.end(), std::string()), entities.end());
    judgement.find("sm-multiple-masters", entities, judgement.limit("many_masters_strength"),
                   fmt::format("sample {}: {} SMs in state MASTER ({}); hosts' ports point at "
                               "{} different SM LIDs",
                               view.sample->name, view.masters.size(), who.empty() ? "-" : who,
                               view.host_sm_lids.size()),
                   static_cast<double>(std::max(view.masters.size(), view.host_sm_lids.size())),
                   1.0, "masters");
    return;  // one sample says it
  }
}

// A master seen in two consecutive samples whose activity count did not move (a count that
// went down is a restarted SM, which sweeps again).
void judge_stalled(const Survey& fleet, Judgement& judgement) {
  std::set<std::uint64_t> reported;
  for (std::size_t i = 1; i < fleet.samples.size(); ++i) {
    for (const auto& [guid, sm] : fleet.samples[i].masters) {
      const auto before = fleet.samples[i - 1].masters.find(guid);
      if (before == fleet.samples[i - 1].masters.end() || !sm->activity_count ||
          !before->second->activity_count ||
          *sm->activity_count != *before->second->activity_count || !reported.insert(guid).second) {
        continue;
      }
      std::vector<std::string> entities;
      append_unique(entities, sm_entity(judgement.fabric().ib, guid, sm->lid));
      entities.erase(std::remove(entities.begin(), entities.end(), std::string()), entities.end());
      const double seconds =
          fleet.samples[i].sample->captured_at - fleet.samples[i - 1].sample->captured_at;
      judgement.find("sm-stalled", entities, judgement.limit("stalled_strength"),
                     fmt::format("master SM {} activity count stayed at {} over {:.0f} s "
                                 "(samples {} and {}): it is not sweeping",
                                 sm_words(*sm), *sm->activity_count, seconds,
                                 fleet.samples[i - 1].sample->name, fleet.samples[i].sample->name),
                     static_cast<double>(*sm->activity_count),
                     static_cast<double>(*before->second->activity_count), "activity count");
    }
  }
}

void judge_lids(const Survey& fleet, Judgement& judgement) {
  if (fleet.lidless.empty()) {
    return;
  }
  std::vector<std::string> entities;
  std::string names;
  for (std::size_t i = 0; i < fleet.lidless.size(); ++i) {
    append_unique(entities, fleet.lidless[i].entity());
    if (i < k_listed) {
      names += (i == 0 ? "" : ", ") + fleet.lidless[i].label();
    }
  }
  if (fleet.lidless.size() > k_listed) {
    names += fmt::format(" and {} more", fleet.lidless.size() - k_listed);
  }
  judgement.find("sm-lids-missing", entities, judgement.limit("lids_missing_strength"),
                 fmt::format("{} of {} HCA ports are LinkUp without a LID (no SM assigned one): "
                             "{}",
                             fleet.lidless.size(), fleet.ca_lid_view, names),
                 static_cast<double>(fleet.lidless.size()), 0.0, "ports");
}

class SubnetManagerProbe final : public FleetProbe<Survey> {
 public:
  SubnetManagerProbe()
      : FleetProbe(
            {.id = "subnet-manager",
             .description = "InfiniBand subnet manager: one master, alive, LIDs assigned",
             .cost = CostClass::Config,
             .reads = {source::k_sminfo, source::k_ibdiagnet, source::k_ibnetdiscover,
                       source::k_sysfs_port},
             .findings = {"sm-no-master", "sm-multiple-masters", "sm-stalled", "sm-lids-missing"},
             .clearing = "sm-ok",
             .thresholds = {"no_master_strength", "failover_strength", "many_masters_strength",
                            "stalled_strength", "lids_missing_strength", "ok_strength",
                            "lids_only_strength", "ports_held_strength"},
             .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::IbFabric& ib = judgement.fabric().ib;
    Survey fleet;
    for (const auto& sample : ib.samples) {
      fleet.samples.push_back(view_of(sample));
      fleet.seen += fleet.samples.back().seen ? 1U : 0U;
    }
    bool lid_view = captured(ib, source::k_ibnetdiscover);
    for (const IbEnd& end : ib_ports(ib)) {
      lid_view = lid_view || (end.is_ca() && end.port->lid.value_or(0) != 0);
    }
    for (const IbEnd& end : ib_ports(ib)) {
      fleet.held += ib_port_held(*end.port) ? 1U : 0U;
      if (!end.is_ca() || end.port->phys != model::PhysState::LinkUp) {
        continue;
      }
      ++fleet.ca_up;
      if (end.port->lid ? *end.port->lid == 0 : lid_view) {
        fleet.lidless.push_back(end);
      }
      fleet.ca_lid_view += (lid_view || end.port->lid) ? 1U : 0U;
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // The HCA ports' LIDs are judged where sminfo is missing, but say nothing of the master.
    return {{"fabric samples", "sminfo", fleet.seen, fleet.samples.size()},
            {"HCA ports", "LIDs (ibnetdiscover)", fleet.ca_lid_view, fleet.ca_up, false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_no_master(fleet, judgement);
    judge_many_masters(fleet, judgement);
    judge_stalled(fleet, judgement);
    judge_lids(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    std::string master = "sminfo not captured";
    if (fleet.seen > 0 && !fleet.samples.back().masters.empty()) {
      master = fmt::format("one master SM {} in each of {} samples, its activity count growing",
                           sm_words(*fleet.samples.back().masters.begin()->second), fleet.seen);
    }
    healthy.summary =
        fmt::format("{}; all {} HCA ports LinkUp have a LID", master, fleet.ca_lid_view);
    healthy.strength = judgement.limit(fleet.seen > 0 ? "ok_strength" : "lids_only_strength");
    if (fleet.held > 0) {
      // Activating ports is the SM's work too: with ports held short of Active it is not
      // shown to be doing it (ib-link-state names them).
      healthy.summary += fmt::format(
          "; but {} ports LinkUp are held in Initialize or Armed, not activated", fleet.held);
      healthy.strength = std::min(healthy.strength, judgement.limit("ports_held_strength"));
    }
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_subnet_manager_probe() {
  return std::make_unique<SubnetManagerProbe>();
}

}  // namespace netdoctor::probes
