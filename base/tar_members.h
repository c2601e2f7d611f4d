// The members of a tar archive as base/tar_tree.cc reads them, handed to a sink one at a time
// in archive order instead of into one tree: base/bundle_stream.cc groups a bundle's members
// by machine this way, so that a machine can be loaded and freed while the archive is read.
#pragma once

#include <string>
#include <string_view>

#include "base/file_tree.h"
#include "base/result.h"

namespace netdoctor {

// Paths are as stored (without a leading "./" or trailing '/'), not yet normalised; members
// whose names leave the archive never arrive (they are problems). Views are valid only during
// the call.
class TarMemberSink {
 public:
  virtual ~TarMemberSink() = default;
  virtual void add_file(std::string_view path, std::string_view content) = 0;
  virtual void add_dir(std::string_view path) = 0;
  // `target` relative to the link's directory, as ArchiveTreeBuilder::add_symlink takes it.
  virtual void add_symlink(std::string_view path, std::string_view target) = 0;
  // False: the reader stops after this member (the sink has given up on the archive).
  virtual bool wants_more() const { return true; }
};

// Reads the archive at `archive` (compression detected by content) into `members`, with the
// limits, problems and truncation handling of open_tar_tree: Ok after a truncated archive (what
// came before was handed over, the break is in `report`); an error when nothing readable came
// or a limit refuses the whole archive. Stops early, Ok, once `members` wants no more.
Status read_tar_members(const std::string& archive, TreeLimits limits, TarTreeReport* report,
                        TarMemberSink& members);

}  // namespace netdoctor
