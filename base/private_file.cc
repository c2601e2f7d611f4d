#include "base/private_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace netdoctor {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return m_fd; }

 private:
  int m_fd;
};

}  // namespace

Result<std::string> read_private_file(const std::string& path, std::uint64_t max_bytes) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    const int err = errno;
    if (err == ENOENT) {
      return make_error(ErrorCode::NotFound, "no such file", path);
    }
    if (err == EACCES) {
      return make_error(ErrorCode::PermissionDenied, "permission denied", path);
    }
    if (err == ELOOP) {
      return make_error(ErrorCode::Refused, "is a symbolic link; name the file itself", path);
    }
    return make_error(ErrorCode::Io, std::strerror(err), path);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return make_error(ErrorCode::Io, std::strerror(errno), path);
  }
  if (!S_ISREG(st.st_mode)) {
    return make_error(ErrorCode::Refused, "not a regular file", path);
  }
  if (st.st_uid != ::geteuid()) {
    return make_error(ErrorCode::Refused, "owned by another user; a secret must be yours", path);
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return make_error(
        ErrorCode::Refused,
        fmt::format("mode {:04o} lets others read it; run chmod 600", st.st_mode & 07777), path);
  }
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return make_error(ErrorCode::Refused, fmt::format("larger than {} bytes", max_bytes), path);
  }
  std::string content;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(ErrorCode::Io, std::strerror(errno), path);
    }
    if (got == 0) {
      break;
    }
    content.append(buffer, static_cast<std::size_t>(got));
    if (content.size() > max_bytes) {
      return make_error(ErrorCode::Refused, fmt::format("larger than {} bytes", max_bytes), path);
    }
  }
  return content;
}

}  // namespace netdoctor
