// The fabric map as JSON, the form the incident store keeps it in (store: diagnosis_maps), so an
// incident exported later draws the fabric as it was diagnosed. Versioned: "netdoctor-map" v1.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "report/fabric_map.h"

namespace netdoctor::report {

nlohmann::json map_to_json(const FabricMap& map);
// Reads what map_to_json wrote; a missing or mistyped field is an error naming it.
Result<FabricMap> map_from_json(const nlohmann::json& json);

}  // namespace netdoctor::report
