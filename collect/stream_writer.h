// Base64 for a capture streamed through a launcher (`collect --out - --base64`): the archive
// comes from base's open_tar_gz_stream_writer, and launchers that mangle binary output (pdsh
// relays output line by line and cuts at NUL bytes) get it as base64 text.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor::collect {

// Wraps `sink` so that bytes reach it as base64 lines of 76 characters; call finish() last.
class Base64Sink {
 public:
  explicit Base64Sink(ByteSink sink) : m_sink(std::move(sink)) {}
  Status write(std::string_view bytes);
  Status finish();

 private:
  Status emit(std::string_view text);
  ByteSink m_sink;
  std::string m_pending;  // fewer than 3 bytes not yet encoded
  std::size_t m_column = 0;
};

std::string encode_base64(std::string_view bytes);
// Whitespace is ignored; anything else outside the alphabet is Parse.
Result<std::string> decode_base64(std::string_view text);

}  // namespace netdoctor::collect
