// FileTree: a read-only tree of files addressed by relative, '/'-separated paths
// ("hosts/node01/0/captured_at"). The on-disk directory, a tar archive held in memory and an
// in-memory map for tests all look the same to the code above. No path ever resolves
// outside the tree: ".." that climbs out, absolute symlinks and links that leave the root are
// refused (ErrorCode::Refused), never followed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/tree_path.h"

namespace netdoctor {

struct DirEntry {
  enum class Kind { File, Dir, Other };
  std::string name;
  Kind kind = Kind::File;
};

struct TreeLimits {
  std::uint64_t max_file_bytes = 64ull << 20;  // a larger file is refused, not read
  std::uint64_t max_total_bytes = 4ull << 30;  // archives: sum of member sizes kept
  std::uint64_t max_entries = 16'000'000;  // archives: members (4,096 hosts x 8 NICs: ~7 million)
};

class FileTree {
 public:
  virtual ~FileTree() = default;

  // The whole file. NotFound when absent, Refused when the path or a link on it leaves the
  // tree or the file is over the size limit, PermissionDenied, Io otherwise.
  virtual Result<std::string> read(std::string_view path) const = 0;

  // Entries of a directory ("" is the root), sorted by name. NotFound when absent.
  virtual Result<std::vector<DirEntry>> list(std::string_view path) const = 0;

  // For messages: "bundle /tmp/x.tar.gz".
  virtual std::string describe() const = 0;

  // Where `path` lives, for messages naming a file ("/tmp/b/hosts/n1/0/mtu", "x.tar.gz:hosts/...").
  virtual std::string display_path(std::string_view path) const = 0;
};

// The directory at `root` on disk. Symlinks are followed only while they stay inside it.
// Thread-safe: reads share only the root's file descriptor.
Result<std::unique_ptr<FileTree>> open_dir_tree(const std::string& root, TreeLimits limits = {});
// The same, resolving paths component by component as on kernels without openat2 (tests).
Result<std::unique_ptr<FileTree>> open_dir_tree_without_openat2(const std::string& root,
                                                                TreeLimits limits = {});

// A tar archive (.tar, .tar.gz, .tar.xz, detected by content) loaded into memory. Members named
// with ".." or an absolute path are refused and reported in `problems`; symlink members resolve
// only inside the archive; size limits defend against bombs.
struct TarTreeReport {
  std::vector<Error> problems;
};
Result<std::unique_ptr<FileTree>> open_tar_tree(const std::string& archive, TreeLimits limits = {},
                                                TarTreeReport* report = nullptr);

// The same for an archive already in memory (a sample inside another archive); `name` is used
// in messages ("x.tar.gz:hosts/n1/sosreport-n1.tar.xz").
Result<std::unique_ptr<FileTree>> open_tar_tree_from_memory(std::string_view data,
                                                            const std::string& name,
                                                            TreeLimits limits = {},
                                                            TarTreeReport* report = nullptr);

// True when the file at `path` looks like a tar archive we can open (by name or magic).
bool looks_like_archive(const std::string& path);
// By name only: .tar, .tar.gz, .tgz, .tar.xz, .txz, .tar.bz2, .tar.zst.
bool has_archive_suffix(std::string_view name);
// `name` without its archive suffix ("sosreport-n1.tar.xz" -> "sosreport-n1").
std::string strip_archive_suffix(std::string_view name);
// By content: gzip, xz, bzip2 or zstd magic, or a ustar header.
bool has_archive_magic(std::string_view head);

// A view of `inner` rooted at `prefix` (a subdirectory of it).
std::unique_ptr<FileTree> make_subtree(std::shared_ptr<const FileTree> inner, std::string prefix);

// Several trees seen as one (bundles given together): a file reads from the first tree that has
// it (a later tree's file of the same path is hidden), a directory lists every tree's entries.
// NotFound only when no tree has the path. `layers` must not be empty.
std::shared_ptr<const FileTree> make_layered_tree(
    std::vector<std::shared_ptr<const FileTree>> layers);

// In-memory tree for tests and for archives. Parent directories are implicit. Symlink targets
// resolve inside the tree only: a relative target that climbs above the root and an absolute
// target are both refused, as on disk (an absolute link in a capture points at the host).
// Not thread-safe while read tracking is on (the default); an archive tree turns it off and is
// then safe for concurrent reads.
class MemTree final : public FileTree {
 public:
  explicit MemTree(std::string name = "memory");
  void add_file(std::string path, std::string content);
  void add_dir(std::string path);
  // A symlink member; `target` relative to the link's directory.
  void add_symlink(std::string path, std::string target);
  // Makes read() of `path` fail with this error (fault injection).
  void add_error(std::string path, Error error);
  // Off: files_read() stays empty (archives with many members need not pay for it).
  void set_track_reads(bool on) { m_track_reads = on; }
  // How display_path() names a file: "<name>:<path>" by default.
  void set_display_prefix(std::string prefix) { m_display_prefix = std::move(prefix); }

  Result<std::string> read(std::string_view path) const override;
  Result<std::vector<DirEntry>> list(std::string_view path) const override;
  std::string describe() const override;
  std::string display_path(std::string_view path) const override;

  std::size_t file_count() const { return m_file_count; }
  // Paths read so far, to check that probes read only what they declare.
  const std::vector<std::string>& files_read() const { return m_files_read; }

 private:
  enum class NodeKind { File, Dir, Link, Error };
  // Kept small: archives hold hundreds of thousands of members.
  struct Node {
    NodeKind kind = NodeKind::File;
    std::string data;  // file content or link target
  };
  void add_parents(std::string_view path);
  void put(std::string path, Node node);
  // The key of the node `path` names after following links; NotFound/Refused/Io otherwise.
  Result<std::string> resolve(std::string_view path, int depth) const;

  std::string m_name;
  std::string m_display_prefix;
  std::map<std::string, Node, std::less<>> m_files;
  std::map<std::string, Error, std::less<>> m_errors;
  std::size_t m_file_count = 0;
  bool m_track_reads = true;
  mutable std::vector<std::string> m_files_read;
};

}  // namespace netdoctor
