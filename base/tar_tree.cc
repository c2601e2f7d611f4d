// TarTree: a tar archive (plain or compressed, detected by content) loaded into a MemTree in
// one streaming pass. Members are validated before anything is stored: escaping names are
// refused and reported, declared sizes are checked against the limits before any allocation,
// and the stream is never trusted to stop where its headers say.
#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <utility>

#include "base/file_tree.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

constexpr std::size_t k_read_block = 64 * 1024;

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveCloser>;

std::string archive_message(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown archive error";
}

// The member's name as stored (bytes kept as they are), without a leading "./".
std::string member_name(archive_entry* entry) {
  const char* raw = archive_entry_pathname(entry);
  if (raw == nullptr) {
    raw = archive_entry_pathname_utf8(entry);
  }
  std::string name = raw != nullptr ? raw : "";
  while (starts_with(name, "./")) {
    name.erase(0, 2);
  }
  while (!name.empty() && name.back() == '/') {
    name.pop_back();
  }
  return name;
}

bool escapes(std::string_view name) {
  if (starts_with(name, "/")) {
    return true;
  }
  for (std::string_view part : split(name, '/')) {
    if (part == "..") {
      return true;
    }
  }
  return false;
}

// A hard link names another member by its archive path; as a MemTree link it must be
// relative to the link's own directory.
std::string relative_target(std::string_view link_path, std::string_view target) {
  std::string up;
  for (char c : link_path) {
    if (c == '/') {
      up += "../";
    }
  }
  return up + std::string(target);
}

class TarLoader {
 public:
  TarLoader(std::string shown, TreeLimits limits, TarTreeReport* report)
      : m_shown(std::move(shown)), m_limits(limits), m_report(report) {}

  Result<std::unique_ptr<FileTree>> load(archive* a);

 private:
  void problem(ErrorCode code, std::string message, std::string_view member) {
    if (m_report != nullptr) {
      m_report->problems.push_back(
          make_error(code, std::move(message), fmt::format("{}:{}", m_shown, member)));
    }
  }
  Status take_member(archive* a, archive_entry* entry, MemTree& tree);
  Result<std::string> read_data(archive* a, std::string_view name, std::uint64_t declared);

  std::string m_shown;
  TreeLimits m_limits;
  TarTreeReport* m_report;
  std::uint64_t m_entries = 0;
  std::uint64_t m_declared_total = 0;
  std::uint64_t m_kept_total = 0;
};

Result<std::string> TarLoader::read_data(archive* a, std::string_view name,
                                         std::uint64_t declared) {
  // declared <= max_file_bytes here; more than declared is read in small steps, so a stream
  // that lies about its size cannot make us allocate beyond the limit.
  std::string content(static_cast<std::size_t>(declared), '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == content.size()) {
      char probe[4096];
      const la_ssize_t extra = archive_read_data(a, probe, sizeof(probe));
      if (extra < 0) {
        return make_error(ErrorCode::Io, archive_message(a), fmt::format("{}:{}", m_shown, name));
      }
      if (extra == 0) {
        break;
      }
      if (used + static_cast<std::size_t>(extra) > m_limits.max_file_bytes) {
        return make_error(ErrorCode::Refused,
                          fmt::format("member {} holds more than the {}-byte limit for one file",
                                      name, m_limits.max_file_bytes),
                          fmt::format("{}:{}", m_shown, name));
      }
      content.append(probe, static_cast<std::size_t>(extra));
      used = content.size();
      continue;
    }
    const la_ssize_t n = archive_read_data(a, content.data() + used, content.size() - used);
    if (n < 0) {
      return make_error(ErrorCode::Io, archive_message(a), fmt::format("{}:{}", m_shown, name));
    }
    if (n == 0) {
      break;
    }
    used += static_cast<std::size_t>(n);
  }
  content.resize(used);
  return content;
}

