// Simulator bundles for the fabric suites, made by the built `netdoctor sim` (engine tests do
// not link the simulator library), with the expected.json the simulator wrote beside them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace netdoctor::testing {

struct SimBundle {
  std::string path;
  nlohmann::json expected;  // null when the simulator failed (the test has failed too)
};

// `netdoctor sim <flags> --out <fresh temp dir>/bundle`; `flags` are whitespace-separated
// simulator options (they hold no spaces of their own).
SimBundle simulate(const std::string& tag, const std::string& flags);

}  // namespace netdoctor::testing
