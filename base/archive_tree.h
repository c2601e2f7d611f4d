// ArchiveTree: the FileTree of an archive's members held compactly in memory. Paths and
// contents are packed into large blocks and indexed by one sorted vector, so a 600k-member
// bundle costs a few allocations per thousand members instead of several per member, and a
// lookup is a binary search. Built once (by base/tar_tree.cc), then read-only: safe for
// concurrent reads. Same semantics as MemTree: parent directories are implicit, symbolic links
// resolve only inside the tree, a later member replaces an earlier one of the same path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_tree.h"
#include "base/large_buffer.h"

namespace netdoctor {

// Append-only storage whose views stay valid: blocks are never reallocated.
class ByteArena {
 public:
  std::string_view store(std::string_view bytes);

 private:
  struct FreeBlock {
    void operator()(char* block) const noexcept;
  };
  std::vector<std::unique_ptr<char[]>> m_own_blocks;  // one large piece each
  std::vector<std::unique_ptr<char, FreeBlock>> m_blocks;
  char* m_next = nullptr;
  std::size_t m_left = 0;
};

class ArchiveTreeBuilder {
 public:
  // `shown` names the archive in messages ("/tmp/b.tar.gz").
  explicit ArchiveTreeBuilder(std::string shown);

  // Paths are normalised as MemTree does; one that is empty or climbs out is ignored.
  void add_file(std::string_view path, std::string_view content);
  void add_dir(std::string_view path);
  // `target` relative to the link's directory (absolute ones are kept and refused on read).
  void add_symlink(std::string_view path, std::string_view target);

  // The tree; the builder is spent.
  std::unique_ptr<FileTree> finish();

  enum class Kind : unsigned char { File, Dir, Link };
  struct Entry {
    std::string_view path;    // normalised, in the arena
    std::string_view data;    // content or link target, in the arena
    std::uint32_t order = 0;  // archive order from 1; implicit parent directories are 0
    Kind kind = Kind::File;
  };

 private:
  void add(std::string_view path, std::string_view data, Kind kind);

  std::string m_shown;
  ByteArena m_arena;
  std::vector<Entry, LargeBufferAllocator<Entry>> m_entries;
  bool m_has_links = false;
};

}  // namespace netdoctor
