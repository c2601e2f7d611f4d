// GzipDeflater: gzip members one after another for TarGzEncoder. zlib at levels 2..9; level 1
// (fastest) goes through ISA-L's deflate where the build has it: about ten times zlib level 6's
// speed on a host's capture (0.9 ms against 9 ms for 1.9 MiB of counters and command output)
// for an archive a quarter larger, and smaller than zlib's own level 1.
#pragma once

#include <memory>
#include <string_view>

#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor {

class GzipDeflater {
 public:
  virtual ~GzipDeflater() = default;
  // Compresses all of `input` into the member under way (started if none is), handing
  // compressed bytes to `emit` as its output buffer fills.
  virtual Status write(std::string_view input, const ByteSink& emit) = 0;
  // Ends the member under way (none: nothing) and hands over everything it holds.
  virtual Status end_member(const ByteSink& emit) = 0;
};

// `level` 1..9; InvalidArgument otherwise, Internal when the library cannot start.
Result<std::unique_ptr<GzipDeflater>> make_gzip_deflater(int level);

}  // namespace netdoctor
