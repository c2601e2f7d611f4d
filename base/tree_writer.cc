#include "base/tree_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "base/tar_gz_encoder.h"

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

// A file written block by block (the encoder hands over 256 KiB at a time).
class FileSink {
 public:
  explicit FileSink(std::string path) : m_path(std::move(path)) {}
  ~FileSink() { (void)close_file(); }
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  Status open() {
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) {
      return make_error(ErrorCode::Io, "cannot open archive for writing: " + errno_text(), m_path);
    }
    return {};
  }

  Status write(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(m_fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        return make_error(ErrorCode::Io, "write failed: " + errno_text(), m_path);
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
  }

  Status close_file() {
    if (m_fd < 0) {
      return {};
    }
    const int rc = ::close(std::exchange(m_fd, -1));
    return rc == 0 ? Status{} : make_error(ErrorCode::Io, "close failed: " + errno_text(), m_path);
  }

 private:
  std::string m_path;
  int m_fd = -1;
};

// A .tar.gz to a file, to a sink, or (a piece) into a string without the end-of-archive blocks.
class TarGzTreeWriter final : public TreeWriter {
 public:
  enum class Kind { Archive, Piece };

  TarGzTreeWriter(ByteSink sink, std::string name, long long mtime, Kind kind,
                  std::unique_ptr<FileSink> file = {})
      : m_file(std::move(file)), m_encoder(std::move(sink), std::move(name), mtime), m_kind(kind) {}

  ~TarGzTreeWriter() override {
    if (!m_finished) {
      (void)finish();
    }
  }

  TarGzTreeWriter(const TarGzTreeWriter&) = delete;
  TarGzTreeWriter& operator=(const TarGzTreeWriter&) = delete;

  Status open(int compression_level) {
    if (compression_level < 1 || compression_level > 9) {
      return make_error(ErrorCode::InvalidArgument, "compression level must be 1..9",
                        m_encoder.name());
    }
    if (m_file) {
      ND_TRY(m_file->open());
    }
    return m_encoder.open(compression_level);
  }

  Status write_file(std::string_view path, std::string_view content) override {
    if (m_finished) {
      return make_error(ErrorCode::Internal, "write after finish", describe());
    }
    ND_TRY(check_path(path));
    return m_encoder.write_file(path, content);
  }

  bool takes_pieces() const override { return m_kind == Kind::Archive; }

  Status append_piece(std::string_view piece) override {
    if (m_finished || m_kind != Kind::Archive) {
      return TreeWriter::append_piece(piece);
    }
    return m_encoder.append_members(piece);
  }

  Status finish() override {
    if (m_finished) {
      return {};
    }
    m_finished = true;
    Status status = m_encoder.finish(m_kind == Kind::Archive);
    if (m_file) {
      Status closed = m_file->close_file();
      if (status.ok()) {
        status = closed;
      }
    }
    return status;
  }

  std::string describe() const override {
    switch (m_kind) {
      case Kind::Piece:
        return "archive piece " + m_encoder.name();
      case Kind::Archive:
        break;
    }
    return (m_file ? "archive " : "archive stream ") + m_encoder.name();
  }

 private:
  std::unique_ptr<FileSink> m_file;  // before the encoder: it outlives the encoder's last bytes
  TarGzEncoder m_encoder;
  Kind m_kind;
  bool m_finished = false;
};

Result<std::unique_ptr<TreeWriter>> open_tar_gz(std::unique_ptr<TarGzTreeWriter> writer,
                                                int compression_level) {
  ND_TRY(writer->open(compression_level));
  return std::unique_ptr<TreeWriter>(std::move(writer));
}

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
  auto file = std::make_unique<FileSink>(archive_path);
  FileSink* to = file.get();
  return open_tar_gz(std::make_unique<TarGzTreeWriter>(
                         [to](std::string_view bytes) { return to->write(bytes); }, archive_path,
                         mtime, TarGzTreeWriter::Kind::Archive, std::move(file)),
                     compression_level);
}

Result<std::unique_ptr<TreeWriter>> open_tar_gz_stream_writer(ByteSink sink, std::string name,
                                                              long long mtime,
                                                              int compression_level) {
  if (!sink) {
    return make_error(ErrorCode::InvalidArgument, "no sink for the archive stream", name);
  }
  return open_tar_gz(std::make_unique<TarGzTreeWriter>(std::move(sink), std::move(name), mtime,
                                                       TarGzTreeWriter::Kind::Archive),
                     compression_level);
}

Result<std::unique_ptr<TreeWriter>> open_tar_gz_piece_writer(std::string& piece, std::string name,
                                                             int compression_level,
                                                             long long mtime) {
  return open_tar_gz(std::make_unique<TarGzTreeWriter>(
                         [&piece](std::string_view bytes) {
                           piece.append(bytes);
                           return Status{};
                         },
                         std::move(name), mtime, TarGzTreeWriter::Kind::Piece),
                     compression_level);
}

Status TreeWriter::append_piece(std::string_view /*piece*/) {
  return make_error(ErrorCode::Unsupported, "only an archive takes archive pieces", describe());
}

bool is_tar_gz_path(std::string_view path) {
  const auto ends = [&](std::string_view suffix) {
    return path.size() > suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  return ends(".tar.gz") || ends(".tgz");
}

}  // namespace netdoctor
