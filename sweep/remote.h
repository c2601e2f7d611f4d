// Running the sweep's remote commands through the cluster's launcher: each command wrapped as
// `collect --hosts` wraps it (collect::on_host), with a timeout, a bound on how many run at
// once, and a failure text a person can act on.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "collect/fanout.h"

namespace netdoctor::sweep {

struct Remote {
  CommandRunner* runner = nullptr;
  collect::Launcher launcher = collect::Launcher::Ssh;
  std::string pdsh_rcmd;
  int parallel = 256;
  std::chrono::milliseconds timeout{20'000};
  const std::atomic<bool>* cancel = nullptr;

  std::vector<std::string> argv(const std::string& host,
                                const std::vector<std::string>& remote) const;
  CommandOptions options(std::chrono::milliseconds timeout_override = {}) const;
};

// One command's end as the sweep judges it: ok with its output, or why not.
struct RemoteResult {
  bool ok = false;
  bool unreachable = false;  // timed out, or the launcher could not reach the host
  std::string out;
  std::string why;  // for a person: "timed out after 20 s", "exit 255 (host unreachable)"
  double seconds = 0.0;
};
RemoteResult judge(const Result<CommandOutput>& output, std::chrono::milliseconds timeout);

// The commands' results in order, `parallel` at a time, and the wall time they modelled: the
// longest command, or their total over the pool's width when that is longer.
struct Batch {
  std::vector<RemoteResult> results;
  double seconds = 0.0;
};
Batch run_batch(const Remote& remote, const std::vector<std::vector<std::string>>& commands,
                std::chrono::milliseconds timeout_override = {});

// A remote command the sweep started: where, and its words (what `pkill -x -f` matches).
struct Started {
  std::string host;
  std::vector<std::string> words;
};
// After Ctrl-C cut them, ends the commands on their hosts with `pkill -TERM -x -f LINE`: the
// exact command line, so nothing but what the sweep started is touched, and the remote
// `timeout` wrapper passes the signal on to the test. Returns how many pkill runs were sent.
std::size_t stop_remote_commands(const Remote& remote, const std::vector<Started>& started);

}  // namespace netdoctor::sweep
