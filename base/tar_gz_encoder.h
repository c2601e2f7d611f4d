// TarGzEncoder: the writing half of a .tar.gz, shared by the archive tree writers
// (base/tree_writer.h). Tar members come from libarchive's pax writer, unblocked; the gzip
// layer (base/gzip_deflater.h) is driven here so that a gzip member can be ended in the middle of
// an archive and a member compressed elsewhere (on another thread) appended as it is. gzip allows
// members end to end (RFC 1952 2.2); gzip -d, tar, libarchive and netdoctor's own reader take them
// as one stream.
#pragma once

#include <sys/types.h>

#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "base/gzip_deflater.h"
#include "base/result.h"
#include "base/tree_writer.h"

struct archive;
struct archive_entry;

namespace netdoctor {

class TarGzEncoder {
 public:
  // Bytes go to `sink`; `name` is for messages.
  TarGzEncoder(ByteSink sink, std::string name, long long mtime);
  ~TarGzEncoder();
  TarGzEncoder(const TarGzEncoder&) = delete;
  TarGzEncoder& operator=(const TarGzEncoder&) = delete;

  // `compression_level` 1..9.
  Status open(int compression_level);

  // A regular file, after the directory members of its parents not written yet.
  Status write_file(std::string_view path, std::string_view content);

  // Ends the gzip member under way and passes `member` to the sink untouched: whole gzip
  // members holding tar members and no end-of-archive blocks (an encoder finished with
  // end_of_archive = false).
  Status append_members(std::string_view member);

  // Ends the archive: the tar end-of-archive blocks when `end_of_archive` (a whole archive),
  // none for a piece to be appended to another; then the gzip member's trailer.
  Status finish(bool end_of_archive);

  const std::string& name() const { return m_name; }

 private:
  static ssize_t on_tar_bytes(struct archive* archive, void* self, const void* data,
                              std::size_t size);
  Status take_tar_bytes(std::string_view bytes);
  Status compress_staged();
  Status end_member();
  Status write_parents(const std::string& path);
  Status write_header(const std::string& name, unsigned type, int mode, long long size);
  Error archive_failure(const std::string& what);
  Status failed(Error error);  // remembered: the encoder writes nothing after a failure

  ByteSink m_sink;
  std::string m_name;
  long long m_mtime;
  struct archive* m_archive = nullptr;
  struct archive_entry* m_entry = nullptr;
  std::unique_ptr<GzipDeflater> m_deflater;
  bool m_drop_tar = false;  // the end-of-archive blocks of a piece are not written
  Status m_status;          // the first failure of the sink or the compressor
  // Tar bytes gathered before compressing: libarchive hands over a 512-byte header and a few
  // bytes of a counter at a time.
  std::string m_staged;
  std::set<std::string> m_dirs;
};

}  // namespace netdoctor
