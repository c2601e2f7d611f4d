#include "collect/fanout_limits.h"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>

namespace netdoctor::collect {

ParallelFit fit_parallel(int requested, std::uint64_t open_files) {
  ParallelFit fit;
  fit.parallel = std::max(requested, 1);
  const std::uint64_t room = open_files > k_descriptors_reserved
                                 ? (open_files - k_descriptors_reserved) / k_descriptors_per_host
                                 : 0;
  const auto most = static_cast<int>(std::clamp<std::uint64_t>(room, 1, 1u << 20));
  if (fit.parallel > most) {
    fit.note = fmt::format(
        "--parallel {} lowered to {}: the open-file limit (ulimit -n) is {} and each host in "
        "flight needs {} descriptors; raise the limit to run more at once",
        fit.parallel, most, open_files, k_descriptors_per_host);
    fit.parallel = most;
  }
  return fit;
}

std::uint64_t raise_open_files_limit(std::uint64_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return 1024;  // the usual default: fit_parallel() then errs on the safe side
  }
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
    rlimit raised = limit;
    raised.rlim_cur =
        limit.rlim_max == RLIM_INFINITY ? wanted : std::min<rlim_t>(limit.rlim_max, wanted);
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) {
      limit = raised;
    }
  }
  return limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : static_cast<std::uint64_t>(limit.rlim_cur);
}

void tune_allocator_for_fanout(int arenas) {
  (void)::mallopt(M_ARENA_MAX, std::max(arenas, 1));
  (void)::mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

}  // namespace netdoctor::collect