Status TarLoader::take_member(archive* a, archive_entry* entry, MemTree& tree) {
  const std::string name = member_name(entry);
  if (++m_entries > m_limits.max_entries) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive has more than {} members; stopped at {} (a tar bomb?)",
                                  m_limits.max_entries, name),
                      m_shown);
  }
  if (name.empty() || name == ".") {
    return {};
  }
  if (escapes(name)) {
    problem(
        ErrorCode::Refused,
        fmt::format("member {} is refused: its name leaves the archive (absolute or '..')", name),
        name);
    return {};
  }
  if (const char* hardlink = archive_entry_hardlink(entry); hardlink != nullptr) {
    std::string target = hardlink;
    while (starts_with(target, "./")) {
      target.erase(0, 2);
    }
    if (escapes(target)) {
      problem(ErrorCode::Refused,
              fmt::format("hard link {} -> {} is refused: it leaves the archive", name, target),
              name);
    } else {
      tree.add_symlink(name, relative_target(name, target));
    }
    return {};
  }
  const auto type = archive_entry_filetype(entry);
  if (type == AE_IFDIR) {
    tree.add_dir(name);
    return {};
  }
  if (type == AE_IFLNK) {
    const char* target = archive_entry_symlink(entry);
    tree.add_symlink(name, target != nullptr ? target : "");
    return {};
  }
  if (type != AE_IFREG) {
    return {};  // devices, FIFOs, sockets: nothing a capture needs
  }
  const std::uint64_t declared = archive_entry_size_is_set(entry) != 0
                                     ? static_cast<std::uint64_t>(archive_entry_size(entry))
                                     : 0;
  m_declared_total += declared;
  if (m_declared_total > m_limits.max_total_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive declares more than {} bytes of members; stopped at "
                                  "{} which declares {} bytes (a tar bomb?)",
                                  m_limits.max_total_bytes, name, declared),
                      m_shown);
  }
  if (declared > m_limits.max_file_bytes) {
    problem(ErrorCode::Refused,
            fmt::format("member {} is {} bytes, over the {}-byte limit for one file", name,
                        declared, m_limits.max_file_bytes),
            name);
    return {};  // its data is skipped by the next header read
  }
  auto content = read_data(a, name, declared);
  if (!content.ok()) {
    if (content.error().code == ErrorCode::Io) {
      return content.error();  // the stream itself is broken
    }
    problem(content.error().code, content.error().message, name);
    return {};
  }
  m_kept_total += content->size();
  if (m_kept_total > m_limits.max_total_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive holds more than {} bytes; stopped at {}",
                                  m_limits.max_total_bytes, name),
                      m_shown);
  }
  tree.add_file(name, std::move(content).value());
  return {};
}

Result<std::unique_ptr<FileTree>> TarLoader::load(archive* a) {
  auto tree = std::make_unique<MemTree>(fmt::format("archive {}", m_shown));
  tree->set_track_reads(false);
  tree->set_display_prefix(m_shown + ":");
  archive_entry* entry = nullptr;
  for (;;) {
    const int rc = archive_read_next_header(a, &entry);
    if (rc == ARCHIVE_EOF) {
      break;
    }
    if (rc == ARCHIVE_RETRY) {
      continue;
    }
    if (rc == ARCHIVE_FATAL) {
      if (m_entries == 0) {
        return make_error(ErrorCode::Unsupported,
                          fmt::format("not a readable tar archive: {}", archive_message(a)),
                          m_shown);
      }
      // A truncated archive: keep what came before, say where it broke.
      problem(ErrorCode::Io,
              fmt::format("archive is truncated or corrupt after {} members: {}", m_entries,
                          archive_message(a)),
              "");
      break;
    }
    // ARCHIVE_WARN (e.g. a name not valid in this locale) still gives a usable entry.
    if (Status taken = take_member(a, entry, *tree); !taken.ok()) {
      if (taken.error().code == ErrorCode::Io) {
        problem(ErrorCode::Io,
                fmt::format("archive is truncated or corrupt: {}", taken.error().message),
                member_name(entry));
        break;
      }
      return taken.error();
    }
  }
  return std::unique_ptr<FileTree>(std::move(tree));
}

ArchivePtr new_reader() {
  ArchivePtr a(archive_read_new());
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  return a;
}

}  // namespace

Result<std::unique_ptr<FileTree>> open_tar_tree(const std::string& path, TreeLimits limits,
                                                TarTreeReport* report) {
  ArchivePtr a = new_reader();
  if (archive_read_open_filename(a.get(), path.c_str(), k_read_block) != ARCHIVE_OK) {
    const int error = archive_errno(a.get());
    const ErrorCode code = error == ENOENT   ? ErrorCode::NotFound
                           : error == EACCES ? ErrorCode::PermissionDenied
                                             : ErrorCode::Unsupported;
    return make_error(code, archive_message(a.get()), path);
  }
  return TarLoader(path, limits, report).load(a.get());
}

Result<std::unique_ptr<FileTree>> open_tar_tree_from_memory(std::string_view data,
                                                            const std::string& name,
                                                            TreeLimits limits,
                                                            TarTreeReport* report) {
  ArchivePtr a = new_reader();
  if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) {
    return make_error(ErrorCode::Unsupported, archive_message(a.get()), name);
  }
  return TarLoader(name, limits, report).load(a.get());
}

}  // namespace netdoctor
