// firmware: within each NIC model, firmware and driver versions against the model's majority.
//
// Reads each NIC's firmware and driver version and its model (vendor with part number or board
// id) from ethtool -i, sysfs fw_ver and ibv_devinfo. A healthy fleet runs one firmware and one
// driver per NIC model: versions are compared only within a model, never across vendors.
//
// A NIC whose firmware or driver differs from the majority of its model behaves differently
// (congestion control defaults, bugs): firmware-mismatch, naming the host when every NIC of it
// differs, since then the host's install is what is off. A model with too few NICs has no
// majority to differ from.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

std::string nic_model(const model::Nic& nic) {
  std::string id = !nic.part_id.empty() ? nic.part_id : nic.board_id;
  return nic.vendor + (id.empty() ? "" : " " + id);
}

// One kind of version over the fleet, grouped by NIC model.
struct Versions {
  std::map<std::string, std::vector<std::string>> by_model;
  std::map<std::string, Mode> majority;  // per model
};

struct Survey {
  Versions firmware;
  Versions driver;
  std::size_t total = 0;
  std::size_t with = 0;  // NICs reporting a firmware version
};

void settle_majorities(Versions& versions) {
  for (const auto& [model_name, seen] : versions.by_model) {
    versions.majority[model_name] = mode_of(seen);
  }
}

// What differs on one NIC. The figures a person compares: how many NICs of the model run the
// odd version against how many run the majority's (versions are not numbers to put side by
// side).
struct Difference {
  std::vector<std::string> why;
  std::optional<std::pair<double, double>> figures;
};

// `version` against its model's majority in `versions`; `describe` words the difference.
template <typename Describe>
void compare(const Versions& versions, const std::string& model_name, const std::string& version,
             const Judgement& judgement, Difference& out, Describe describe) {
  const auto seen = versions.by_model.find(model_name);
  if (version.empty() || seen == versions.by_model.end() ||
      seen->second.size() < judgement.limit_count("min_model_nics")) {
    return;
  }
  const Mode& majority = versions.majority.at(model_name);
  if (version == majority.value) {
    return;
  }
  out.why.push_back(describe(majority, seen->second.size()));
  if (!out.figures) {
    out.figures.emplace(
        static_cast<double>(std::count(seen->second.begin(), seen->second.end(), version)),
        static_cast<double>(majority.count));
  }
}

Difference difference(const Survey& fleet, const model::Nic& nic, const Judgement& judgement) {
  const std::string m = nic_model(nic);
  Difference out;
  compare(fleet.firmware, m, nic.firmware, judgement, out,
          [&](const Mode& majority, std::size_t nics) {
            return fmt::format("firmware {} (fleet {} on {} of {} {})", nic.firmware,
                               majority.value, majority.count, nics, m);
          });
  compare(fleet.driver, m, nic.driver_version, judgement, out,
          [&](const Mode& majority, std::size_t) {
            return fmt::format("driver {} (fleet {})", nic.driver_version, majority.value);
          });
  return out;
}

// One finding per host: its NICs that differ, or the host itself when all of them do.
void judge_host(const Survey& fleet, const model::Host& host, Judgement& judgement) {
  std::vector<std::string> odd_entities;
  std::vector<std::string> parts;
  std::optional<std::pair<double, double>> figures;
  for (const auto& nic : host.nics) {
    const Difference diff = difference(fleet, nic, judgement);
    if (diff.why.empty()) {
      continue;
    }
    if (!figures) {
      figures = diff.figures;
    }
    odd_entities.push_back(nic.nic_entity());
    std::string part = nic_label(nic) + " ";
    for (std::size_t i = 0; i < diff.why.size(); ++i) {
      part += (i == 0 ? "" : ", ") + diff.why[i];
    }
    parts.push_back(part);
  }
  if (parts.empty()) {
    return;
  }
  std::vector<std::string> entities;
  const bool whole_host = parts.size() == host.nics.size();
  if (whole_host) {
    entities.push_back(host.entity());
  }
  entities.insert(entities.end(), odd_entities.begin(), odd_entities.end());
  std::string text =
      whole_host ? fmt::format("all {} NICs of {} differ: ", parts.size(), host.name) : "";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    text += (i == 0 ? "" : "; ") + parts[i];
  }
  judgement.find("firmware-mismatch", entities, judgement.limit("mismatch_strength"), text,
                 figures->first, figures->second, "NICs on that version");
}

class FirmwareProbe final : public FleetProbe<Survey> {
 public:
  FirmwareProbe()
      : FleetProbe(
            {.id = "firmware",
             .description = "NIC firmware and driver versions within each NIC model",
             .cost = CostClass::Config,
             .reads = {source::k_ethtool_info, source::k_sysfs_fw_ver, source::k_ibv_devinfo},
             .findings = {"firmware-mismatch"},
             .clearing = "firmware-consistent",
             .thresholds = {"min_model_nics", "mismatch_strength", "consistent_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        if (!nic.firmware.empty()) {
          ++fleet.with;
          fleet.firmware.by_model[nic_model(nic)].push_back(nic.firmware);
        }
        if (!nic.driver_version.empty()) {
          fleet.driver.by_model[nic_model(nic)].push_back(nic.driver_version);
        }
      }
    }
    settle_majorities(fleet.firmware);
    settle_majorities(fleet.driver);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "ethtool -i, sysfs fw_ver or ibv_devinfo", fleet.with, fleet.total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const auto& host : judgement.fabric().hosts) {
      judge_host(fleet, host, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary =
        fmt::format("{} NICs in {} models run their model's majority firmware and driver",
                    fleet.with, fleet.firmware.by_model.size());
    healthy.strength = judgement.limit("consistent_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_firmware_probe() {
  return std::make_unique<FirmwareProbe>();
}

}  // namespace netdoctor::probes
