// Renderers for the plan command: text for people (fmt), JSON for tools (nlohmann::json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "plan/fabric_sizing.h"
#include "plan/plan_check.h"
#include "plan/traffic_budget.h"

namespace netdoctor::plan {

std::string render_fabric_text(const FabricDesign& design, const GrowthStep& growth);
nlohmann::json fabric_to_json(const FabricDesign& design, const GrowthStep& growth);

std::string render_traffic_text(const TrafficBudget& budget);
nlohmann::json traffic_to_json(const TrafficBudget& budget);

std::string render_check_text(const CheckReport& report);
nlohmann::json check_to_json(const CheckReport& report);

}  // namespace netdoctor::plan
