#include "base/tree_writer.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <set>
#include <string>
#include <system_error>

namespace netdoctor {
namespace {

// Relative, '/'-separated, no empty or ".."/"." components: a sink never writes outside itself.
Status check_path(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') {
    return make_error(ErrorCode::InvalidArgument, "not a relative file path", std::string(path));
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) {
      end = path.size();
    }
    const std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") {
      return make_error(ErrorCode::InvalidArgument, "path component not allowed",
                        std::string(path));
    }
    start = end + 1;
  }
  return {};
}

// Thread-safe, unlike strerror.
std::string errno_text() {
  return std::error_code(errno, std::generic_category()).message();
}

// Files are written directory by directory (a sample's sysfs tree, then its commands), so the
// writer keeps the last parent directory open and creates files relative to it: no path walk
// from the root and no lookup in m_made per file.
class DirTreeWriter final : public TreeWriter {
 public:
  explicit DirTreeWriter(std::string root) : m_root(std::move(root)) {}
  ~DirTreeWriter() override { close_dir(); }
  DirTreeWriter(const DirTreeWriter&) = delete;
  DirTreeWriter& operator=(const DirTreeWriter&) = delete;

  Status write_file(std::string_view path, std::string_view content) override {
    if (m_finished) {
      return make_error(ErrorCode::Internal, "write after finish", describe());
    }
    ND_TRY(check_path(path));
    const size_t slash = path.rfind('/');
    const std::string_view parent =
        slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
    ND_TRY(enter_dir(parent));
    const std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
    const int fd = ::openat(m_dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      return make_error(ErrorCode::Io, "cannot create file: " + errno_text(), full_path(path));
    }
    size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        const std::string why = errno_text();
        ::close(fd);
        return make_error(ErrorCode::Io, "write failed: " + why, full_path(path));
      }
      done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0) {
      return make_error(ErrorCode::Io, "close failed: " + errno_text(), full_path(path));
    }
    return {};
  }

  Status finish() override {
    m_finished = true;
    close_dir();
    return {};
  }

  std::string describe() const override { return "directory " + m_root; }

  Status make_root() { return make_dirs(m_root); }

 private:
  std::string full_path(std::string_view relative) const {
    return relative.empty() ? m_root : m_root + "/" + std::string(relative);
  }

  void close_dir() {
    if (m_dir_fd >= 0) {
      ::close(m_dir_fd);
      m_dir_fd = -1;
    }
  }

  // Makes `parent` (relative to the root) the open directory, creating it if needed.
  Status enter_dir(std::string_view parent) {
    if (m_dir_fd >= 0 && parent == m_dir) {
      return {};
    }
    close_dir();
    const std::string full = full_path(parent);
    ND_TRY(make_dirs(full));
    const int fd = ::open(full.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      return make_error(ErrorCode::Io, "cannot open directory: " + errno_text(), full);
    }
    m_dir_fd = fd;
    m_dir.assign(parent);
    return {};
  }

  // mkdir -p, remembering what exists so a bundle of many small files costs one mkdir per dir.
  Status make_dirs(const std::string& dir) {
    if (dir.empty() || m_made.count(dir) != 0) {
      return {};
    }
    const size_t slash = dir.rfind('/');
    if (slash != std::string::npos && slash != 0) {
      ND_TRY(make_dirs(dir.substr(0, slash)));
    }
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return make_error(ErrorCode::Io, "cannot create directory: " + errno_text(), dir);
    }
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      return make_error(ErrorCode::Io, "not a directory", dir);
    }
    m_made.insert(dir);
    return {};
  }

  std::string m_root;
  std::set<std::string> m_made;
  std::string m_dir;  // relative to the root; open as m_dir_fd
  int m_dir_fd = -1;
  bool m_finished = false;
};

// Writes to the file `path`, or, given a sink, hands the bytes to it (`path` names it then).
class TarGzTreeWriter final : public TreeWriter {
 public:
  TarGzTreeWriter(std::string path, long long mtime, ByteSink sink = {})
      : m_path(std::move(path)),
        m_mtime(mtime),
        m_sink(std::move(sink)),
        m_archive(archive_write_new()),
        m_entry(archive_entry_new()) {}

  ~TarGzTreeWriter() override {
    if (!m_finished) {
      (void)finish();
    }
    archive_entry_free(m_entry);
    archive_write_free(m_archive);
  }

  TarGzTreeWriter(const TarGzTreeWriter&) = delete;
  TarGzTreeWriter& operator=(const TarGzTreeWriter&) = delete;

