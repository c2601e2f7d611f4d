// Option checks for counts and sizes with messages a person can act on (CLI11's own range
// checks print "not in range 0.000000 to 1.79e308" for a 0).
#pragma once

#include <CLI/CLI.hpp>

namespace netdoctor::cli {

// A number greater than zero: "must be greater than 0 (got 0)".
CLI::Validator positive_number();

// A number of zero or more: "must not be negative (got -1)".
CLI::Validator non_negative_number();

}  // namespace netdoctor::cli
