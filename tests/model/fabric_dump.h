// Everything a loaded Fabric holds, as JSON, so two loads can be compared whole: every field of
// every host, NIC (with each counter sample's values), switch, port, perftest run and problem,
// and every SourceMap entry with its detail.
#pragma once

#include <nlohmann/json.hpp>

#include "model/fabric.h"

namespace netdoctor::testing {

nlohmann::json fabric_dump(const model::Fabric& fabric);

}  // namespace netdoctor::testing
