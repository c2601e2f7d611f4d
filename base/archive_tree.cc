#include "base/archive_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <utility>

#include "base/strings.h"
#include "base/tree_path.h"

namespace netdoctor {
namespace {

constexpr std::size_t k_block_bytes = 2 * k_large_buffer_bytes;
// Larger pieces get a block of their own, so a block's tail is never wasted by much.
constexpr std::size_t k_own_block_bytes = k_block_bytes / 8;
using Entry = ArchiveTreeBuilder::Entry;
using Kind = ArchiveTreeBuilder::Kind;
using Entries = std::vector<Entry, LargeBufferAllocator<Entry>>;

bool entry_less(const Entry& a, const Entry& b) {
  const int order = a.path.compare(b.path);
  return order < 0 || (order == 0 && a.order < b.order);
}

class ArchiveTree final : public FileTree {
 public:
  ArchiveTree(std::string shown, ByteArena arena, Entries entries, bool has_links)
      : m_shown(std::move(shown)),
        m_arena(std::move(arena)),
        m_entries(std::move(entries)),
        m_has_links(has_links) {}

  Result<std::string> read(std::string_view path) const override {
    ND_TRY_ASSIGN(const Entry* entry, resolve(path, 0));
    if (entry == nullptr || entry->kind == Kind::Dir) {
      return make_error(ErrorCode::InvalidArgument, "is a directory, not a file",
                        display_path(path));
    }
    return std::string(entry->data);
  }

  Result<std::vector<DirEntry>> list(std::string_view path) const override;

  std::string describe() const override { return fmt::format("archive {}", m_shown); }

  std::string display_path(std::string_view path) const override {
    return fmt::format("{}:{}", m_shown, path);
  }

 private:
  const Entry* find(std::string_view path) const {
    const auto it = std::lower_bound(
        m_entries.begin(), m_entries.end(), path,
        [](const Entry& entry, std::string_view wanted) { return entry.path < wanted; });
    return it != m_entries.end() && it->path == path ? &*it : nullptr;
  }

  // The entry `path` names after following links (nullptr: the root), as MemTree::resolve.
  Result<const Entry*> resolve(std::string_view path, int depth) const;
  Result<const Entry*> walk(std::string_view path, std::string_view normalised, int depth) const;

  std::string m_shown;
  ByteArena m_arena;
  Entries m_entries;  // sorted by path, one per path
  bool m_has_links;
};

Result<const Entry*> ArchiveTree::resolve(std::string_view path, int depth) const {
  std::string owned;
  std::string_view normalised = path;
  if (!is_normal_relative(path)) {
    ND_TRY_ASSIGN(owned, normalise_relative(path));
    normalised = owned;
  }
  if (normalised.empty()) {
    return static_cast<const Entry*>(nullptr);
  }
  if (!m_has_links) {
    // No link can be on the way: the path is its own key. A miss still walks, for the message.
    if (const Entry* entry = find(normalised)) {
      return entry;
    }
  }
  return walk(path, normalised, depth);
}

Result<const Entry*> ArchiveTree::walk(std::string_view path, std::string_view normalised,
                                       int depth) const {
  std::size_t start = 0;  // of the component being resolved; all before it are directories
  for (;;) {
    const std::size_t end = std::min(normalised.find('/', start), normalised.size());
    const std::string_view candidate = normalised.substr(0, end);
    const Entry* entry = find(candidate);
    if (entry == nullptr) {
      return make_error(ErrorCode::NotFound, "no such file or directory", display_path(path));
    }
    const bool last = end == normalised.size();
    if (entry->kind == Kind::Link) {
      if (depth >= k_max_symlink_depth) {
        return make_error(ErrorCode::Io, "too many levels of symbolic links", display_path(path));
      }
      if (starts_with(entry->data, "/")) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: {} is an absolute symbolic link to {}",
                                      path, candidate, entry->data),
                          display_path(path));
      }
      const std::string_view dir =
          start == 0 ? std::string_view{} : normalised.substr(0, start - 1);
      const std::string_view rest = last ? std::string_view{} : normalised.substr(end + 1);
      auto target = normalise_relative(join_relative(join_relative(dir, entry->data), rest));
      if (!target.ok()) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: symbolic link {} points to {}", path,
                                      candidate, entry->data),
                          display_path(path));
      }
      return resolve(*target, depth + 1);
    }
    if (last) {
      return entry;
    }
    if (entry->kind != Kind::Dir) {
      return make_error(ErrorCode::NotFound, fmt::format("{} is not a directory", candidate),
                        display_path(path));
    }
    start = end + 1;
  }
}

