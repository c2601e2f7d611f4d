#include "base/archive_stream.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#ifdef NETDOCTOR_WITH_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace netdoctor {
namespace {

constexpr std::size_t k_read_block = std::size_t{1} << 20;
// Chunks handed to the reader: large enough that the queue is rarely touched, few enough ahead
// that memory stays small.
constexpr std::size_t k_chunk_bytes = std::size_t{1} << 20;
constexpr std::size_t k_chunks_ahead = 8;

std::string archive_message(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown archive error";
}

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveCloser>;

// libarchive: every decompressor; its "raw" format hands over what they yield as one entry,
// "empty" takes an empty file as an empty stream.
class LibarchiveSource final : public ArchiveStream::Source {
 public:
  static ArchivePtr new_reader() {
    ArchivePtr a(archive_read_new());
    archive_read_support_filter_all(a.get());
    archive_read_support_format_empty(a.get());
    archive_read_support_format_raw(a.get());
    return a;
  }

  static Result<std::unique_ptr<ArchiveStream::Source>> start(ArchivePtr a,
                                                              const std::string& shown) {
    archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(a.get(), &entry);
    if (rc < ARCHIVE_WARN) {
      return make_error(ErrorCode::Unsupported,
                        fmt::format("not a readable archive: {}", archive_message(a.get())), shown);
    }
    return std::unique_ptr<ArchiveStream::Source>(
        std::make_unique<LibarchiveSource>(std::move(a), rc == ARCHIVE_EOF));
  }

  LibarchiveSource(ArchivePtr a, bool empty) : m_archive(std::move(a)), m_ended(empty) {}

  Result<std::size_t> fill(char* out, std::size_t capacity) override {
    if (m_error) {
      return *m_error;
    }
    std::size_t used = 0;
    while (used < capacity) {
      if (m_left == 0) {
        if (m_ended) {
          break;
        }
        const void* block = nullptr;
        la_int64_t offset = 0;
        const int rc = archive_read_data_block(m_archive.get(), &block, &m_left, &offset);
        if (rc == ARCHIVE_EOF) {
          m_ended = true;
          m_left = 0;
          break;
        }
        if (rc < ARCHIVE_WARN) {
          m_left = 0;
          m_ended = true;
          m_error = make_error(ErrorCode::Io, archive_message(m_archive.get()));
          break;  // the bytes before the error first; the error on the next call
        }
        m_block = static_cast<const char*>(block);
        continue;
      }
      const std::size_t part = std::min(capacity - used, m_left);
      std::memcpy(out + used, m_block, part);
      m_block += part;
      m_left -= part;
      used += part;
    }
    return used;
  }

