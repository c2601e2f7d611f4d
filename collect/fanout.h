// `collect --hosts LIST --via ssh|pdsh|srun`: runs `netdoctor collect --out - --base64` on each
// host through a launcher, a bounded number at a time, and merges what comes back into one
// bundle. A host that fails (unreachable, timeout, no netdoctor there, garbage back) is
// reported and the others go on.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor::collect {

enum class Launcher { Ssh, Pdsh, Srun };

// "ssh", "pdsh", "srun"; InvalidArgument otherwise.
Result<Launcher> parse_launcher(std::string_view name);
std::string launcher_program(Launcher launcher);

struct FanoutOptions {
  Launcher launcher = Launcher::Ssh;
  int parallel = 16;
  // The remote program; its first word is looked up on the remote PATH.
  std::vector<std::string> remote_command = {"netdoctor"};
  // Added after `collect --out - --base64 --host HOST`; "%h" becomes the host name.
  std::vector<std::string> collect_args;
  std::string pdsh_rcmd;  // pdsh -R module ("ssh", "exec"); empty: pdsh's default
  std::chrono::milliseconds timeout{300'000};
  // InfiniBand fabric views (fabric/<sample>/) are merged from this host's capture only; every
  // other host's collect gets --no-fabric, so the subnet is swept once, not once per host.
  // Empty: each host collects as it would alone and no fabric views are merged.
  std::string fabric_host;
  std::vector<std::string> fabric_host_args;  // added for fabric_host only ("--fabric")
  // Hosts unpacked and recompressed at once into an archive bundle; 0: one per core.
  int merge_threads = 0;
  // gzip level of each host's piece of an archive bundle. 1, the fastest (ISA-L where the
  // build has it): a host's 1.9 MiB capture recompresses in 0.9 ms instead of zlib level 6's
  // 9 ms, for a bundle about 1.25x larger; the merge, not the bundle's size, is what a person
  // waits for during an incident.
  int compression_level = 1;
};

// The number of hosts unpacked and recompressed at once.
std::size_t merge_threads(const FanoutOptions& options);

// The command run on the host (before launcher quoting).
std::vector<std::string> remote_argv(const FanoutOptions& options, const std::string& host);
// `remote` run on `host` through the launcher: ssh -o BatchMode=yes ... HOST 'w' 'w' (one
// shell-quoted string: ssh hands it to the remote shell), pdsh -N -S -w HOST 'w' ..., or
// srun -w HOST -N1 -n1 -- w ... (exec'd as is).
std::vector<std::string> on_host(Launcher launcher, const std::string& pdsh_rcmd,
                                 const std::string& host, const std::vector<std::string>& remote);
// The local argument vector of a host's collect: on_host() of remote_argv().
std::vector<std::string> launcher_argv(const FanoutOptions& options, const std::string& host);

// The last line of a launcher's output that says something: pdsh's own "pdsh@h: h2: X exited
// with exit code 1" follows the remote's real complaint, so its lines count only when nothing
// else was said.
std::string last_line(std::string_view text);

struct HostOutcome {
  std::string host;
  bool ok = false;
  std::string error;     // why it failed, for a person
  double seconds = 0.0;  // the launcher run's wall time (a hang's: the timeout)
  std::size_t files = 0;
};

using ProgressSink =
    std::function<void(const HostOutcome& outcome, std::size_t done, std::size_t total)>;

// Outcomes in host-list order. `runner` must be thread-safe when parallel > 1 (the live one
// is). Each host's capture is merged as soon as it is back and then released: at most
// `parallel` hosts' outputs are held at once, whatever the number of hosts. Into an archive
// writer (takes_pieces()) each host becomes a piece compressed on its own thread and appended;
// into any other writer its files are written one host at a time. `progress` is called once per
// host as it is merged (or fails), in the order they finish, one call at a time.
std::vector<HostOutcome> fan_out(const std::vector<std::string>& hosts,
                                 const FanoutOptions& options, CommandRunner& runner,
                                 TreeWriter& out, const ProgressSink& progress);

// One host's launcher run turned into files in `out` (exposed for tests); `with_fabric` also
// merges the capture's fabric/ (the fabric host's).
HostOutcome merge_launcher_output(const std::string& host, const Result<CommandOutput>& run,
                                  TreeWriter& out, bool with_fabric = false);

}  // namespace netdoctor::collect
