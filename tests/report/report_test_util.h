// Helpers of the report suite: maps of the hand-built fabrics, a PFC storm injected the way the
// probe tests inject it, and lookups into a built map.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/diagnosis.h"
#include "report/fabric_map.h"
#include "tests/probes/fabric_builder.h"

namespace netdoctor::testing {

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++n;
  }
  return n;
}

// A diagnosis whose causes are given by hand: id and entities.
inline engine::Diagnosis diagnosis_of(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& causes) {
  engine::Diagnosis diagnosis;
  diagnosis.symptom = "slowdown";
  for (const auto& [id, entities] : causes) {
    engine::RankedCause cause;
    cause.id = id;
    cause.title = id;
    cause.confidence = 0.9;
    cause.entities = entities;
    diagnosis.causes.push_back(cause);
  }
  return diagnosis;
}

inline report::FabricMap map_of(const model::Fabric& fabric, const engine::Diagnosis& diagnosis) {
  auto map = report::build_fabric_map(fabric, diagnosis, report::MapOptions{});
  EXPECT_TRUE(map.ok()) << (map.ok() ? "" : map.error().describe());
  return map.ok() ? std::move(map).value() : report::FabricMap{};
}

// The metric's position, or metrics.size() when the map does not list it.
inline std::size_t metric_index(const report::FabricMap& map, const std::string& id) {
  for (std::size_t m = 0; m < map.metrics.size(); ++m) {
    if (map.metrics[m].id == id) {
      return m;
    }
  }
  return map.metrics.size();
}

inline const report::MapCell* cell_named(const report::FabricMap& map, const std::string& entity) {
  for (const report::MapCell* cell : report::all_cells(map)) {
    if (cell->entity == entity) {
      return cell;
    }
  }
  return nullptr;
}

}  // namespace netdoctor::testing