 private:
  ArchivePtr m_archive;
  const char* m_block = nullptr;  // libarchive's current block, valid until its next call
  std::size_t m_left = 0;
  bool m_ended;
  std::optional<Error> m_error;
};

bool gzip_magic(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

#ifdef NETDOCTOR_WITH_ISAL
// gzip through ISA-L's inflate, reading the file (or memory) in large blocks. Concatenated
// members are read one after the other, as zcat does; bytes after the last member that do not
// start another are ignored.
class IsalGzipSource final : public ArchiveStream::Source {
 public:
  // From `fd` (owned), or from `memory` when fd < 0.
  IsalGzipSource(int fd, std::string_view memory)
      : m_fd(fd), m_memory(memory), m_state(std::make_unique<inflate_state>()) {
    isal_inflate_init(m_state.get());
    m_state->crc_flag = ISAL_GZIP;
    if (m_fd >= 0) {
      m_input = std::make_unique_for_overwrite<unsigned char[]>(k_read_block);
    } else {
      m_input_ended = true;
      feed_memory();
    }
  }
  ~IsalGzipSource() override {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  IsalGzipSource(const IsalGzipSource&) = delete;
  IsalGzipSource& operator=(const IsalGzipSource&) = delete;

  Result<std::size_t> fill(char* out, std::size_t capacity) override {
    if (m_error) {
      return *m_error;
    }
    std::size_t used = 0;
    while (used < capacity && !m_done) {
      if (m_state->avail_in < 2 && !m_input_ended) {
        if (Status read = read_more(); !read.ok()) {
          return stop(read.error(), used);
        }
      }
      if (m_state->block_state == ISAL_BLOCK_FINISH) {
        const std::string_view next(reinterpret_cast<const char*>(m_state->next_in),
                                    m_state->avail_in);
        if (!gzip_magic(next)) {
          m_done = true;  // the end, or trailing bytes that are not another member
          break;
        }
        std::uint8_t* next_in = m_state->next_in;
        const std::uint32_t avail_in = m_state->avail_in;
        isal_inflate_reset(m_state.get());
        m_state->crc_flag = ISAL_GZIP;
        m_state->next_in = next_in;
        m_state->avail_in = avail_in;
      }
      m_state->next_out = reinterpret_cast<std::uint8_t*>(out + used);
      m_state->avail_out = static_cast<std::uint32_t>(capacity - used);
      const int rc = isal_inflate(m_state.get());
      const std::size_t produced = capacity - used - m_state->avail_out;
      used += produced;
      if (rc < 0) {
        return stop(make_error(ErrorCode::Io,
                               fmt::format("gzip decompression failed ({})",
                                           rc == ISAL_INCORRECT_CHECKSUM ? "checksum mismatch"
                                                                         : "corrupt deflate data")),
                    used);
      }
      if (m_fd < 0 && m_state->avail_in == 0) {
        feed_memory();
      }
      if (produced == 0 && m_state->block_state != ISAL_BLOCK_FINISH && m_state->avail_in == 0 &&
          m_input_ended) {
        return stop(make_error(ErrorCode::Io, "truncated gzip input"), used);
      }
    }
    return used;
  }

 private:
  // The bytes before the error first; the error on the next call.
  Result<std::size_t> stop(Error error, std::size_t used) {
    m_done = true;
    m_error = std::move(error);
    if (used > 0) {
      return used;
    }
    return *m_error;
  }

  // Keeps the unread bytes (at most a few) at the front and reads after them.
  Status read_more() {
    if (m_fd < 0) {
      feed_memory();
      return {};
    }
    const std::size_t kept = m_state->avail_in;
    if (kept > 0) {
      std::memmove(m_input.get(), m_state->next_in, kept);
    }
    std::size_t filled = kept;
    while (filled < k_read_block) {
      const ssize_t n = ::read(m_fd, m_input.get() + filled, k_read_block - filled);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        return make_error(ErrorCode::Io, std::error_code(errno, std::generic_category()).message());
      }
      if (n == 0) {
        m_input_ended = true;
        break;
      }
      filled += static_cast<std::size_t>(n);
    }
    m_state->next_in = m_input.get();
    m_state->avail_in = static_cast<std::uint32_t>(filled);
    return {};
  }

  // In memory the input is contiguous: the window only grows (avail_in is 32-bit).
  void feed_memory() {
    const auto* base = reinterpret_cast<const std::uint8_t*>(m_memory.data());
    const std::size_t at =
        m_state->next_in == nullptr ? 0 : static_cast<std::size_t>(m_state->next_in - base);
    const std::size_t rest = m_memory.size() - at;
    m_state->next_in = const_cast<std::uint8_t*>(base + at);  // ISA-L never writes its input
    m_state->avail_in = static_cast<std::uint32_t>(std::min<std::size_t>(rest, 1u << 30));
  }

  int m_fd;
  std::string_view m_memory;
  std::unique_ptr<inflate_state> m_state;
  std::unique_ptr<unsigned char[]> m_input;
  bool m_input_ended = false;
  bool m_done = false;
  std::optional<Error> m_error;
};
#endif

}  // namespace

ArchiveStream::ArchiveStream(std::unique_ptr<Source> source) : m_source(std::move(source)) {}

ArchiveStream::~ArchiveStream() {
  {
    const std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  if (m_producer.joinable()) {
    m_producer.join();
  }
}

std::unique_ptr<ArchiveStream> ArchiveStream::start(std::unique_ptr<Source> source) {
  std::unique_ptr<ArchiveStream> stream(new ArchiveStream(std::move(source)));
  stream->m_producer = std::thread([raw = stream.get()] { raw->produce(); });
  return stream;
}

Result<std::unique_ptr<ArchiveStream>> ArchiveStream::open_file(const std::string& path) {
#ifdef NETDOCTOR_WITH_ISAL
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char head[2] = {};
    if (::pread(fd, head, sizeof(head), 0) == 2 && gzip_magic(std::string_view(head, 2))) {
      return start(std::make_unique<IsalGzipSource>(fd, std::string_view{}));
    }
    ::close(fd);
  }
#endif
  ArchivePtr a = LibarchiveSource::new_reader();
  if (archive_read_open_filename(a.get(), path.c_str(), k_read_block) != ARCHIVE_OK) {
    const int error = archive_errno(a.get());
    const ErrorCode code = error == ENOENT   ? ErrorCode::NotFound
                           : error == EACCES ? ErrorCode::PermissionDenied
                                             : ErrorCode::Unsupported;
    return make_error(code, archive_message(a.get()), path);
  }
  ND_TRY_ASSIGN(auto source, LibarchiveSource::start(std::move(a), path));
  return start(std::move(source));
}

Result<std::unique_ptr<ArchiveStream>> ArchiveStream::open_memory(std::string_view data,
                                                                  const std::string& name) {
#ifdef NETDOCTOR_WITH_ISAL
  if (gzip_magic(data)) {
    return start(std::make_unique<IsalGzipSource>(-1, data));
  }
#endif
  ArchivePtr a = LibarchiveSource::new_reader();
  if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) {
    return make_error(ErrorCode::Unsupported, archive_message(a.get()), name);
  }
  ND_TRY_ASSIGN(auto source, LibarchiveSource::start(std::move(a), name));
  return start(std::move(source));
}

