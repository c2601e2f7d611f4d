// The nccl-tests half of the sweep (docs/sweep.md, collectives): all_reduce_perf and
// alltoall_perf over every host, then, for a test below its expected bus bandwidth, halving
// groups following the slow half, so a node slow only in collectives is found in O(log N)
// rounds. A group of two or three is split by pairing each member with a host known good.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sweep/sweep_state.h"

namespace netdoctor::sweep {

struct CollectiveFindings {
  std::vector<SlowEntity> slow_hosts;
  bool ran = false;         // at least one group completed
  bool unresolved = false;  // a slow group the halving could not place
};

// `hosts` in the order to halve (leaf-contiguous halves keep the fabric between them);
// `host_gbps` the sum of each host's tested line rates.
CollectiveFindings collective_search(SweepState& state, const std::vector<std::string>& hosts,
                                     const std::map<std::string, double>& host_gbps);

// The words run on the first host of a group under ssh or pdsh:
// timeout -k 5 T mpirun --host H1:G,H2:G -np N*G TEST -b 1G -e 1G -f 2 -g 1.
std::vector<std::string> mpirun_words(const std::vector<std::string>& hosts,
                                      const std::string& test, int gpus_per_host,
                                      std::chrono::seconds timeout);
// The local argv of one nccl-tests run over `hosts` (ssh/pdsh: mpirun on the first host;
// srun: one job step over all of them).
std::vector<std::string> nccl_argv(const Remote& remote, const std::vector<std::string>& hosts,
                                   const std::string& test, int gpus_per_host,
                                   std::chrono::seconds timeout);

}  // namespace netdoctor::sweep
