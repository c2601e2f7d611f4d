#include "tests/support/fake_cluster_server.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "tests/support/fake_launcher_protocol.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

namespace fs = std::filesystem;
namespace wire = fake_launcher;

constexpr int k_accept_tick_ms = 100;        // how soon the acceptor sees it should stop
constexpr timeval k_request_timeout{10, 0};  // a connection that sends nothing is dropped

wire::Reply reply_of(const Result<CommandOutput>& output) {
  wire::Reply reply;
  if (output.ok()) {
    reply.exit_code = output->exit_code;
    reply.signal = output->signal;
    reply.out = output->out;
    reply.err = output->err;
  } else if (output.error().code == ErrorCode::Timeout) {
    reply.hang = true;
  } else {
    reply.exit_code = 255;
    reply.err = "fake cluster: " + output.error().describe() + "\n";
  }
  return reply;
}

}  // namespace

FakeClusterServer::FakeClusterServer(sim::FakeCluster& cluster) : m_cluster(cluster) {
  const std::string dir = make_temp_dir("fake-cluster");
  m_bin_dir = dir + "/bin";
  fs::create_directories(m_bin_dir);
  for (const char* name : {"ssh", "pdsh", "srun"}) {
    fs::create_symlink(NETDOCTOR_FAKE_LAUNCHER, m_bin_dir + "/" + name);
  }
  m_socket_path = dir + "/cluster.sock";
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (m_socket_path.size() >= sizeof(address.sun_path)) {
    ADD_FAILURE() << "socket path too long for AF_UNIX: " << m_socket_path;
    return;
  }
  std::memcpy(address.sun_path, m_socket_path.c_str(), m_socket_path.size() + 1);
  m_listen_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_listen_fd < 0 ||
      ::bind(m_listen_fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(m_listen_fd, 256) != 0) {
    ADD_FAILURE() << "cannot serve the fake cluster at " << m_socket_path << ": "
                  << std::strerror(errno);
    if (m_listen_fd >= 0) {
      ::close(m_listen_fd);
      m_listen_fd = -1;
    }
    return;
  }
  m_acceptor = std::thread([this] { accept_loop(); });
}

FakeClusterServer::~FakeClusterServer() {
  m_stop.store(true);
  if (m_acceptor.joinable()) {
    m_acceptor.join();
  }
  std::vector<std::thread> connections;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    connections.swap(m_connections);
  }
  for (std::thread& connection : connections) {
    connection.join();
  }
  if (m_listen_fd >= 0) {
    ::close(m_listen_fd);
  }
}

std::vector<std::pair<std::string, std::string>> FakeClusterServer::environment() const {
  return {{"PATH", m_bin_dir + ":/usr/bin:/bin:/usr/sbin:/sbin"},
          {wire::k_socket_env, m_socket_path}};
}

std::vector<std::vector<std::string>> FakeClusterServer::requests() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_requests;
}

void FakeClusterServer::accept_loop() {
  while (!m_stop.load()) {
    pollfd listening{m_listen_fd, POLLIN, 0};
    if (::poll(&listening, 1, k_accept_tick_ms) <= 0) {
      continue;
    }
    const int fd = ::accept4(m_listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      continue;
    }
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &k_request_timeout, sizeof(k_request_timeout));
    std::lock_guard<std::mutex> lock(m_mutex);
    m_connections.emplace_back([this, fd] { serve(fd); });
  }
}

void FakeClusterServer::serve(int fd) {
  std::vector<std::string> argv;
  if (wire::read_request(fd, argv)) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_requests.push_back(argv);
    }
    CommandOptions options;
    options.timeout = std::chrono::hours(1);
    // The launcher may be gone by now (killed at Ctrl-C): its answer is then dropped.
    wire::write_reply(fd, reply_of(m_cluster.run(argv, options)));
  }
  ::close(fd);
}

}  // namespace netdoctor::testing
