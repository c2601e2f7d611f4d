#include "cli/terminal_stream.h"

#include "base/strings.h"

namespace netdoctor::cli {

TerminalTextBuf::~TerminalTextBuf() {
  const std::lock_guard lock(m_mutex);
  pass_all();
}

TerminalTextBuf::int_type TerminalTextBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) {
    return traits_type::not_eof(c);
  }
  const std::lock_guard lock(m_mutex);
  m_pending += traits_type::to_char_type(c);
  if (traits_type::to_char_type(c) == '\n') {
    pass_lines();
  }
  return c;
}

std::streamsize TerminalTextBuf::xsputn(const char* s, std::streamsize n) {
  const std::lock_guard lock(m_mutex);
  m_pending.append(s, static_cast<std::size_t>(n));
  pass_lines();
  return n;
}

int TerminalTextBuf::sync() {
  const std::lock_guard lock(m_mutex);
  pass_all();
  return m_target->pubsync();
}

void TerminalTextBuf::pass_lines() {
  // Whole lines only, so a UTF-8 sequence is never split between two passes.
  const std::size_t end = m_pending.rfind('\n');
  if (end == std::string::npos) {
    return;
  }
  const std::string text = terminal_text(std::string_view(m_pending).substr(0, end + 1));
  m_target->sputn(text.data(), static_cast<std::streamsize>(text.size()));
  m_pending.erase(0, end + 1);
}

void TerminalTextBuf::pass_all() {
  if (m_pending.empty()) {
    return;
  }
  const std::string text = terminal_text(m_pending);
  m_target->sputn(text.data(), static_cast<std::streamsize>(text.size()));
  m_pending.clear();
}

TerminalTextScope::TerminalTextScope(std::ostream& stream, bool active)
    : m_stream(stream), m_original(stream.rdbuf()), m_buf(m_original) {
  if (active) {
    m_stream.rdbuf(&m_buf);
  }
}

TerminalTextScope::~TerminalTextScope() {
  m_stream.rdbuf(m_original);  // m_buf, destroyed next, passes on what is pending
}

}  // namespace netdoctor::cli