  Status open(int compression_level) {
    if (m_archive == nullptr || m_entry == nullptr) {
      return make_error(ErrorCode::Internal, "libarchive allocation failed", m_path);
    }
    const std::string options =
        "gzip:compression-level=" + std::to_string(compression_level) + ",gzip:!timestamp";
    if (archive_write_add_filter_gzip(m_archive) != ARCHIVE_OK ||
        archive_write_set_format_pax_restricted(m_archive) != ARCHIVE_OK ||
        archive_write_set_options(m_archive, options.c_str()) < ARCHIVE_WARN) {
      return archive_failure("cannot open archive for writing");
    }
    const int opened = m_sink ? archive_write_open2(m_archive, this, nullptr,
                                                    &TarGzTreeWriter::on_write, nullptr, nullptr)
                              : archive_write_open_filename(m_archive, m_path.c_str());
    if (opened != ARCHIVE_OK) {
      return archive_failure("cannot open archive for writing");
    }
    return {};
  }

  Status write_file(std::string_view path, std::string_view content) override {
    if (m_finished) {
      return make_error(ErrorCode::Internal, "write after finish", describe());
    }
    ND_TRY(check_path(path));
    const std::string name(path);
    ND_TRY(write_parents(name));
    ND_TRY(write_header(name, AE_IFREG, 0644, static_cast<la_int64_t>(content.size())));
    if (!content.empty() && archive_write_data(m_archive, content.data(), content.size()) < 0) {
      return archive_failure("cannot write member data");
    }
    return {};
  }

  Status finish() override {
    if (m_finished) {
      return {};
    }
    m_finished = true;
    if (archive_write_close(m_archive) != ARCHIVE_OK) {
      return archive_failure("cannot finish archive");
    }
    return m_sink_status;
  }

  std::string describe() const override {
    return (m_sink ? "archive stream " : "archive ") + m_path;
  }

 private:
  static la_ssize_t on_write(struct archive* /*archive*/, void* self, const void* data,
                             size_t size) {
    auto* writer = static_cast<TarGzTreeWriter*>(self);
    Status status = writer->m_sink(std::string_view(static_cast<const char*>(data), size));
    if (!status.ok()) {
      writer->m_sink_status = status;
      return -1;
    }
    return static_cast<la_ssize_t>(size);
  }

  // Directory members first, as tar(1) writes them, so extractors and readers see the tree.
  Status write_parents(const std::string& path) {
    size_t slash = path.find('/');
    while (slash != std::string::npos) {
      std::string dir = path.substr(0, slash);
      if (m_dirs.insert(dir).second) {
        ND_TRY(write_header(dir + "/", AE_IFDIR, 0755, 0));
      }
      slash = path.find('/', slash + 1);
    }
    return {};
  }

  Status write_header(const std::string& name, unsigned type, int mode, la_int64_t size) {
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

  Error archive_failure(const std::string& what) {
    if (!m_sink_status.ok()) {
      return m_sink_status.error();  // the sink's own error says more than libarchive's
    }
    const char* detail = archive_error_string(m_archive);
    return make_error(ErrorCode::Io, what + (detail != nullptr ? ": " + std::string(detail) : ""),
                      m_path);
  }

  std::string m_path;
  long long m_mtime;
  ByteSink m_sink;
  Status m_sink_status;
  struct archive* m_archive;
  struct archive_entry* m_entry;
  std::set<std::string> m_dirs;
  bool m_finished = false;
};

}  // namespace

Result<std::unique_ptr<TreeWriter>> open_dir_writer(const std::string& root) {
  if (root.empty()) {
    return make_error(ErrorCode::InvalidArgument, "empty output directory");
  }
  std::string trimmed = root;
  while (trimmed.size() > 1 && trimmed.back() == '/') {
    trimmed.pop_back();
  }
  auto writer = std::make_unique<DirTreeWriter>(trimmed);
  ND_TRY(writer->make_root());
  return std::unique_ptr<TreeWriter>(std::move(writer));
}

Result<std::unique_ptr<TreeWriter>> open_tar_gz_writer(const std::string& archive_path,
                                                       long long mtime, int compression_level) {
  if (compression_level < 1 || compression_level > 9) {
    return make_error(ErrorCode::InvalidArgument, "compression level must be 1..9", archive_path);
  }
  auto writer = std::make_unique<TarGzTreeWriter>(archive_path, mtime);
  ND_TRY(writer->open(compression_level));
  return std::unique_ptr<TreeWriter>(std::move(writer));
}

Result<std::unique_ptr<TreeWriter>> open_tar_gz_stream_writer(ByteSink sink, std::string name,
                                                              long long mtime,
                                                              int compression_level) {
  if (compression_level < 1 || compression_level > 9) {
    return make_error(ErrorCode::InvalidArgument, "compression level must be 1..9", name);
  }
  if (!sink) {
    return make_error(ErrorCode::InvalidArgument, "no sink for the archive stream", name);
  }
  auto writer = std::make_unique<TarGzTreeWriter>(std::move(name), mtime, std::move(sink));
  ND_TRY(writer->open(compression_level));
  return std::unique_ptr<TreeWriter>(std::move(writer));
}

bool is_tar_gz_path(std::string_view path) {
  const auto ends = [&](std::string_view suffix) {
    return path.size() > suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  return ends(".tar.gz") || ends(".tgz");
}

}  // namespace netdoctor
