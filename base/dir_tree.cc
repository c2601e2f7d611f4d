// DirTree: a directory on disk as a FileTree. Every open goes through the root's file
// descriptor with openat2(RESOLVE_BENEATH), so the kernel refuses any path or symbolic link
// that leaves the root (absolute links included); kernels without openat2 (< 5.6) get the same
// rule from a component-by-component walk.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <utility>

#include "base/file_tree.h"
#include "base/strings.h"

#ifndef SYS_openat2
#define SYS_openat2 437  // same number on every architecture since 5.6
#endif

namespace netdoctor {
namespace {

constexpr int k_max_link_depth = 40;

// A file descriptor closed on scope exit.
class Fd {
 public:
  explicit Fd(int fd = -1) : m_fd(fd) {}
  Fd(Fd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return m_fd; }
  bool valid() const { return m_fd >= 0; }
  int release() { return std::exchange(m_fd, -1); }

 private:
  void reset() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }
  int m_fd;
};

// Outcome of an open: an fd, or the errno and (for a link that leaves) a Refused reason.
struct OpenOutcome {
  Fd fd;
  int error = 0;
};

class DirTree final : public FileTree {
 public:
  DirTree(Fd root_fd, std::string root, TreeLimits limits, bool use_openat2, bool host_root)
      : m_root_fd(std::move(root_fd)),
        m_root(std::move(root)),
        m_limits(limits),
        m_use_openat2(use_openat2),
        m_host_root(host_root) {}

  Result<std::string> read(std::string_view path) const override;
  Result<std::vector<DirEntry>> list(std::string_view path) const override;
  std::string describe() const override { return fmt::format("directory {}", m_root); }
  std::string display_path(std::string_view path) const override {
    if (path.empty()) {
      return m_root;
    }
    return m_root == "/" ? fmt::format("/{}", path) : fmt::format("{}/{}", m_root, path);
  }

 private:
  OpenOutcome open_beneath(const std::string& path, int flags) const;
  OpenOutcome open_with_openat2(const std::string& path, int flags) const;
  OpenOutcome open_by_components(const std::string& path, int flags) const;
  Error error_for(int error, std::string_view path) const;
  DirEntry::Kind kind_through_link(const std::string& path) const;

  Fd m_root_fd;
  std::string m_root;
  TreeLimits m_limits;
  mutable std::atomic<bool> m_use_openat2;  // cleared once when the kernel says ENOSYS
  bool m_host_root;  // root is "/": nothing to leave, absolute links are fine
};

OpenOutcome DirTree::open_beneath(const std::string& path, int flags) const {
  if (m_use_openat2.load()) {
    OpenOutcome outcome = open_with_openat2(path, flags);
    if (outcome.error != ENOSYS) {
      return outcome;
    }
    m_use_openat2.store(false);
  }
  return open_by_components(path, flags);
}

OpenOutcome DirTree::open_with_openat2(const std::string& path, int flags) const {
  open_how how{};
  how.flags = static_cast<__u64>(static_cast<unsigned>(flags | O_CLOEXEC));
  how.resolve = static_cast<__u64>(RESOLVE_NO_MAGICLINKS) |
                (m_host_root ? __u64{0} : static_cast<__u64>(RESOLVE_BENEATH));
  const char* name = path.empty() ? "." : path.c_str();
  long fd = 0;
  do {
    fd = ::syscall(SYS_openat2, m_root_fd.get(), name, &how, sizeof(how));
  } while (fd < 0 && (errno == EINTR || errno == EAGAIN));
  if (fd < 0) {
    return {Fd{}, errno};
  }
  return {Fd{static_cast<int>(fd)}, 0};
}

// The fallback walk: each component is opened with O_NOFOLLOW from the verified directory
// before it; links are expanded by hand and refused when absolute or climbing above the root.
OpenOutcome DirTree::open_by_components(const std::string& path, int flags) const {
  std::deque<std::string> pending;
  for (std::string_view part : split(path, '/')) {
    pending.emplace_back(part);
  }
  std::vector<std::string> done;
  int links = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      if (done.empty() && !m_host_root) {
        return {Fd{}, EXDEV};
      }
      if (!done.empty()) {
        done.pop_back();
      }
      continue;
    }
    std::string candidate;
    for (const auto& d : done) {
      candidate += d + "/";
    }
    candidate += part;
    struct stat st {};
    if (::fstatat(m_root_fd.get(), candidate.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return {Fd{}, errno};
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > k_max_link_depth) {
        return {Fd{}, ELOOP};
      }
      std::string target(4096, '\0');
      const ssize_t n =
          ::readlinkat(m_root_fd.get(), candidate.c_str(), target.data(), target.size());
      if (n < 0) {
        return {Fd{}, errno};
      }
      target.resize(static_cast<std::size_t>(n));
      if (starts_with(target, "/")) {
        if (!m_host_root) {
          return {Fd{}, EXDEV};
        }
        done.clear();
      }
      const auto parts = split(target, '/');
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        pending.emplace_front(*it);
      }
      continue;
    }
    if (!pending.empty() && !S_ISDIR(st.st_mode)) {
      return {Fd{}, ENOTDIR};
    }
    done.push_back(std::move(part));
  }
  std::string resolved = ".";
  for (const auto& d : done) {
    resolved += "/" + d;
  }
  const int fd = ::openat(m_root_fd.get(), resolved.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    return {Fd{}, errno};
  }
  return {Fd{fd}, 0};
}

