#include <fmt/format.h>

#include "base/strings.h"
#include "plan/render.h"

namespace netdoctor::plan {
namespace {

std::string tbps(double gbps_value) {
  return fmt::format("{:g} Tb/s", gbps_value / 1000.0);
}

double target_ratio(const CheckReport& r) {
  return r.targets.plan ? r.targets.plan->inputs.oversubscription : r.targets.oversubscription;
}
double target_spare(const CheckReport& r) {
  return r.targets.plan ? r.targets.plan->inputs.spare : r.targets.spare;
}

}  // namespace

std::string render_check_text(const CheckReport& r) {
  std::string out;
  out += fmt::format("Fabric {}: {} leaves, {} spines; target {} oversubscription, {:g}% spare{}\n",
                     r.fabric.empty() ? "(unnamed)" : r.fabric, r.leaves.size(), r.spines.size(),
                     format_ratio(target_ratio(r)), target_spare(r) * 100,
                     r.targets.plan ? " (from the plan)" : " (defaults)");
  out += "\nLeaves (downlink capacity to hosts : uplink capacity to spines):\n";
  for (const LeafFigures& leaf : r.leaves) {
    out +=
        fmt::format("  {:<12} {:>3} down {:>10} : {:>3} up {:>10}  = {:<8} spines {}\n", leaf.name,
                    leaf.downlinks, tbps(leaf.downlink_gbps), leaf.uplinks, tbps(leaf.uplink_gbps),
                    leaf.oversubscription ? format_ratio(*leaf.oversubscription) : "no uplink",
                    leaf.spines.empty() ? "-" : join(leaf.spines, ","));
    out += fmt::format("  {:<12} spare: {}\n", "",
                       leaf.spare_fraction ? fmt::format("{:.1f}% ({})", *leaf.spare_fraction * 100,
                                                         leaf.spare_basis)
                                           : fmt::format("unknown ({})", leaf.spare_basis));
  }
  if (!r.spines.empty()) {
    out += "\nSpines:\n";
    for (const SpineFigures& spine : r.spines) {
      out += fmt::format("  {:<12} {:>3} links {:>10} to {}\n", spine.name, spine.links,
                         tbps(spine.gbps), join(spine.leaves, ","));
    }
  }
  out += fmt::format("\nFindings: {} problem(s), {} warning(s)\n", r.problems(), r.warnings());
  for (const CheckFinding& f : r.findings) {
    out += fmt::format("  [{}] {}{}: {}\n", to_string(f.severity), f.code,
                       f.entity.empty() ? "" : " " + f.entity, f.message);
  }
  if (r.findings.empty()) {
    out += "  none: every leaf is within the targets\n";
  }
  if (!r.notes.empty()) {
    out += "\nNotes:\n";
    for (const std::string& note : r.notes) {
      out += fmt::format("  - {}\n", note);
    }
  }
  return out;
}

nlohmann::json check_to_json(const CheckReport& r) {
  nlohmann::json leaves = nlohmann::json::array();
  for (const LeafFigures& leaf : r.leaves) {
    nlohmann::json j = {{"name", leaf.name},
                        {"entity", leaf.entity()},
                        {"downlinks", leaf.downlinks},
                        {"downlink_gbps", leaf.downlink_gbps},
                        {"uplinks", leaf.uplinks},
                        {"uplink_gbps", leaf.uplink_gbps},
                        {"oversubscription", nullptr},
                        {"spines", leaf.spines},
                        {"ports_listed", leaf.ports_listed},
                        {"ports_unused", leaf.ports_unused},
                        {"spare_fraction", nullptr},
                        {"spare_basis", leaf.spare_basis}};
    if (leaf.oversubscription) {
      j["oversubscription"] = *leaf.oversubscription;
    }
    if (leaf.spare_fraction) {
      j["spare_fraction"] = *leaf.spare_fraction;
    }
    leaves.push_back(std::move(j));
  }
  nlohmann::json spines = nlohmann::json::array();
  for (const SpineFigures& spine : r.spines) {
    spines.push_back({{"name", spine.name},
                      {"entity", spine.entity()},
                      {"links", spine.links},
                      {"gbps", spine.gbps},
                      {"leaves", spine.leaves}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const CheckFinding& f : r.findings) {
    findings.push_back({{"severity", to_string(f.severity)},
                        {"code", f.code},
                        {"entity", f.entity},
                        {"message", f.message}});
  }
  return {{"fabric", r.fabric},
          {"target_oversubscription", target_ratio(r)},
          {"target_spare", target_spare(r)},
          {"from_plan", r.targets.plan.has_value()},
          {"leaves", leaves},
          {"spines", spines},
          {"other_switches", r.other_switches},
          {"problems", r.problems()},
          {"warnings", r.warnings()},
          {"findings", findings},
          {"notes", r.notes}};
}

}  // namespace netdoctor::plan
