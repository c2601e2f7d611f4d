// ArchiveStream: the bytes of a possibly compressed file (gzip, xz, bzip2, zstd or none,
// detected by content), decompressed on a thread of its own a few MiB ahead of the reader. On
// two cores the inflating and the parsing of a tar archive then overlap. gzip goes through
// ISA-L's inflate where the build has it (several times faster than zlib: a bundle's .tar.gz
// decompresses in a fraction of zcat's time), everything else through libarchive.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/result.h"

namespace netdoctor {

class ArchiveStream {
 public:
  // NotFound / PermissionDenied / Unsupported when the file cannot be opened.
  static Result<std::unique_ptr<ArchiveStream>> open_file(const std::string& path);
  // `data` must outlive the stream.
  static Result<std::unique_ptr<ArchiveStream>> open_memory(std::string_view data,
                                                            const std::string& name);
  ~ArchiveStream();
  ArchiveStream(const ArchiveStream&) = delete;
  ArchiveStream& operator=(const ArchiveStream&) = delete;

  // The next block of decompressed bytes, valid until the next call; empty at the end. Io when
  // the compressed data is corrupt or truncated (the bytes before it were all handed out).
  Result<std::string_view> next_block();

  // What decompresses: writes up to `capacity` bytes at `out`, 0 at the end.
  class Source {
   public:
    virtual ~Source() = default;
    virtual Result<std::size_t> fill(char* out, std::size_t capacity) = 0;
  };

 private:
  struct Chunk {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
  };
  explicit ArchiveStream(std::unique_ptr<Source> source);
  static std::unique_ptr<ArchiveStream> start(std::unique_ptr<Source> source);
  void produce();

  std::unique_ptr<Source> m_source;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Chunk> m_ready;   // decompressed, not yet handed out
  std::vector<Chunk> m_spare;  // handed-out chunks, to be filled again
  Chunk m_current;             // the chunk the reader holds
  std::string m_error;         // why decompression failed, when m_failed
  bool m_failed = false;
  bool m_done = false;     // the producer has finished (end or error)
  bool m_stop = false;     // the reader has gone
  std::thread m_producer;  // last: started once everything else is built
};

}  // namespace netdoctor
