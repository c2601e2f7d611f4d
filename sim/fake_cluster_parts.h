// What the fake cluster's own files (sim/fake_cluster*.cc) share: one remote command as it
// reaches a host, and the launchers' fixed costs and messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "sim/fake_cluster.h"
#include "sim/fake_cluster_argv.h"

namespace netdoctor::sim {

struct FakeCluster::Remote {
  fake::Launcher launcher = fake::Launcher::Ssh;
  const CommandOptions* options = nullptr;
  std::string command_line;          // the local argv, joined: what a Timeout names
  std::vector<std::string> targets;  // the launcher's hosts
  std::size_t host = 0;              // the host it runs on now
  std::vector<std::string> words;    // its argv, the timeout wrapper stripped
  std::optional<double> wrapper_s;   // that wrapper's T
  std::size_t tasks_per_node = 1;    // srun --ntasks-per-node
};

namespace fake {

// What starting a remote command costs on top of the command itself (ssh's handshake).
inline constexpr double k_launch_s = 0.2;

// A command that ended by itself with `code` after `seconds`.
CommandOutput exited(int code, std::string out, std::string err, double seconds);

// ssh's stderr for a host it cannot reach: "No route to host" (down) or an unknown name.
std::string ssh_failure(const std::string& host, bool down);

}  // namespace fake
}  // namespace netdoctor::sim
