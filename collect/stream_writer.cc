#include "collect/stream_writer.h"

#include <archive.h>
#include <archive_entry.h>

#include <array>
#include <set>

namespace netdoctor::collect {
namespace {

constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::size_t k_line = 76;

// No empty, "." or ".." component and no leading '/': nothing lands outside the archive root.
bool relative_file_path(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') {
    return false;
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) {
      end = path.size();
    }
    const std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    start = end + 1;
  }
  return true;
}

class TarGzStreamWriter final : public TreeWriter {
 public:
  TarGzStreamWriter(ByteSink sink, std::string name, long long mtime)
      : m_sink(std::move(sink)),
        m_name(std::move(name)),
        m_mtime(mtime),
        m_archive(archive_write_new()),
        m_entry(archive_entry_new()) {}

  ~TarGzStreamWriter() override {
    if (!m_finished) {
      (void)finish();
    }
    archive_entry_free(m_entry);
    archive_write_free(m_archive);
  }
  TarGzStreamWriter(const TarGzStreamWriter&) = delete;
  TarGzStreamWriter& operator=(const TarGzStreamWriter&) = delete;

  Status open() {
    if (m_archive == nullptr || m_entry == nullptr) {
      return make_error(ErrorCode::Internal, "libarchive allocation failed", m_name);
    }
    if (archive_write_add_filter_gzip(m_archive) != ARCHIVE_OK ||
        archive_write_set_format_pax_restricted(m_archive) != ARCHIVE_OK ||
        archive_write_set_options(m_archive, "gzip:compression-level=6,gzip:!timestamp") <
            ARCHIVE_WARN ||
        archive_write_open2(m_archive, this, nullptr, &TarGzStreamWriter::on_write, nullptr,
                            nullptr) != ARCHIVE_OK) {
      return failure("cannot start archive");
    }
    return {};
  }

  Status write_file(std::string_view path, std::string_view content) override {
    if (m_finished) {
      return make_error(ErrorCode::Internal, "write after finish", describe());
    }
    if (!relative_file_path(path)) {
      return make_error(ErrorCode::InvalidArgument, "not a relative file path", std::string(path));
    }
    const std::string name(path);
    for (auto slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
      if (m_dirs.insert(name.substr(0, slash)).second) {
        ND_TRY(header(name.substr(0, slash) + "/", AE_IFDIR, 0755, 0));
      }
    }
    ND_TRY(header(name, AE_IFREG, 0644, static_cast<la_int64_t>(content.size())));
    if (!content.empty() && archive_write_data(m_archive, content.data(), content.size()) < 0) {
      return failure("cannot write member data");
    }
    return {};
  }

  Status finish() override {
    if (m_finished) {
      return {};
    }
    m_finished = true;
    if (archive_write_close(m_archive) != ARCHIVE_OK) {
      return failure("cannot finish archive");
    }
    return m_sink_status;
  }

  std::string describe() const override { return "archive stream " + m_name; }

 private:
  static la_ssize_t on_write(struct archive* /*archive*/, void* self, const void* data,
                             size_t size) {
    auto* writer = static_cast<TarGzStreamWriter*>(self);
    Status status = writer->m_sink(std::string_view(static_cast<const char*>(data), size));
    if (!status.ok()) {
      writer->m_sink_status = status;
      return -1;
    }
    return static_cast<la_ssize_t>(size);
  }

  Status header(const std::string& name, unsigned type, int mode, la_int64_t size) {
    archive_entry_clear(m_entry);
    archive_entry_set_pathname(m_entry, name.c_str());
    archive_entry_set_filetype(m_entry, type);
    archive_entry_set_perm(m_entry, static_cast<__LA_MODE_T>(mode));
    archive_entry_set_size(m_entry, size);
    archive_entry_set_mtime(m_entry, static_cast<time_t>(m_mtime), 0);
    if (archive_write_header(m_archive, m_entry) != ARCHIVE_OK) {
      return failure("cannot write member header for " + name);
    }
    return {};
  }

  Error failure(const std::string& what) {
    if (!m_sink_status.ok()) {
      return m_sink_status.error();
    }
    const char* detail = archive_error_string(m_archive);
    return make_error(ErrorCode::Io, what + (detail != nullptr ? ": " + std::string(detail) : ""),
                      m_name);
  }

  ByteSink m_sink;
  std::string m_name;
  long long m_mtime;
  struct archive* m_archive;
  struct archive_entry* m_entry;
  std::set<std::string> m_dirs;
  Status m_sink_status;
  bool m_finished = false;
};

void encode_group(std::string_view three, std::string& out) {
  const auto byte = [&](std::size_t i) {
    return i < three.size() ? static_cast<unsigned>(static_cast<unsigned char>(three[i])) : 0u;
  };
  const unsigned value = (byte(0) << 16) | (byte(1) << 8) | byte(2);
  out += k_alphabet[(value >> 18) & 63];
  out += k_alphabet[(value >> 12) & 63];
  out += three.size() > 1 ? k_alphabet[(value >> 6) & 63] : '=';
  out += three.size() > 2 ? k_alphabet[value & 63] : '=';
}

}  // namespace

Result<std::unique_ptr<TreeWriter>> open_tar_gz_stream_writer(ByteSink sink, std::string name,
                                                              long long mtime) {
  auto writer = std::make_unique<TarGzStreamWriter>(std::move(sink), std::move(name), mtime);
  ND_TRY(writer->open());
  return std::unique_ptr<TreeWriter>(std::move(writer));
}

std::string encode_base64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    encode_group(bytes.substr(i, 3), out);
  }
  return out;
}

Result<std::string> decode_base64(std::string_view text) {
  std::array<int, 256> values{};
  values.fill(-1);
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) {
    values[static_cast<unsigned char>(k_alphabet[i])] = static_cast<int>(i);
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  unsigned accumulator = 0;
  int bits = 0;
  bool ended = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (c == '=') {
      ended = true;
      continue;
    }
    const int value = values[static_cast<unsigned char>(c)];
    if (value < 0 || ended) {
      return make_error(ErrorCode::Parse, "not base64 text");
    }
    accumulator = (accumulator << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((accumulator >> bits) & 0xFFu);
    }
  }
  return out;
}

Status Base64Sink::write(std::string_view bytes) {
  m_pending.append(bytes);
  const std::size_t whole = m_pending.size() / 3 * 3;
  if (whole == 0) {
    return {};
  }
  ND_TRY(emit(encode_base64(std::string_view(m_pending).substr(0, whole))));
  m_pending.erase(0, whole);
  return {};
}

Status Base64Sink::finish() {
  ND_TRY(emit(encode_base64(m_pending)));
  m_pending.clear();
  if (m_column > 0) {
    m_column = 0;
    return m_sink("\n");
  }
  return {};
}

Status Base64Sink::emit(std::string_view text) {
  std::string lines;
  lines.reserve(text.size() + text.size() / k_line + 1);
  for (char c : text) {
    lines += c;
    if (++m_column == k_line) {
      lines += '\n';
      m_column = 0;
    }
  }
  return lines.empty() ? Status{} : m_sink(lines);
}

}  // namespace netdoctor::collect
