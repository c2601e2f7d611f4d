// Recognising tar archives by name and by their first bytes.
#include <fcntl.h>
#include <unistd.h>

#include <array>

#include "base/file_tree.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

constexpr std::array<std::string_view, 8> k_archive_suffixes = {
    ".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz", ".txz", ".tbz2", ".tar"};

constexpr std::size_t k_ustar_magic_offset = 257;

}  // namespace

bool has_archive_suffix(std::string_view name) {
  const std::string lower = to_lower(name);
  for (std::string_view suffix : k_archive_suffixes) {
    if (ends_with(lower, suffix) && lower.size() > suffix.size()) {
      return true;
    }
  }
  return false;
}

std::string strip_archive_suffix(std::string_view name) {
  const std::string lower = to_lower(name);
  for (std::string_view suffix : k_archive_suffixes) {
    if (ends_with(lower, suffix) && lower.size() > suffix.size()) {
      return std::string(name.substr(0, name.size() - suffix.size()));
    }
  }
  return std::string(name);
}

bool has_archive_magic(std::string_view head) {
  if (starts_with(head, "\x1f\x8b") || starts_with(head, "BZh") ||
      starts_with(head, std::string_view("\xfd"
                                         "7zXZ\0",
                                         6)) ||
      starts_with(head, "\x28\xb5\x2f\xfd")) {
    return true;
  }
  return head.size() >= k_ustar_magic_offset + 5 && head.substr(k_ustar_magic_offset, 5) == "ustar";
}

bool looks_like_archive(const std::string& path) {
  if (has_archive_suffix(path)) {
    return true;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return false;
  }
  std::array<char, 512> head{};
  const ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  return n > 0 && has_archive_magic(std::string_view(head.data(), static_cast<std::size_t>(n)));
}

}  // namespace netdoctor