Error DirTree::error_for(int error, std::string_view path) const {
  const std::string where = display_path(path);
  switch (error) {
    case ENOENT:
    case ENOTDIR:
      return make_error(ErrorCode::NotFound, "no such file or directory", where);
    case EACCES:
    case EPERM:
      return make_error(ErrorCode::PermissionDenied, "permission denied", where);
    case EXDEV:
      return make_error(ErrorCode::Refused,
                        fmt::format("{} leaves the bundle: a symbolic link on it points outside "
                                    "{} (or is absolute)",
                                    where, m_root),
                        where);
    case ELOOP:
      return make_error(ErrorCode::Io, "too many levels of symbolic links", where);
    default:
      return make_error(ErrorCode::Io, std::strerror(error), where);
  }
}

Result<std::string> DirTree::read(std::string_view path) const {
  ND_TRY_ASSIGN(std::string relative, normalise_relative(path));
  OpenOutcome opened = open_beneath(relative, O_RDONLY | O_NOCTTY | O_NONBLOCK);
  if (!opened.fd.valid()) {
    return error_for(opened.error, relative);
  }
  struct stat st {};
  if (::fstat(opened.fd.get(), &st) != 0) {
    return error_for(errno, relative);
  }
  if (S_ISDIR(st.st_mode)) {
    return make_error(ErrorCode::InvalidArgument, "is a directory, not a file",
                      display_path(relative));
  }
  if (!S_ISREG(st.st_mode)) {
    // FIFOs and devices could block or never end; a capture holds only regular files.
    return make_error(ErrorCode::Refused, "not a regular file", display_path(relative));
  }
  const auto declared = static_cast<std::uint64_t>(st.st_size);
  if (declared > m_limits.max_file_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("{} is {} bytes, over the {}-byte limit for one file",
                                  display_path(relative), declared, m_limits.max_file_bytes),
                      display_path(relative));
  }
  // sysfs reports 4096 and procfs 0 whatever the content: read until EOF, bounded by the limit.
  // A regular file that gives exactly its declared size is taken as whole (one read, as cat).
  std::string data;
  data.resize(declared > 0 ? static_cast<std::size_t>(declared) + 1 : 4096);
  std::size_t used = 0;
  for (;;) {
    if (used == data.size()) {
      if (used > m_limits.max_file_bytes) {
        break;
      }
      data.resize(data.size() * 2);
    }
    const ssize_t n = ::read(opened.fd.get(), data.data() + used, data.size() - used);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return error_for(errno, relative);
    }
    used += static_cast<std::size_t>(n);
    if (n == 0 || (declared > 0 && used == declared)) {
      break;
    }
  }
  if (used > m_limits.max_file_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("{} grew over the {}-byte limit for one file",
                                  display_path(relative), m_limits.max_file_bytes),
                      display_path(relative));
  }
  data.resize(used);
  if (data.capacity() > used + used / 4 + 64) {
    data.shrink_to_fit();  // sysfs over-declares; callers keep many small strings
  }
  return data;
}

