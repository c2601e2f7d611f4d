// A simulator bundle diagnosed for the symptom the simulator wrote in its expected.json, as the
// fabric suites that read one diagnosis closely (onsets, counter clears) need it.
#pragma once

#include <string>

#include "engine/pipeline.h"
#include "tests/fabrics/sim_bundle.h"

namespace netdoctor::testing {

inline Result<engine::Diagnosis> diagnose_sim(const SimBundle& bundle) {
  engine::DiagnoseOptions options;
  options.symptom = bundle.expected.at("symptom").get<std::string>();
  return engine::diagnose_bundle(bundle.path, options);
}

}  // namespace netdoctor::testing
