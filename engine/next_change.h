// Fills the kb's next-change and remediation templates from the culprit: {entity} {host}
// {nic} {device} {netdev} {port} {switch} {value} {fleet_normal} {unit} {roce_priority}
// {pfc_list} {qos_tool} {clock_tool} {signal}.
// A placeholder with nothing to fill stays visible as <name>.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/diagnosis.h"
#include "kb/catalog.h"
#include "model/fabric.h"

namespace netdoctor::engine {

using Placeholders = std::map<std::string, std::string>;

// The placeholders known for `entities[0]` (the culprit) with the fabric's help, and the
// deciding evidence item's figures.
Placeholders placeholders_for(const std::vector<std::string>& entities,
                              const std::vector<EvidenceItem>& evidence,
                              const model::Fabric& fabric, int roce_priority);

std::string fill_template(const std::string& text, const Placeholders& values);

NextChange make_next_change(const kb::NextChangeTemplate& change, const Placeholders& values);

}  // namespace netdoctor::engine
