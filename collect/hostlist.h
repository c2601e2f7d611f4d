// Host lists as Slurm and ClusterShell write them: "node[01-32],gpu-a[001-128]",
// "rack[1-2]-node[01-03]", "n[1,3,5-7]", "n[1-9/2]". Expansion keeps the order written (the
// first bracket group varies slowest) and drops repeats.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::collect {

// A guard against "n[1-99999999]" typos: more hosts than this is InvalidArgument.
constexpr std::size_t k_max_hosts = 1'000'000;

// InvalidArgument for unbalanced or nested brackets, a reversed or non-numeric range, an empty
// name, or characters a host name cannot hold (ClusterShell's "@group" and "!" operators are
// not supported and are refused rather than taken literally).
Result<std::vector<std::string>> expand_hostlist(std::string_view list);

}  // namespace netdoctor::collect
