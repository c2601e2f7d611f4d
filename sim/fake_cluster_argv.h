// The fake cluster's reading of command lines (sim/fake_cluster.h): the launcher wrapping
// (ssh, pdsh, srun), the POSIX shell words ssh and pdsh hand to the remote shell, the remote
// `timeout` wrapper, and the arguments of ib_write_bw, mpirun and nccl-tests. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace netdoctor::sim::fake {

enum class Launcher { Ssh, Pdsh, Srun };

struct Invocation {
  Launcher launcher = Launcher::Ssh;
  std::vector<std::string> hosts;  // ssh, pdsh: one; srun: the -w list (commas, no brackets)
  std::size_t tasks_per_node = 1;  // srun --ntasks-per-node
  std::vector<std::string> words;  // the remote argv, as the remote side runs it
};

// `ssh [-o OPT]... [--] HOST WORDS...` and `pdsh [-N] [-S] [-R RCMD] -w HOST WORDS...` (their
// words joined with spaces and split again as the remote shell does), `srun -w HOSTS [-N n]
// [-n n] [--ntasks-per-node=G] -- WORDS...` (words as they are). InvalidArgument for anything
// else, or quoting the shell would reject.
Result<Invocation> read_launcher(const std::vector<std::string>& argv);

// POSIX shell words: '...' literal, "..." with \" \\ \$ \` escapes, a backslash outside quotes
// escapes the next byte; blanks separate. InvalidArgument on an unterminated quote.
Result<std::vector<std::string>> shell_words(std::string_view text);

// Strips a leading `timeout [-k K] [-s SIG] T` from `words`: T in seconds (suffix s, m or h),
// nullopt when there is no such wrapper.
std::optional<double> strip_timeout(std::vector<std::string>& words);

struct PerftestArgs {
  std::string device;  // -d; empty: the first device, as perftest picks
  int ib_port = 1;     // -i
  int tcp_port = 18515;
  double seconds = 5.0;  // -D; perftest's iteration mode when absent (modelled as 5 s)
  bool duration_mode = false;
  bool report_gbits = false;
  std::optional<int> gid_index;  // -x
  std::string server;            // the trailing host: empty on the server side
};
// ib_write_bw's options (perftest's long and short forms the sweep uses; other flags are
// accepted and ignored). InvalidArgument on a value that is not a number.
Result<PerftestArgs> read_perftest(const std::vector<std::string>& words);

struct NcclArgs {
  std::string test;                                        // "all_reduce_perf", "alltoall_perf"
  std::vector<std::pair<std::string, std::size_t>> hosts;  // host, ranks on it
  std::uint64_t min_bytes = 1ull << 30;                    // -b
  std::uint64_t max_bytes = 1ull << 30;                    // -e
  std::uint64_t factor = 2;                                // -f
};
bool is_nccl_test(std::string_view program);
// The test's own options (-b -e -f; others ignored) from `words` starting at the test name.
Result<NcclArgs> read_nccl_test(const std::vector<std::string>& words);
// `mpirun --host H1:G,H2:G,... -np K TEST ...`: the hosts and ranks (K ranks filled host by
// host, G each), then the test's options.
Result<NcclArgs> read_mpirun(const std::vector<std::string>& words);
// "1G" -> 1073741824, "128M", "8K", "8" (nccl-tests' -b/-e sizes).
std::optional<std::uint64_t> parse_size(std::string_view text);

}  // namespace netdoctor::sim::fake
