#include "collect/stream_writer.h"

#include <array>

namespace netdoctor::collect {
namespace {

constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::size_t k_line = 76;

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
