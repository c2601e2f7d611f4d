// Shared helpers for the parser tests: the fixtures copied from the scenario bundles.
#pragma once

#include <string>

#include "tests/support/test_paths.h"

namespace netdoctor::testing {

// tests/parsers/data/<name>: scenario-format samples kept in the repo so tests run anywhere.
inline std::string parser_fixture(const std::string& name) {
  return read_text(source_dir() + "/tests/parsers/data/" + name);
}

}  // namespace netdoctor::testing

namespace netdoctor::testing {

// tests/fixtures/ib/<name>: real infiniband-diags outputs of an ibsim fabric (its README).
inline std::string ib_fixture(const std::string& name) {
  return read_text(source_dir() + "/tests/fixtures/ib/" + name);
}

}  // namespace netdoctor::testing

namespace netdoctor::testing {

// tests/fixtures/ibdiag/<name>: hand-written ibdiagnet outputs in the real formats (its README).
inline std::string ibdiag_fixture(const std::string& name) {
  return read_text(source_dir() + "/tests/fixtures/ibdiag/" + name);
}

}  // namespace netdoctor::testing
