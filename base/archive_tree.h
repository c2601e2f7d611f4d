// ArchiveTree: the FileTree of an archive's members held compactly in memory. A member is a
// node naming only its last path component and the number of the directory holding it; names
// and contents are packed into large blocks, and the nodes sorted so that each directory's
// entries form one run in name order. A 650k-member bundle then costs a few allocations per
// thousand members, looking a path up is a binary search among short names per component, and
// listing a directory is reading its run. Built once (by base/tar_tree.cc), then read-only:
// safe for concurrent reads. Same semantics as MemTree: parent directories are implicit,
// symbolic links resolve only inside the tree, a later member replaces an earlier one of the
// same path.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/file_tree.h"
#include "base/large_buffer.h"

namespace netdoctor {

// Append-only storage whose views stay valid: blocks are never reallocated. While filled in
// bulk (prepare_ahead(true)), the next block is allocated and faulted in on a thread of its own:
// the kernel zeroing fresh pages is much of the cost of a large archive on some virtual
// machines, and the thread filling the arena need not wait for it.
class ByteArena {
 public:
  ByteArena() = default;
  // Small blocks from the ordinary heap instead: for trees made and freed by the thousand (one
  // machine of a streamed bundle), where a fresh faulted-in large block each would mostly be
  // zeroed for nothing.
  struct Small {};
  explicit ByteArena(Small) : m_small(true) {}
  ~ByteArena();
  ByteArena(ByteArena&&) noexcept = default;
  ByteArena& operator=(ByteArena&&) = delete;  // would drop a block being prepared
  ByteArena(const ByteArena&) = delete;
  ByteArena& operator=(const ByteArena&) = delete;

  std::string_view store(std::string_view bytes);
  void prepare_ahead(bool on);

 private:
  struct FreeBlock {
    void operator()(char* block) const noexcept;
  };
  char* new_block();
  void drop_prepared() noexcept;

  std::vector<std::unique_ptr<char[]>> m_own_blocks;  // one large piece each
  std::vector<std::unique_ptr<char, FreeBlock>> m_blocks;
  char* m_next = nullptr;
  std::size_t m_left = 0;
  bool m_ahead = false;
  bool m_small = false;
  std::future<void*> m_prepared;  // the next block, while m_ahead
};

class ArchiveTreeBuilder {
 public:
  // `shown` names the archive in messages ("/tmp/b.tar.gz").
  explicit ArchiveTreeBuilder(std::string shown);
  // For a small tree (one machine of a streamed bundle): its bytes in a ByteArena::Small.
  ArchiveTreeBuilder(std::string shown, ByteArena::Small small);

  // Paths are normalised as MemTree does; one that is empty or climbs out is ignored.
  void add_file(std::string_view path, std::string_view content);
  void add_dir(std::string_view path);
  // `target` relative to the link's directory (absolute ones are kept and refused on read).
  void add_symlink(std::string_view path, std::string_view target);

  // The tree; the builder is spent.
  std::unique_ptr<FileTree> finish();

  enum class Kind : unsigned char { File, Dir, Link };
  struct Node {
    std::string_view data;  // content or link target, in the arena
    const char* name;       // the last path component, in the arena
    std::uint32_t name_size;
    std::uint32_t parent;  // number of the directory holding it; the root is 0
    std::uint32_t dir;     // a directory's own number (its entries' `parent`)
    std::uint32_t order;   // archive order from 1; implicit parent directories are 0
    Kind kind;
    std::string_view name_view() const { return {name, name_size}; }
  };

 private:
  void add(std::string_view path, std::string_view data, Kind kind);
  // The number of directory `path`, made (with any of its parents missing) when new.
  std::uint32_t dir_number(std::string_view path);
  // A directory not seen before: its node (order 0 when implicit) and its number.
  std::uint32_t new_dir(std::string_view path, std::uint32_t parent, std::uint32_t order);

  std::string m_shown;
  ByteArena m_arena;
  LargeArray<Node> m_nodes;
  std::unordered_map<std::string_view, std::uint32_t> m_dirs;  // path (in the arena) -> number
  std::uint32_t m_dir_count = 1;                               // the root is 0
  std::string_view m_last_dir;  // members of one directory mostly come together
  std::uint32_t m_last_dir_number = 0;
  std::uint32_t m_members = 0;
};

}  // namespace netdoctor
