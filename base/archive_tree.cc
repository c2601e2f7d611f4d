#include "base/archive_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <system_error>
#include <utility>

#include "base/strings.h"
#include "base/tree_path.h"

namespace netdoctor {
namespace {

constexpr std::size_t k_block_bytes = 2 * k_large_buffer_bytes;
// Larger pieces get a block of their own, so a block's tail is never wasted by much.
constexpr std::size_t k_own_block_bytes = k_block_bytes / 8;
// The first block is small and faulted in as it fills: a host's capture (`collect --hosts`
// opens one per host, 1,024 of them) stores ~320 KiB of names and counters, and a 4 MiB block
// made resident up front cost the kernel's page zeroing 8% of the fan-out's CPU and 4 MiB of
// peak memory per capture being merged.
constexpr std::size_t k_first_block_bytes = std::size_t{1} << 20;
constexpr std::size_t k_small_block_bytes = 64 << 10;
constexpr std::uint32_t k_no_node = std::numeric_limits<std::uint32_t>::max();
using Node = ArchiveTreeBuilder::Node;
using Kind = ArchiveTreeBuilder::Kind;

// A directory's entries: positions [begin, end) of the sorted nodes.
struct Run {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

bool node_less(const Node& a, const Node& b) {
  if (a.parent != b.parent) {
    return a.parent < b.parent;
  }
  const int order = a.name_view().compare(b.name_view());
  return order < 0 || (order == 0 && a.order < b.order);
}

bool same_path(const Node& a, const Node& b) {
  return a.parent == b.parent && a.name_view() == b.name_view();
}

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

class ArchiveTree final : public FileTree {
 public:
  ArchiveTree(std::string shown, ByteArena arena, LargeArray<Node> nodes, std::vector<Run> runs,
              std::vector<std::uint32_t> dir_nodes)
      : m_shown(std::move(shown)),
        m_arena(std::move(arena)),
        m_nodes(std::move(nodes)),
        m_runs(std::move(runs)),
        m_dir_nodes(std::move(dir_nodes)) {}

  Result<std::string> read(std::string_view path) const override {
    ND_TRY_ASSIGN(const Node* node, resolve(path, 0));
    if (node == nullptr || node->kind == Kind::Dir) {
      return make_error(ErrorCode::InvalidArgument, "is a directory, not a file",
                        display_path(path));
    }
    return std::string(node->data);
  }

  Result<std::vector<DirEntry>> list(std::string_view path) const override;

  std::string describe() const override { return fmt::format("archive {}", m_shown); }

  std::string display_path(std::string_view path) const override {
    return fmt::format("{}:{}", m_shown, path);
  }

 private:
  // The entry `name` of directory `dir`, or nullptr.
  const Node* child(std::uint32_t dir, std::string_view name) const {
    const Run run = m_runs[dir];
    const Node* first = m_nodes.begin() + run.begin;
    const Node* last = m_nodes.begin() + run.end;
    const Node* it = std::lower_bound(
        first, last, name,
        [](const Node& node, std::string_view wanted) { return node.name_view() < wanted; });
    return it != last && it->name_view() == name ? it : nullptr;
  }

  // The stored path of directory `dir` (no link on it), for resolving the links it holds.
  std::string dir_path(std::uint32_t dir) const;

  // The node `path` names after following links (nullptr: the root), as MemTree::resolve.
  Result<const Node*> resolve(std::string_view path, int depth) const;
  Result<const Node*> walk(std::string_view path, std::string_view normalised, int depth) const;