void ArchiveStream::produce() {
  for (;;) {
    Chunk chunk;
    {
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [this] { return m_stop || m_ready.size() < k_chunks_ahead; });
      if (m_stop) {
        return;
      }
      if (!m_spare.empty()) {
        chunk = std::move(m_spare.back());
        m_spare.pop_back();
      }
    }
    if (!chunk.bytes) {
      chunk.bytes = std::make_unique_for_overwrite<char[]>(k_chunk_bytes);
    }
    // A short fill is not the end (an error may follow the bytes before it): only 0 is.
    auto filled = m_source->fill(chunk.bytes.get(), k_chunk_bytes);
    const bool ended = !filled.ok() || *filled == 0;
    chunk.size = filled.ok() ? *filled : 0;
    {
      const std::lock_guard lock(m_mutex);
      if (chunk.size > 0) {
        m_ready.push_back(std::move(chunk));
      }
      if (ended) {
        if (!filled.ok()) {
          m_error = filled.error().message;
          m_failed = true;
        }
        m_done = true;
      }
    }
    m_changed.notify_all();
    if (ended) {
      return;
    }
  }
}

Result<std::string_view> ArchiveStream::next_block() {
  std::unique_lock lock(m_mutex);
  if (m_current.bytes) {
    m_spare.push_back(std::move(m_current));
    m_current = Chunk{};
  }
  m_changed.wait(lock, [this] { return !m_ready.empty() || m_done; });
  if (!m_ready.empty()) {
    m_current = std::move(m_ready.front());
    m_ready.pop_front();
    lock.unlock();
    m_changed.notify_all();
    return std::string_view(m_current.bytes.get(), m_current.size);
  }
  if (m_failed) {
    return make_error(ErrorCode::Io, m_error);
  }
  return std::string_view{};
}

}  // namespace netdoctor