DirEntry::Kind DirTree::kind_through_link(const std::string& path) const {
  OpenOutcome opened = open_beneath(path, O_PATH);
  struct stat st {};
  if (!opened.fd.valid() || ::fstat(opened.fd.get(), &st) != 0) {
    return DirEntry::Kind::Other;  // dangling, looping or leaving: not something to descend
  }
  if (S_ISDIR(st.st_mode)) {
    return DirEntry::Kind::Dir;
  }
  return S_ISREG(st.st_mode) ? DirEntry::Kind::File : DirEntry::Kind::Other;
}

Result<std::vector<DirEntry>> DirTree::list(std::string_view path) const {
  ND_TRY_ASSIGN(std::string relative, normalise_relative(path));
  OpenOutcome opened = open_beneath(relative, O_RDONLY | O_DIRECTORY);
  if (!opened.fd.valid()) {
    return error_for(opened.error, relative);
  }
  DIR* dir = ::fdopendir(opened.fd.get());
  if (dir == nullptr) {
    return error_for(errno, relative);
  }
  opened.fd.release();  // owned by `dir` now
  std::vector<DirEntry> entries;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    DirEntry out{std::string(name), DirEntry::Kind::Other};
    unsigned char type = entry->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st {};
      if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        type = S_ISDIR(st.st_mode)   ? DT_DIR
               : S_ISREG(st.st_mode) ? DT_REG
               : S_ISLNK(st.st_mode) ? DT_LNK
                                     : DT_UNKNOWN;
      }
    }
    if (type == DT_DIR) {
      out.kind = DirEntry::Kind::Dir;
    } else if (type == DT_REG) {
      out.kind = DirEntry::Kind::File;
    } else if (type == DT_LNK) {
      out.kind = kind_through_link(relative.empty() ? out.name : relative + "/" + out.name);
    }
    entries.push_back(std::move(out));
    errno = 0;
  }
  const int read_error = errno;
  ::closedir(dir);
  if (read_error != 0) {
    return error_for(read_error, relative);
  }
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

Result<std::unique_ptr<FileTree>> open_dir_tree_impl(const std::string& root, TreeLimits limits,
                                                     bool use_openat2) {
  const int fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) {
      return make_error(ErrorCode::NotFound, "no such directory", root);
    }
    if (error == EACCES || error == EPERM) {
      return make_error(ErrorCode::PermissionDenied, "permission denied", root);
    }
    if (error == ENOTDIR) {
      return make_error(ErrorCode::InvalidArgument, "not a directory", root);
    }
    return make_error(ErrorCode::Io, std::strerror(error), root);
  }
  Fd root_fd(fd);
  struct stat st {};
  struct stat slash {};
  const bool host_root = ::fstat(fd, &st) == 0 && ::stat("/", &slash) == 0 &&
                         st.st_dev == slash.st_dev && st.st_ino == slash.st_ino;
  std::string shown = root;
  while (shown.size() > 1 && shown.back() == '/') {
    shown.pop_back();
  }
  return std::unique_ptr<FileTree>(
      std::make_unique<DirTree>(std::move(root_fd), shown, limits, use_openat2, host_root));
}

}  // namespace

Result<std::unique_ptr<FileTree>> open_dir_tree(const std::string& root, TreeLimits limits) {
  return open_dir_tree_impl(root, limits, true);
}

Result<std::unique_ptr<FileTree>> open_dir_tree_without_openat2(const std::string& root,
                                                                TreeLimits limits) {
  return open_dir_tree_impl(root, limits, false);
}

}  // namespace netdoctor