  std::string m_shown;
  ByteArena m_arena;
  LargeArray<Node> m_nodes;                // by (directory, name), one per path
  std::vector<Run> m_runs;                 // by directory number
  std::vector<std::uint32_t> m_dir_nodes;  // by directory number: its node, or k_no_node
};

std::string ArchiveTree::dir_path(std::uint32_t dir) const {
  std::vector<std::string_view> names;
  while (dir != 0 && m_dir_nodes[dir] != k_no_node) {
    const Node& node = m_nodes[m_dir_nodes[dir]];
    names.push_back(node.name_view());
    dir = node.parent;
  }
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    path = join_relative(path, *it);
  }
  return path;
}

Result<const Node*> ArchiveTree::resolve(std::string_view path, int depth) const {
  std::string owned;
  std::string_view normalised = path;
  if (!is_normal_relative(path)) {
    ND_TRY_ASSIGN(owned, normalise_relative(path));
    normalised = owned;
  }
  if (normalised.empty()) {
    return static_cast<const Node*>(nullptr);
  }
  return walk(path, normalised, depth);
}

// One component at a time from the root, as MemTree walks: every one before the last must be
// a directory, or a link that leads to one.
Result<const Node*> ArchiveTree::walk(std::string_view path, std::string_view normalised,
                                      int depth) const {
  std::uint32_t dir = 0;
  std::size_t start = 0;  // of the component being resolved; all before it are directories
  for (;;) {
    const std::size_t end = std::min(normalised.find('/', start), normalised.size());
    const Node* node = child(dir, normalised.substr(start, end - start));
    if (node == nullptr) {
      return make_error(ErrorCode::NotFound, "no such file or directory", display_path(path));
    }
    const std::string_view candidate = normalised.substr(0, end);
    const bool last = end == normalised.size();
    if (node->kind == Kind::Link) {
      if (depth >= k_max_symlink_depth) {
        return make_error(ErrorCode::Io, "too many levels of symbolic links", display_path(path));
      }
      if (starts_with(node->data, "/")) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: {} is an absolute symbolic link to {}",
                                      path, candidate, node->data),
                          display_path(path));
      }
      const std::string_view link_dir =
          start == 0 ? std::string_view{} : normalised.substr(0, start - 1);
      const std::string_view rest = last ? std::string_view{} : normalised.substr(end + 1);
      auto target = normalise_relative(join_relative(join_relative(link_dir, node->data), rest));
      if (!target.ok()) {
        return make_error(ErrorCode::Refused,
                          fmt::format("{} leaves the tree: symbolic link {} points to {}", path,
                                      candidate, node->data),
                          display_path(path));
      }
      return resolve(*target, depth + 1);
    }
    if (last) {
      return node;
    }
    if (node->kind != Kind::Dir) {
      return make_error(ErrorCode::NotFound, fmt::format("{} is not a directory", candidate),
                        display_path(path));
    }
    dir = node->dir;
    start = end + 1;
  }
}

