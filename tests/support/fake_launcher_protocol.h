// The wire between a fake launcher process (`ssh`, `pdsh` or `srun` on a test's PATH:
// tests/support/fake_launcher_main.cc) and the FakeCluster its test serves
// (tests/support/fake_cluster_server.h), over a UNIX stream socket, one command a connection.
// Request: u32 argc, then argc x (u32 length, bytes), argv[0] the launcher's name ("ssh").
// Reply: i32 exit code, i32 signal (0: none), u8 hang (1: the command never ends; the launcher
// waits until it is killed), then stdout and stderr, each u32 length and bytes. Integers in the
// machine's own byte order: both ends run on one host. Header-only so the launcher links
// nothing of netdoctor's.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

namespace netdoctor::testing::fake_launcher {

// The environment variable naming the socket the launcher connects to.
inline constexpr const char* k_socket_env = "NETDOCTOR_FAKE_CLUSTER_SOCKET";
// The most bytes one string on the wire may hold (a bound against a garbled length).
inline constexpr std::uint32_t k_max_string = 64u << 20;
inline constexpr std::uint32_t k_max_argc = 4096;

struct Reply {
  std::int32_t exit_code = 0;
  std::int32_t signal = 0;
  bool hang = false;
  std::string out;
  std::string err;
};

// Repeats `step(done)` (a read or write of the rest from offset `done`, returning its ssize_t)
// until `size` bytes moved; false at an error or the end of the stream.
template <typename Step>
bool move_all(std::size_t size, Step step) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = step(done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Whole buffers to a socket, or false (the peer went away); never raises SIGPIPE.
inline bool write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  return move_all(
      size, [&](std::size_t done) { return ::send(fd, bytes + done, size - done, MSG_NOSIGNAL); });
}

// Whole buffers from a socket or pipe, or false (end of stream or an error).
inline bool read_all(int fd, void* data, std::size_t size) {
  auto* bytes = static_cast<char*>(data);
  return move_all(size, [&](std::size_t done) { return ::read(fd, bytes + done, size - done); });
}

template <typename T>
bool write_value(int fd, T value) {
  return write_all(fd, &value, sizeof(value));
}

template <typename T>
bool read_value(int fd, T& value) {
  return read_all(fd, &value, sizeof(value));
}

inline bool write_string(int fd, const std::string& text) {
  return write_value(fd, static_cast<std::uint32_t>(text.size())) &&
         write_all(fd, text.data(), text.size());
}

inline bool read_string(int fd, std::string& text) {
  std::uint32_t size = 0;
  if (!read_value(fd, size) || size > k_max_string) {
    return false;
  }
  text.assign(size, '\0');
  return read_all(fd, text.data(), size);
}

inline bool write_request(int fd, const std::vector<std::string>& argv) {
  if (!write_value(fd, static_cast<std::uint32_t>(argv.size()))) {
    return false;
  }
  for (const std::string& word : argv) {
    if (!write_string(fd, word)) {
      return false;
    }
  }
  return true;
}

inline bool read_request(int fd, std::vector<std::string>& argv) {
  std::uint32_t argc = 0;
  if (!read_value(fd, argc) || argc == 0 || argc > k_max_argc) {
    return false;
  }
  argv.assign(argc, std::string{});
  for (std::string& word : argv) {
    if (!read_string(fd, word)) {
      return false;
    }
  }
  return true;
}

inline bool write_reply(int fd, const Reply& reply) {
  return write_value(fd, reply.exit_code) && write_value(fd, reply.signal) &&
         write_value(fd, static_cast<std::uint8_t>(reply.hang ? 1 : 0)) &&
         write_string(fd, reply.out) && write_string(fd, reply.err);
}

inline bool read_reply(int fd, Reply& reply) {
  std::uint8_t hang = 0;
  const bool ok = read_value(fd, reply.exit_code) && read_value(fd, reply.signal) &&
                  read_value(fd, hang) && read_string(fd, reply.out) && read_string(fd, reply.err);
  reply.hang = hang != 0;
  return ok;
}

}  // namespace netdoctor::testing::fake_launcher
