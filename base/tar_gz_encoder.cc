#include "base/tar_gz_encoder.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace netdoctor {
namespace {

// Tar bytes are compressed this many at a time.
constexpr std::size_t k_staging_bytes = 128 * 1024;

}  // namespace

TarGzEncoder::TarGzEncoder(ByteSink sink, std::string name, long long mtime)
    : m_sink(std::move(sink)),
      m_name(std::move(name)),
      m_mtime(mtime),
      m_archive(archive_write_new()),
      m_entry(archive_entry_new()) {}

TarGzEncoder::~TarGzEncoder() {
  archive_entry_free(m_entry);
  if (m_archive != nullptr) {
    m_drop_tar = true;  // an encoder never finished writes nothing more on the way out
    archive_write_free(m_archive);
  }
}

Status TarGzEncoder::open(int compression_level) {
  if (compression_level < 1 || compression_level > 9) {
    return make_error(ErrorCode::InvalidArgument, "compression level must be 1..9", m_name);
  }
  if (m_archive == nullptr || m_entry == nullptr) {
    return make_error(ErrorCode::Internal, "libarchive allocation failed", m_name);
  }
  auto deflater = make_gzip_deflater(compression_level);
  if (!deflater.ok()) {
    return Error{deflater.error().code, deflater.error().message, m_name};
  }
  m_deflater = std::move(deflater).value();
  m_staged.reserve(k_staging_bytes);
  // Unblocked: tar bytes reach on_tar_bytes as written, the archive is not padded to 10 KiB.
  if (archive_write_set_format_pax_restricted(m_archive) != ARCHIVE_OK ||
      archive_write_add_filter_none(m_archive) != ARCHIVE_OK ||
      archive_write_set_bytes_per_block(m_archive, 0) != ARCHIVE_OK ||
      archive_write_open2(m_archive, this, nullptr, &TarGzEncoder::on_tar_bytes, nullptr,
                          nullptr) != ARCHIVE_OK) {
    return archive_failure("cannot open archive for writing");
  }
  return {};
}

Status TarGzEncoder::write_file(std::string_view path, std::string_view content) {
  const std::string name(path);
  ND_TRY(write_parents(name));
  ND_TRY(write_header(name, AE_IFREG, 0644, static_cast<long long>(content.size())));
  if (!content.empty() && archive_write_data(m_archive, content.data(), content.size()) < 0) {
    return archive_failure("cannot write member data");
  }
  return {};
}

Status TarGzEncoder::append_members(std::string_view member) {
  if (!m_deflater) {
    return make_error(ErrorCode::Internal, "archive not open", m_name);
  }
  // The tar padding of the last file is written when its entry is finished: before the member
  // ends, so that the appended bytes start on a tar block.
  if (archive_write_finish_entry(m_archive) != ARCHIVE_OK) {
    return archive_failure("cannot finish member");
  }
  ND_TRY(end_member());
  if (Status sent = m_sink(member); !sent.ok()) {
    return failed(sent.error());
  }
  return {};
}

Status TarGzEncoder::finish(bool end_of_archive) {
  if (!m_deflater) {
    return make_error(ErrorCode::Internal, "archive not open", m_name);
  }
  if (archive_write_finish_entry(m_archive) != ARCHIVE_OK) {
    return archive_failure("cannot finish member");
  }
  m_drop_tar = !end_of_archive;
  const int closed = archive_write_close(m_archive);
  archive_write_free(m_archive);
  m_archive = nullptr;
  if (closed != ARCHIVE_OK) {
    return m_status.ok() ? make_error(ErrorCode::Io, "cannot finish archive", m_name) : m_status;
  }
  return end_member();
}

ssize_t TarGzEncoder::on_tar_bytes(struct archive* /*archive*/, void* self, const void* data,
                                   std::size_t size) {
  auto* encoder = static_cast<TarGzEncoder*>(self);
  if (encoder->m_drop_tar) {
    return static_cast<ssize_t>(size);
  }
  const Status status =
      encoder->take_tar_bytes(std::string_view(static_cast<const char*>(data), size));
  return status.ok() ? static_cast<ssize_t>(size) : -1;
}

Status TarGzEncoder::take_tar_bytes(std::string_view bytes) {
  ND_TRY(m_status);
  m_staged.append(bytes);
  return m_staged.size() >= k_staging_bytes ? compress_staged() : Status{};
}

Status TarGzEncoder::compress_staged() {
  ND_TRY(m_status);
  if (Status done = m_deflater->write(m_staged, m_sink); !done.ok()) {
    return failed(done.error());
  }
  m_staged.clear();
  return {};
}

Status TarGzEncoder::end_member() {
  ND_TRY(compress_staged());
  Status done = m_deflater->end_member(m_sink);
  return done.ok() ? done : failed(done.error());
}

// Directory members first, as tar(1) writes them, so extractors and readers see the tree.
Status TarGzEncoder::write_parents(const std::string& path) {
  std::size_t slash = path.find('/');
  while (slash != std::string::npos) {
    std::string dir = path.substr(0, slash);
    if (m_dirs.insert(dir).second) {
      ND_TRY(write_header(dir + "/", AE_IFDIR, 0755, 0));
    }
    slash = path.find('/', slash + 1);
  }
  return {};
}

Status TarGzEncoder::write_header(const std::string& name, unsigned type, int mode,
                                  long long size) {
  archive_entry_clear(m_entry);
  archive_entry_set_pathname(m_entry, name.c_str());
  archive_entry_set_filetype(m_entry, type);
  archive_entry_set_perm(m_entry, static_cast<__LA_MODE_T>(mode));
  archive_entry_set_size(m_entry, size);
  archive_entry_set_mtime(m_entry, static_cast<time_t>(m_mtime), 0);
  if (archive_write_header(m_archive, m_entry) != ARCHIVE_OK) {
    return archive_failure("cannot write member header for " + name);
  }
  return {};
}

Status TarGzEncoder::failed(Error error) {
  if (error.context.empty()) {
    error.context = m_name;
  }
  m_status = error;
  return m_status;
}

Error TarGzEncoder::archive_failure(const std::string& what) {
  if (!m_status.ok()) {
    return m_status.error();  // the sink's own error says more than libarchive's
  }
  const char* detail = archive_error_string(m_archive);
  return make_error(ErrorCode::Io, what + (detail != nullptr ? ": " + std::string(detail) : ""),
                    m_name);
}

}  // namespace netdoctor
