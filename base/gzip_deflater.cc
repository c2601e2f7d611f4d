#include "base/gzip_deflater.h"

#include <zlib.h>

#include <vector>

#ifdef NETDOCTOR_WITH_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace netdoctor {
namespace {

// Compressed bytes reach the sink in blocks of this size (and at the end of each member).
constexpr std::size_t k_output_block = 256 * 1024;

// The loop both libraries share: input consumed in steps, the output buffer handed over
// whenever it fills and at the end of each member.
class BufferedDeflater : public GzipDeflater {
 public:
  Status write(std::string_view input, const ByteSink& emit) final {
    m_in_member = m_in_member || !input.empty();
    set_input(input);
    while (input_left() > 0) {
      if (output_left() == 0) {
        ND_TRY(flush(emit));
      }
      bool ended = false;
      ND_TRY(step(false, ended));
    }
    return {};
  }

  Status end_member(const ByteSink& emit) final {
    if (!m_in_member) {
      return {};
    }
    set_input({});
    for (bool ended = false; !ended;) {
      if (output_left() == 0) {
        ND_TRY(flush(emit));
      }
      ND_TRY(step(true, ended));
    }
    ND_TRY(flush(emit));
    next_member();
    m_in_member = false;
    return {};
  }

 protected:
  BufferedDeflater() : m_output(k_output_block) {}
  char* output() { return m_output.data(); }
  std::size_t output_size() const { return m_output.size(); }

 private:
  virtual void set_input(std::string_view input) = 0;
  virtual std::size_t input_left() const = 0;
  virtual std::size_t output_left() const = 0;
  virtual void reset_output() = 0;  // the whole buffer free again
  // One call of the library; `ended` once the member's trailer is out (only when finishing).
  virtual Status step(bool finish, bool& ended) = 0;
  virtual void next_member() = 0;  // ready for the next member, same settings

  Status flush(const ByteSink& emit) {
    const std::size_t used = m_output.size() - output_left();
    reset_output();
    return used == 0 ? Status{} : emit(std::string_view(m_output.data(), used));
  }

  bool m_in_member = false;
  std::vector<char> m_output;
};

class ZlibDeflater final : public BufferedDeflater {
 public:
  ~ZlibDeflater() override {
    if (m_started) {
      deflateEnd(&m_stream);
    }
  }
  ZlibDeflater() = default;
  ZlibDeflater(const ZlibDeflater&) = delete;
  ZlibDeflater& operator=(const ZlibDeflater&) = delete;

  Status open(int level) {
    // 15 + 16: a gzip wrapper (header with mtime 0, trailer) around the deflate data.
    if (deflateInit2(&m_stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return make_error(ErrorCode::Internal, "zlib initialisation failed");
    }
    m_started = true;
    reset_output();
    return {};
  }

 private:
  void set_input(std::string_view input) override {
    m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    m_stream.avail_in = static_cast<uInt>(input.size());
  }
  std::size_t input_left() const override { return m_stream.avail_in; }
  std::size_t output_left() const override { return m_stream.avail_out; }
  void reset_output() override {
    m_stream.next_out = reinterpret_cast<Bytef*>(output());
    m_stream.avail_out = static_cast<uInt>(output_size());
  }
  Status step(bool finish, bool& ended) override {
    const int rc = deflate(&m_stream, finish ? Z_FINISH : Z_NO_FLUSH);
    ended = rc == Z_STREAM_END;
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      return make_error(ErrorCode::Internal, "zlib deflate failed");
    }
    return {};
  }
  void next_member() override { deflateReset(&m_stream); }

  z_stream m_stream{};
  bool m_started = false;
};

#ifdef NETDOCTOR_WITH_ISAL
class IsalDeflater final : public BufferedDeflater {
 public:
  IsalDeflater() : m_level_buffer(ISAL_DEF_LVL1_DEFAULT) {
    isal_deflate_init(&m_stream);
    m_stream.level = 1;
    m_stream.level_buf = m_level_buffer.data();
    m_stream.level_buf_size = static_cast<std::uint32_t>(m_level_buffer.size());
    m_stream.gzip_flag = IGZIP_GZIP;
    m_stream.flush = NO_FLUSH;
    reset_output();
  }

 private:
  void set_input(std::string_view input) override {
    m_stream.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(input.data()));
    m_stream.avail_in = static_cast<std::uint32_t>(input.size());
  }
  std::size_t input_left() const override { return m_stream.avail_in; }
  std::size_t output_left() const override { return m_stream.avail_out; }
  void reset_output() override {
    m_stream.next_out = reinterpret_cast<std::uint8_t*>(output());
    m_stream.avail_out = static_cast<std::uint32_t>(output_size());
  }
  Status step(bool finish, bool& ended) override {
    m_stream.end_of_stream = finish ? 1 : 0;
    if (isal_deflate(&m_stream) != COMP_OK) {
      return make_error(ErrorCode::Internal, "ISA-L deflate failed");
    }
    ended = m_stream.internal_state.state == ZSTATE_END;
    return {};
  }
  // Keeps the level and its buffer; the wrapper is set again, as ISA-L marks its header written
  // by changing it (IGZIP_GZIP_NO_HDR), and a member after a reset would have none.
  void next_member() override {
    isal_deflate_reset(&m_stream);
    m_stream.gzip_flag = IGZIP_GZIP;
  }

  isal_zstream m_stream{};
  std::vector<std::uint8_t> m_level_buffer;
};
#endif

}  // namespace

Result<std::unique_ptr<GzipDeflater>> make_gzip_deflater(int level) {
  if (level < 1 || level > 9) {
    return make_error(ErrorCode::InvalidArgument, "compression level must be 1..9");
  }
#ifdef NETDOCTOR_WITH_ISAL
  if (level == 1) {
    return std::unique_ptr<GzipDeflater>(std::make_unique<IsalDeflater>());
  }
#endif
  auto zlib = std::make_unique<ZlibDeflater>();
  ND_TRY(zlib->open(level));
  return std::unique_ptr<GzipDeflater>(std::move(zlib));
}

}  // namespace netdoctor
