// qos-config: PFC enabled on the RoCE priority (mlnx_qos) and the trust mode the fleet uses.
#include <fmt/format.h>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

class QosConfigProbe final : public BasicProbe {
 public:
  QosConfigProbe()
      : BasicProbe("qos-config", "PFC on the RoCE priority and trust mode per NIC",
                   CostClass::Config, {"mlnx_qos"},
                   {"pfc-disabled-on-roce-priority", "trust-mismatch", "qos-consistent"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    const int prio = context.options.roce_priority;
    const auto slot = static_cast<std::size_t>(prio);
    std::vector<std::string> trusts;
    std::size_t total = 0;
    std::size_t with = 0;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++total;
        if ((slot < 8 && nic.qos.pfc_enabled[slot]) || !nic.qos.trust.empty()) {
          ++with;
        }
        if (!nic.qos.trust.empty()) {
          trusts.push_back(nic.qos.trust);
        }
      }
    }
    if (!apply_coverage(result, with, total, "NICs", "mlnx_qos")) {
      return;
    }
    Mode trust = mode_of(trusts);
    bool found = false;
    for (const auto& host : fabric.hosts) {
      std::vector<std::string> off;
      for (const auto& nic : host.nics) {
        if (slot < 8 && nic.qos.pfc_enabled[slot] && !*nic.qos.pfc_enabled[slot]) {
          off.push_back(nic.nic_entity());
        }
        if (!nic.qos.trust.empty() && trusts.size() > 1 && nic.qos.trust != trust.value) {
          found = true;
          result.findings.push_back(
              make_finding("trust-mismatch", nic_entities(nic, false), 0.8,
                           fmt::format("{} trusts {} while {} of {} NICs trust {}", nic_label(nic),
                                       nic.qos.trust, trust.count, trusts.size(), trust.value)));
        }
      }
      if (off.empty()) {
        continue;
      }
      found = true;
      std::vector<std::string> entities = off;
      bool whole_host = off.size() == host.nics.size();
      if (whole_host) {
        entities.insert(entities.begin(), host.entity());
      }
      result.findings.push_back(make_finding(
          "pfc-disabled-on-roce-priority", entities, 0.95,
          fmt::format("PFC is disabled on priority {} on {} of {} NICs of {}: RoCE runs lossy "
                      "there",
                      prio, off.size(), host.nics.size(), host.name),
          static_cast<double>(off.size()), 0.0, "NICs"));
    }
    if (!found) {
      std::string text = fmt::format(
          "PFC enabled on priority {} and trust {} on all {} NICs "
          "with mlnx_qos",
          prio, trust.value.empty() ? "?" : trust.value, with);
      result.checked.push_back(text);
      result.findings.push_back(make_finding("qos-consistent", {}, 0.9, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_qos_config_probe() {
  return std::make_unique<QosConfigProbe>();
}

}  // namespace netdoctor::probes