Result<std::vector<DirEntry>> ArchiveTree::list(std::string_view path) const {
  ND_TRY_ASSIGN(const Entry* dir, resolve(path, 0));
  if (dir != nullptr && dir->kind != Kind::Dir) {
    return make_error(ErrorCode::NotFound, "not a directory", display_path(path));
  }
  const std::string prefix = dir == nullptr ? std::string{} : fmt::format("{}/", dir->path);
  const auto first_at_or_after = [this](std::string_view key) {
    return std::lower_bound(
        m_entries.begin(), m_entries.end(), key,
        [](const Entry& entry, std::string_view wanted) { return entry.path < wanted; });
  };
  std::vector<DirEntry> entries;
  std::string skip_to;
  auto it = first_at_or_after(prefix);
  while (it != m_entries.end() && starts_with(it->path, prefix)) {
    const std::string_view rest = it->path.substr(prefix.size());
    const auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
      // A descendant of a child directory already listed: jump past the whole subtree
      // ('0' sorts right after '/').
      skip_to.assign(prefix).append(rest.substr(0, slash)).push_back('0');
      it = first_at_or_after(skip_to);
      continue;
    }
    DirEntry entry{std::string(rest), DirEntry::Kind::File};
    if (it->kind == Kind::Dir) {
      entry.kind = DirEntry::Kind::Dir;
    } else if (it->kind == Kind::Link) {
      auto target = resolve(it->path, 0);
      entry.kind = DirEntry::Kind::Other;
      if (target.ok() && *target != nullptr) {
        entry.kind = (*target)->kind == Kind::Dir ? DirEntry::Kind::Dir : DirEntry::Kind::File;
      }
    }
    entries.push_back(std::move(entry));
    ++it;
  }
  return entries;
}

}  // namespace

void ByteArena::FreeBlock::operator()(char* block) const noexcept {
  free_large_buffer(block);
}

std::string_view ByteArena::store(std::string_view bytes) {
  if (bytes.empty()) {
    return {};
  }
  char* at = nullptr;
  if (bytes.size() >= k_own_block_bytes) {
    m_own_blocks.push_back(std::make_unique_for_overwrite<char[]>(bytes.size()));
    at = m_own_blocks.back().get();
  } else {
    if (bytes.size() > m_left) {
      m_blocks.emplace_back(static_cast<char*>(allocate_large_buffer(k_block_bytes)));
      m_next = m_blocks.back().get();
      m_left = k_block_bytes;
    }
    at = m_next;
    m_next += bytes.size();
    m_left -= bytes.size();
  }
  std::memcpy(at, bytes.data(), bytes.size());
  return {at, bytes.size()};
}

ArchiveTreeBuilder::ArchiveTreeBuilder(std::string shown) : m_shown(std::move(shown)) {}

void ArchiveTreeBuilder::add(std::string_view path, std::string_view data, Kind kind) {
  std::string_view stored;
  if (is_normal_relative(path)) {
    stored = m_arena.store(path);
  } else {
    auto normalised = normalise_relative(path);
    if (!normalised.ok()) {
      return;  // nothing above the root can be stored
    }
    stored = m_arena.store(*normalised);
  }
  if (stored.empty()) {
    return;
  }
  m_entries.push_back(
      Entry{stored, m_arena.store(data), static_cast<std::uint32_t>(m_entries.size() + 1), kind});
  m_has_links = m_has_links || kind == Kind::Link;
}

void ArchiveTreeBuilder::add_file(std::string_view path, std::string_view content) {
  add(path, content, Kind::File);
}

void ArchiveTreeBuilder::add_dir(std::string_view path) {
  add(path, {}, Kind::Dir);
}

void ArchiveTreeBuilder::add_symlink(std::string_view path, std::string_view target) {
  add(path, target, Kind::Link);
}

std::unique_ptr<FileTree> ArchiveTreeBuilder::finish() {
  // Every parent directory once, implicit (order 0: any member of the same path wins).
  std::unordered_set<std::string_view> parents;
  const std::size_t members = m_entries.size();
  for (std::size_t i = 0; i < members; ++i) {
    for (std::string_view dir = parent_dir(m_entries[i].path);
         !dir.empty() && parents.insert(dir).second; dir = parent_dir(dir)) {
      m_entries.push_back(Entry{dir, {}, 0, Kind::Dir});
    }
  }
  std::sort(m_entries.begin(), m_entries.end(), entry_less);
  // Of the entries for one path the last member wins, as a later add replaces in a MemTree.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    if (i + 1 < m_entries.size() && m_entries[i + 1].path == m_entries[i].path) {
      continue;
    }
    m_entries[kept++] = m_entries[i];
  }
  m_entries.resize(kept);
  m_entries.shrink_to_fit();
  return std::make_unique<ArchiveTree>(std::move(m_shown), std::move(m_arena), std::move(m_entries),
                                       m_has_links);
}

}  // namespace netdoctor