Result<std::vector<DirEntry>> ArchiveTree::list(std::string_view path) const {
  ND_TRY_ASSIGN(const Node* dir, resolve(path, 0));
  if (dir != nullptr && dir->kind != Kind::Dir) {
    return make_error(ErrorCode::NotFound, "not a directory", display_path(path));
  }
  const std::uint32_t number = dir == nullptr ? 0 : dir->dir;
  const Run run = m_runs[number];
  std::vector<DirEntry> entries;
  entries.reserve(run.end - run.begin);
  std::optional<std::string> link_dir;  // where this directory's links start from
  for (std::uint32_t i = run.begin; i < run.end; ++i) {
    const Node& node = m_nodes[i];
    DirEntry entry{std::string(node.name_view()), DirEntry::Kind::File};
    if (node.kind == Kind::Dir) {
      entry.kind = DirEntry::Kind::Dir;
    } else if (node.kind == Kind::Link) {
      if (!link_dir) {
        link_dir = dir_path(number);
      }
      auto target = resolve(join_relative(*link_dir, node.name_view()), 0);
      entry.kind = DirEntry::Kind::Other;
      if (target.ok() && *target != nullptr) {
        entry.kind = (*target)->kind == Kind::Dir ? DirEntry::Kind::Dir : DirEntry::Kind::File;
      }
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

void ByteArena::FreeBlock::operator()(char* block) const noexcept {
  free_large_buffer(block);
}

ByteArena::~ByteArena() {
  drop_prepared();
}

void ByteArena::drop_prepared() noexcept {
  if (!m_prepared.valid()) {
    return;
  }
  try {
    free_large_buffer(m_prepared.get());
  } catch (const std::bad_alloc&) {
    // nothing was allocated
  }
}

void ByteArena::prepare_ahead(bool on) {
  m_ahead = on;
  if (!on) {
    drop_prepared();
  }
}

char* ByteArena::new_block() {
  if (m_blocks.empty()) {
    void* first = std::malloc(k_first_block_bytes);
    if (first == nullptr) {
      throw std::bad_alloc();
    }
    return static_cast<char*>(first);
  }
  void* block = m_prepared.valid() ? m_prepared.get() : allocate_large_buffer(k_block_bytes);
  // From the second block on: a small archive never pays for a block it does not need.
  if (m_ahead && !m_blocks.empty()) {
    try {
      m_prepared =
          std::async(std::launch::async, [] { return allocate_large_buffer(k_block_bytes); });
    } catch (const std::system_error&) {
      m_ahead = false;  // no thread to be had: blocks come as they are needed
    }
  }
  return static_cast<char*>(block);
}

std::string_view ByteArena::store(std::string_view bytes) {
  if (bytes.empty()) {
    return {};
  }
  char* at = nullptr;
  if (bytes.size() >= (m_small ? k_small_block_bytes / 8 : k_own_block_bytes)) {
    m_own_blocks.push_back(std::make_unique_for_overwrite<char[]>(bytes.size()));
    at = m_own_blocks.back().get();
  } else if (m_small) {
    if (bytes.size() > m_left) {
      m_own_blocks.push_back(std::make_unique_for_overwrite<char[]>(k_small_block_bytes));
      m_next = m_own_blocks.back().get();
      m_left = k_small_block_bytes;
    }
    at = m_next;
    m_next += bytes.size();
    m_left -= bytes.size();
  } else {
    if (bytes.size() > m_left) {
      const bool first = m_blocks.empty();
      m_blocks.emplace_back(new_block());
      m_next = m_blocks.back().get();
      m_left = first ? k_first_block_bytes : k_block_bytes;
    }
    at = m_next;
    m_next += bytes.size();
    m_left -= bytes.size();
  }
  std::memcpy(at, bytes.data(), bytes.size());
  return {at, bytes.size()};
}

ArchiveTreeBuilder::ArchiveTreeBuilder(std::string shown) : m_shown(std::move(shown)) {
  m_arena.prepare_ahead(true);
}

ArchiveTreeBuilder::ArchiveTreeBuilder(std::string shown, ByteArena::Small small)
    : m_shown(std::move(shown)), m_arena(small) {}

std::uint32_t ArchiveTreeBuilder::new_dir(std::string_view path, std::uint32_t parent,
                                          std::uint32_t order) {
  const std::string_view stored = m_arena.store(path);
  const std::string_view name = base_name(stored);
  const std::uint32_t number = m_dir_count++;
  m_nodes.push_back(Node{
      {}, name.data(), static_cast<std::uint32_t>(name.size()), parent, number, order, Kind::Dir});
  m_dirs.emplace(stored, number);
  m_last_dir = stored;  // its members come next
  m_last_dir_number = number;
  return number;
}

std::uint32_t ArchiveTreeBuilder::dir_number(std::string_view path) {
  if (path.empty()) {
    return 0;
  }
  if (path == m_last_dir) {
    return m_last_dir_number;
  }
  auto it = m_dirs.find(path);
  if (it == m_dirs.end()) {
    const std::uint32_t parent = dir_number(parent_dir(path));
    new_dir(path, parent, 0);  // implicit: any member of the same path wins over it
    it = m_dirs.find(path);
  }
  m_last_dir = it->first;
  m_last_dir_number = it->second;
  return it->second;
}

void ArchiveTreeBuilder::add(std::string_view path, std::string_view data, Kind kind) {
  std::string owned;
  std::string_view normalised = path;
  if (!is_normal_relative(path)) {
    auto normal = normalise_relative(path);
    if (!normal.ok()) {
      return;  // nothing above the root can be stored
    }
    owned = std::move(normal).value();
    normalised = owned;
  }
  if (normalised.empty()) {
    return;
  }
  const std::uint32_t order = ++m_members;
  const std::uint32_t parent = dir_number(parent_dir(normalised));
  if (kind == Kind::Dir) {
    const auto it = m_dirs.find(normalised);
    if (it == m_dirs.end()) {
      new_dir(normalised, parent, order);
    } else {
      const std::string_view name = base_name(it->first);
      m_nodes.push_back(Node{{},
                             name.data(),
                             static_cast<std::uint32_t>(name.size()),
                             parent,
                             it->second,
                             order,
                             Kind::Dir});
    }
    return;
  }
  const std::string_view name = m_arena.store(base_name(normalised));
  m_nodes.push_back(Node{m_arena.store(data), name.data(), static_cast<std::uint32_t>(name.size()),
                         parent, 0, order, kind});
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
  m_arena.prepare_ahead(false);
  std::sort(m_nodes.begin(), m_nodes.end(), node_less);
  // Of the nodes for one path the last member wins, as a later add replaces in a MemTree.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    if (i + 1 < m_nodes.size() && same_path(m_nodes[i], m_nodes[i + 1])) {
      continue;
    }
    m_nodes[kept++] = m_nodes[i];
  }
  m_nodes.truncate(kept);
  std::vector<Run> runs(m_dir_count);
  std::vector<std::uint32_t> dir_nodes(m_dir_count, k_no_node);
  for (std::uint32_t i = 0; i < kept; ++i) {
    const Node& node = m_nodes[i];
    if (i == 0 || m_nodes[i - 1].parent != node.parent) {
      runs[node.parent].begin = i;
    }
    runs[node.parent].end = i + 1;
    if (node.kind == Kind::Dir) {
      dir_nodes[node.dir] = i;
    }
  }
  m_dirs = {};
  return std::make_unique<ArchiveTree>(std::move(m_shown), std::move(m_arena), std::move(m_nodes),
                                       std::move(runs), std::move(dir_nodes));
}

}  // namespace netdoctor
