// How diagnose --prometheus splits a large fabric into bounded queries: the machines found first
// (label values), then one query per group of them, the group named by a regex of its exact label
// values, so that an answer's size grows with the group, never with the cluster.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace netdoctor::remote {

// The values in groups of at most `size` (at least 1), in order; every value in exactly one.
std::vector<std::vector<std::string>> group_values(const std::vector<std::string>& values,
                                                   std::size_t size);

// A PromQL matcher selecting exactly these label values: label=~"a|b\\.c" (each value's regex
// punctuation escaped, then the string escaped as PromQL reads a double-quoted literal).
std::string exact_values_matcher(const std::string& label, const std::vector<std::string>& values);

}  // namespace netdoctor::remote
