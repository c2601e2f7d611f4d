// TreeWriter: the write side of FileTree. Code that produces a bundle (the simulator, collect)
// hands it files by relative, '/'-separated path; the sink decides where they land: a directory
// on disk (parents created on demand) or a streamed .tar.gz (never held in memory whole, so a
// 600k-file bundle costs only the current member).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

namespace netdoctor {

class TreeWriter {
 public:
  virtual ~TreeWriter() = default;

  // Writes `content` at `path` (relative; no "..", no leading '/'). A second write to the same
  // path replaces the file in a directory and appends a duplicate member in an archive, so
  // callers write each path once. InvalidArgument for a bad path, Io when the write fails.
  virtual Status write_file(std::string_view path, std::string_view content) = 0;

  // Flushes and closes; further writes fail. Called by the destructor if not called, but only
  // an explicit call reports errors (a truncated archive must not pass silently).
  virtual Status finish() = 0;

  // For messages: "directory /tmp/b", "archive /tmp/b.tar.gz".
  virtual std::string describe() const = 0;

  // Whether append_piece() works: true for the .tar.gz writers (not their pieces).
  virtual bool takes_pieces() const { return false; }
  // Appends a piece (the bytes of a finished open_tar_gz_piece_writer) as it is, without
  // decompressing it: how `collect --hosts` merges hosts compressed on threads of their own.
  // Unsupported unless takes_pieces().
  virtual Status append_piece(std::string_view piece);
};

// Files under `root`, created if absent (with parents). Existing files are overwritten.
Result<std::unique_ptr<TreeWriter>> open_dir_writer(const std::string& root);

// A gzip-compressed tar archive at `archive_path` (pax format, regular files and their parent
// directories, mode 0644/0755, fixed mtime `mtime` so the same content gives the same bytes).
// `compression_level` 1 (fast) .. 9 (small).
Result<std::unique_ptr<TreeWriter>> open_tar_gz_writer(const std::string& archive_path,
                                                       long long mtime = 0,
                                                       int compression_level = 6);

// Receives an archive's bytes as they are produced; an error stops the writer.
using ByteSink = std::function<Status(std::string_view bytes)>;

// The same archive written to `sink` instead of a file, never held whole: `collect --out -`
// streams its capture through ssh/pdsh/srun this way. `name` is for messages.
Result<std::unique_ptr<TreeWriter>> open_tar_gz_stream_writer(ByteSink sink, std::string name,
                                                              long long mtime = 0,
                                                              int compression_level = 6);

// A piece of a .tar.gz built apart from the archive it will join: its files as tar members,
// compressed as one gzip member, left in `piece` by finish() without the tar end-of-archive
// blocks. Not an archive on its own; an archive writer's append_piece() takes it, and the
// archive's directory members may then repeat (tar readers take the last).
Result<std::unique_ptr<TreeWriter>> open_tar_gz_piece_writer(std::string& piece, std::string name,
                                                             int compression_level = 6,
                                                             long long mtime = 0);

// True when the path names a tree writer should produce an archive for (".tar.gz", ".tgz").
bool is_tar_gz_path(std::string_view path);

}  // namespace netdoctor
