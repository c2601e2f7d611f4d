// firmware: within each NIC model, firmware and driver versions against the majority.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

std::string nic_model(const model::Nic& nic) {
  std::string id = !nic.part_id.empty() ? nic.part_id : nic.board_id;
  return nic.vendor + (id.empty() ? "" : " " + id);
}

class FirmwareProbe final : public BasicProbe {
 public:
  FirmwareProbe()
      : BasicProbe("firmware", "NIC firmware and driver versions within each NIC model",
                   CostClass::Config, {"ethtool -i", "sysfs fw_ver", "ibv_devinfo"},
                   {"firmware-mismatch", "firmware-consistent"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    std::map<std::string, std::vector<std::string>> firmware_by_model;
    std::map<std::string, std::vector<std::string>> driver_by_model;
    std::size_t total = 0;
    std::size_t with = 0;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++total;
        if (!nic.firmware.empty()) {
          ++with;
          firmware_by_model[nic_model(nic)].push_back(nic.firmware);
        }
        if (!nic.driver_version.empty()) {
          driver_by_model[nic_model(nic)].push_back(nic.driver_version);
        }
      }
    }
    if (!apply_coverage(result, with, total, "NICs", "ethtool -i, sysfs fw_ver or ibv_devinfo")) {
      return;
    }
    std::map<std::string, Mode> fw_mode;
    std::map<std::string, Mode> drv_mode;
    for (const auto& [model_name, versions] : firmware_by_model) {
      fw_mode[model_name] = mode_of(versions);
    }
    for (const auto& [model_name, versions] : driver_by_model) {
      drv_mode[model_name] = mode_of(versions);
    }
    bool found = false;
    for (const auto& host : fabric.hosts) {
      std::vector<std::string> odd_entities;
      std::vector<std::string> parts;
      std::size_t odd = 0;
      // The figures a person compares: how many NICs of the model run the odd version against
      // how many run the majority's (versions are not numbers to put side by side).
      std::optional<std::pair<double, double>> figures;
      const auto count_of = [](const std::vector<std::string>& versions, const std::string& v) {
        return static_cast<double>(std::count(versions.begin(), versions.end(), v));
      };
      for (const auto& nic : host.nics) {
        std::string m = nic_model(nic);
        std::vector<std::string> why;
        // A model seen once has no majority to differ from.
        if (!nic.firmware.empty() && firmware_by_model[m].size() > 1 &&
            nic.firmware != fw_mode[m].value) {
          why.push_back(fmt::format("firmware {} (fleet {} on {} of {} {})", nic.firmware,
                                    fw_mode[m].value, fw_mode[m].count, firmware_by_model[m].size(),
                                    m));
          if (!figures) {
            figures.emplace(count_of(firmware_by_model[m], nic.firmware),
                            static_cast<double>(fw_mode[m].count));
          }
        }
        if (!nic.driver_version.empty() && driver_by_model[m].size() > 1 &&
            nic.driver_version != drv_mode[m].value) {
          why.push_back(fmt::format("driver {} (fleet {})", nic.driver_version, drv_mode[m].value));
          if (!figures) {
            figures.emplace(count_of(driver_by_model[m], nic.driver_version),
                            static_cast<double>(drv_mode[m].count));
          }
        }
        if (why.empty()) {
          continue;
        }
        ++odd;
        odd_entities.push_back(nic.nic_entity());
        std::string part = nic_label(nic) + " ";
        for (std::size_t i = 0; i < why.size(); ++i) {
          part += (i == 0 ? "" : ", ") + why[i];
        }
        parts.push_back(part);
      }
      if (odd == 0) {
        continue;
      }
      found = true;
      std::vector<std::string> entities;
      // Every NIC of the host differs: the host's install is the unit that is off.
      bool whole_host = odd == host.nics.size();
      if (whole_host) {
        entities.push_back(host.entity());
      }
      entities.insert(entities.end(), odd_entities.begin(), odd_entities.end());
      std::string text =
          whole_host ? fmt::format("all {} NICs of {} differ: ", odd, host.name) : std::string();
      for (std::size_t i = 0; i < parts.size(); ++i) {
        text += (i == 0 ? "" : "; ") + parts[i];
      }
      result.findings.push_back(make_finding("firmware-mismatch", entities, 0.9, text,
                                             figures->first, figures->second,
                                             "NICs on that version"));
    }
    if (!found) {
      std::string text = fmt::format(
          "{} NICs in {} models run their model's majority firmware "
          "and driver",
          with, firmware_by_model.size());
      result.checked.push_back(text);
      result.findings.push_back(make_finding("firmware-consistent", {}, 0.9, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_firmware_probe() {
  return std::make_unique<FirmwareProbe>();
}

}  // namespace netdoctor::probes
