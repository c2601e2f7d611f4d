// `ssh`, `pdsh` and `srun` for end-to-end tests of `netdoctor sweep`: installed under those
// names on the PATH the test gives netdoctor, it hands its argv (argv[0] its own base name) to
// the FakeCluster the test serves at $NETDOCTOR_FAKE_CLUSTER_SOCKET
// (tests/support/fake_launcher_protocol.h), prints the answer's stdout and stderr and ends as
// the answer says: its exit code, its signal, or never (a hung host: until it is killed).
// Without the socket it fails as ssh does when it cannot connect: exit 255 and a message.
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/support/fake_launcher_protocol.h"

namespace {

namespace wire = netdoctor::testing::fake_launcher;

constexpr int k_launcher_failure = 255;

void write_fd(int fd, const std::string& text) {
  wire::move_all(text.size(), [&](std::size_t done) {
    return ::write(fd, text.data() + done, text.size() - done);
  });
}

int fail(const std::string& name, const std::string& why) {
  write_fd(STDERR_FILENO, name + ": fake cluster: " + why + "\n");
  return k_launcher_failure;
}

int connect_to(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return -1;
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> words(argv, argv + argc);
  if (words.empty()) {
    return k_launcher_failure;
  }
  const std::size_t slash = words[0].rfind('/');
  if (slash != std::string::npos) {
    words[0] = words[0].substr(slash + 1);
  }
  const std::string& name = words[0];
  const char* socket_path = std::getenv(wire::k_socket_env);
  if (socket_path == nullptr || *socket_path == '\0') {
    return fail(name, std::string(wire::k_socket_env) + " is not set");
  }
  const int fd = connect_to(socket_path);
  if (fd < 0) {
    return fail(name,
                std::string("cannot connect to ") + socket_path + ": " + std::strerror(errno));
  }
  wire::Reply reply;
  if (!wire::write_request(fd, words) || !wire::read_reply(fd, reply)) {
    ::close(fd);
    return fail(name, "the connection was lost before the answer");
  }
  ::close(fd);
  if (reply.hang) {
    for (;;) {
      ::pause();  // the command never ends: whoever started it kills it
    }
  }
  write_fd(STDOUT_FILENO, reply.out);
  write_fd(STDERR_FILENO, reply.err);
  if (reply.signal != 0) {
    ::signal(reply.signal, SIG_DFL);
    ::raise(reply.signal);
  }
  return reply.exit_code < 0 ? k_launcher_failure : reply.exit_code;
}
