// Checks a captured fabric (LLDP neighbours and port speeds in the model) against a plan, or
// against the default targets (1:1, 20 % spare): per-leaf oversubscription, leaf-spine links
// missing or extra, speed mismatches, spare ports. Findings name entities as spec/bundle.md
// does (switch:leaf1, port:leaf1/Ethernet256, link:<a>~<b>).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "plan/fabric_sizing.h"

namespace netdoctor::plan {

enum class Severity { Problem, Warning, Info };
const char* to_string(Severity severity);

struct CheckFinding {
  Severity severity = Severity::Info;
  std::string code;    // "oversubscribed", "missing-link", "extra-link", "speed-mismatch", ...
  std::string entity;  // the switch, port or link it concerns; empty for the whole fabric
  std::string message;
};

struct LeafFigures {
  std::string name;
  int downlinks = 0;  // host-facing ports in use
  double downlink_gbps = 0;
  int uplinks = 0;  // switch-facing ports in use
  double uplink_gbps = 0;
  std::optional<double> oversubscription;  // empty when the leaf has no uplink
  std::vector<std::string> spines;         // spines it reaches, sorted
  int ports_listed = 0;
  int ports_unused = 0;                  // listed, not up and without a neighbour
  std::optional<double> spare_fraction;  // empty when the capture cannot tell
  std::string spare_basis;               // how the spare figure was obtained, or why not
  std::string entity() const { return model::switch_entity(name); }
};

struct SpineFigures {
  std::string name;
  int links = 0;
  double gbps = 0;
  std::vector<std::string> leaves;  // sorted
  std::string entity() const { return model::switch_entity(name); }
};

struct CheckTargets {
  double oversubscription = 1.0;
  double spare = 0.2;
  std::optional<FabricDesign> plan;  // when a plan file was given
};

struct CheckReport {
  std::string fabric;
  CheckTargets targets;
  std::vector<LeafFigures> leaves;
  std::vector<SpineFigures> spines;
  std::vector<std::string> other_switches;  // neither leaf nor spine by their neighbours
  std::vector<CheckFinding> findings;       // problems first, then warnings, then info
  std::vector<std::string> notes;
  int problems() const;
  int warnings() const;
};

CheckReport check_fabric(const model::Fabric& fabric, const CheckTargets& targets);

}  // namespace netdoctor::plan
