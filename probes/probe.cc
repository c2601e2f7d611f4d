#include "probes/probe.h"

namespace netdoctor::probes {

const char* to_string(CostClass cost) {
  switch (cost) {
    case CostClass::Passive:
      return "passive";
    case CostClass::Config:
      return "config";
    case CostClass::Active:
      return "active";
  }
  return "unknown";
}

std::optional<CostClass> cost_class_named(std::string_view name) {
  for (CostClass cost : {CostClass::Passive, CostClass::Config, CostClass::Active}) {
    if (name == to_string(cost)) {
      return cost;
    }
  }
  return std::nullopt;
}

std::vector<std::string> ProbeSpec::signals() const {
  std::vector<std::string> out = findings;
  out.push_back(clearing);
  return out;
}

const char* to_string(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::Ran:
      return "ran";
    case ProbeStatus::Skipped:
      return "skipped";
    case ProbeStatus::Failed:
      return "failed";
  }
  return "unknown";
}

void ProbeRegistry::add(std::unique_ptr<Probe> probe) {
  m_probes.push_back(std::move(probe));
}

const Probe* ProbeRegistry::find(const std::string& id) const {
  for (const auto& probe : m_probes) {
    if (probe->id() == id) {
      return probe.get();
    }
  }
  return nullptr;
}

std::vector<const Probe*> ProbeRegistry::all() const {
  std::vector<const Probe*> out;
  out.reserve(m_probes.size());
  for (const auto& probe : m_probes) {
    out.push_back(probe.get());
  }
  return out;
}

bool applies_to(FabricScope scope, const model::Fabric& fabric) {
  switch (scope) {
    case FabricScope::Any:
      return true;
    case FabricScope::Ethernet:
      return model::has_ethernet(fabric);
    case FabricScope::InfiniBand:
      return model::has_infiniband(fabric);
  }
  return true;
}

std::string not_applicable_reason(FabricScope scope) {
  return scope == FabricScope::InfiniBand
             ? "not applicable: no InfiniBand in this fabric"
             : "not applicable: no Ethernet (RoCE) ports in this fabric";
}

}  // namespace netdoctor::probes
