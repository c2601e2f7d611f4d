// MemTree: the in-memory FileTree behind tests and tar archives.
#include <fmt/format.h>

#include <utility>

#include "base/file_tree.h"
#include "base/strings.h"
#include "base/tree_path.h"

namespace netdoctor {
MemTree::MemTree(std::string name) : m_name(std::move(name)) {}

void MemTree::add_parents(std::string_view path) {
  for (std::string_view dir = parent_dir(path); !dir.empty(); dir = parent_dir(dir)) {
    auto [it, inserted] = m_files.try_emplace(std::string(dir), Node{NodeKind::Dir, {}});
    if (!inserted) {
      return;  // its own parents were added with it
    }
  }
}

void MemTree::put(std::string path, Node node) {
  auto normalised = normalise_relative(path);
  if (!normalised.ok() || normalised->empty()) {
    return;  // nothing above or at the root can be stored
  }
  add_parents(*normalised);
  auto [it, inserted] = m_files.try_emplace(std::move(normalised).value(), Node{});
  const bool was_file =
      !inserted && it->second.kind != NodeKind::Dir && it->second.kind != NodeKind::Link;
  const bool is_file = node.kind != NodeKind::Dir && node.kind != NodeKind::Link;
  if (!inserted && it->second.kind == NodeKind::Dir && node.kind == NodeKind::Dir) {
    return;
  }
  if (was_file && !is_file) {
    --m_file_count;
  } else if (is_file && (inserted || !was_file)) {
    ++m_file_count;
  }
  it->second = std::move(node);
}

void MemTree::add_file(std::string path, std::string content) {
  put(std::move(path), Node{NodeKind::File, std::move(content)});
}

void MemTree::add_dir(std::string path) {
  put(std::move(path), Node{NodeKind::Dir, {}});
}

void MemTree::add_symlink(std::string path, std::string target) {
  put(std::move(path), Node{NodeKind::Link, std::move(target)});
}

void MemTree::add_error(std::string path, Error error) {
  auto normalised = normalise_relative(path);
  if (!normalised.ok()) {
    return;
  }
  if (m_files.find(*normalised) == m_files.end()) {
    put(*normalised, Node{NodeKind::Error, {}});
  }
  m_errors.insert_or_assign(std::move(normalised).value(), std::move(error));
}

Result<std::string> MemTree::resolve(std::string_view path, int depth) const {
  ND_TRY_ASSIGN(std::string normalised, normalise_relative(path));
  std::string resolved;
  const auto parts = split(normalised, '/');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) {
      continue;
    }
    std::string candidate = join_relative(resolved, parts[i]);
    const auto it = m_files.find(candidate);
    if (it == m_files.end()) {
      return make_error(ErrorCode::NotFound, "no such file or directory", display_path(path));
    }
    const Node& node = it->second;
    if (node.kind == NodeKind::Link) {
      if (depth >= k_max_symlink_depth) {
        return make_error(ErrorCode::Io, "too many levels of symbolic links", display_path(path));
      }
      if (starts_with(node.data, "/")) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: {} is an absolute symbolic link to {}",
                                      path, candidate, node.data),
                          display_path(path));
      }
      std::string rest;
      for (std::size_t j = i + 1; j < parts.size(); ++j) {
        rest = join_relative(rest, parts[j]);
      }
      const std::string through_link = join_relative(join_relative(resolved, node.data), rest);
      auto next = normalise_relative(through_link);
      if (!next.ok()) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: symbolic link {} points to {}", path,
                                      candidate, node.data),
                          display_path(path));
      }
      return resolve(*next, depth + 1);
    }
    if (node.kind != NodeKind::Dir && i + 1 < parts.size()) {
      return make_error(ErrorCode::NotFound, fmt::format("{} is not a directory", candidate),
                        display_path(path));
    }
    resolved = std::move(candidate);
  }
  return resolved;
}

Result<std::string> MemTree::read(std::string_view path) const {
  ND_TRY_ASSIGN(std::string key, resolve(path, 0));
  if (m_track_reads) {
    m_files_read.emplace_back(key);
  }
  if (const auto error = m_errors.find(key); error != m_errors.end()) {
    Error copy = error->second;
    if (copy.context.empty()) {
      copy.context = display_path(path);
    }
    return copy;
  }
  const auto it = m_files.find(key);
  if (key.empty() || it == m_files.end() || it->second.kind == NodeKind::Dir) {
    return make_error(ErrorCode::InvalidArgument, "is a directory, not a file", display_path(path));
  }
  return it->second.data;
}

Result<std::vector<DirEntry>> MemTree::list(std::string_view path) const {
  ND_TRY_ASSIGN(std::string key, resolve(path, 0));
  if (!key.empty()) {
    const auto it = m_files.find(key);
    if (it == m_files.end() || it->second.kind != NodeKind::Dir) {
      return make_error(ErrorCode::NotFound, "not a directory", display_path(path));
    }
  }
  const std::string prefix = key.empty() ? std::string{} : key + "/";
  std::vector<DirEntry> entries;
  auto it = m_files.lower_bound(prefix);
  while (it != m_files.end() && starts_with(it->first, prefix)) {
    const std::string_view rest = std::string_view(it->first).substr(prefix.size());
    const auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
      // A descendant of a child directory already listed: jump past the whole subtree
      // ('0' sorts right after '/').
      it = m_files.lower_bound(fmt::format("{}{}0", prefix, rest.substr(0, slash)));
      continue;
    }
    DirEntry entry{std::string(rest), DirEntry::Kind::File};
    if (it->second.kind == NodeKind::Dir) {
      entry.kind = DirEntry::Kind::Dir;
    } else if (it->second.kind == NodeKind::Link) {
      auto target = resolve(it->first, 0);
      entry.kind = DirEntry::Kind::Other;
      if (target.ok()) {
        const auto found = m_files.find(*target);
        if (found != m_files.end()) {
          entry.kind =
              found->second.kind == NodeKind::Dir ? DirEntry::Kind::Dir : DirEntry::Kind::File;
        }
      }
    }
    entries.push_back(std::move(entry));
    ++it;
  }
  return entries;
}

std::string MemTree::describe() const {
  return m_name;
}

std::string MemTree::display_path(std::string_view path) const {
  if (!m_display_prefix.empty()) {
    return fmt::format("{}{}", m_display_prefix, path);
  }
  return fmt::format("{}:{}", m_name, path);
}

}  // namespace netdoctor
