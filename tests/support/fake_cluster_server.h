// One FakeCluster (sim/fake_cluster.h) shared by many processes: the test serves it on a UNIX
// socket and the real `netdoctor` runs the fake launchers (tests/support/fake_launcher_main.cc)
// found first on its PATH, each of which forwards its argv here. Both sides of a perftest pair
// are separate launcher processes that meet in this one cluster, and counters move between
// reads, as on a real cluster.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/fake_cluster.h"

namespace netdoctor::testing {

class FakeClusterServer {
 public:
  // Serves `cluster` (which must outlive the server) at a socket in a fresh temp dir, a thread
  // for each connection (a perftest server's run blocks until its client arrives). Each command
  // runs with an hour's timeout: the remote `timeout` wrappers the fake models end the tests,
  // and a command the fake says never ends makes the launcher wait until it is killed.
  explicit FakeClusterServer(sim::FakeCluster& cluster);
  // Stops accepting and joins every connection (a run still in progress finishes first).
  ~FakeClusterServer();
  FakeClusterServer(const FakeClusterServer&) = delete;
  FakeClusterServer& operator=(const FakeClusterServer&) = delete;

  // False when the socket could not be made (a test failure was added).
  bool ok() const { return m_listen_fd >= 0; }
  const std::string& socket_path() const { return m_socket_path; }
  // A directory holding `ssh`, `pdsh` and `srun` (the fake launcher), to put first on PATH.
  const std::string& bin_dir() const { return m_bin_dir; }
  // The environment netdoctor needs to reach this cluster: PATH (bin_dir() first) and the
  // socket variable; for RunOptions::env.
  std::vector<std::pair<std::string, std::string>> environment() const;
  // Every launcher argv received so far, in arrival order.
  std::vector<std::vector<std::string>> requests() const;

 private:
  void accept_loop();
  void serve(int fd);

  sim::FakeCluster& m_cluster;
  std::string m_socket_path;
  std::string m_bin_dir;
  int m_listen_fd = -1;
  std::atomic<bool> m_stop{false};
  mutable std::mutex m_mutex;
  std::vector<std::vector<std::string>> m_requests;
  std::vector<std::thread> m_connections;
  std::thread m_acceptor;
};

}  // namespace netdoctor::testing
