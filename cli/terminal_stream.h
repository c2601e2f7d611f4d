// Text for a terminal, whatever a command writes: while a TerminalTextScope lives, what the
// stream receives is passed on a line at a time through terminal_text() (base/strings.h), so a
// host, file or port name from a bundle written elsewhere never reaches the terminal as an
// escape sequence. '\n' and '\t' pass as they are: ordinary text is byte-for-byte unchanged.
// For text only: JSON, Markdown and archives are written without it.
#pragma once

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace netdoctor::cli {

class TerminalTextBuf : public std::streambuf {
 public:
  explicit TerminalTextBuf(std::streambuf* target) : m_target(target) {}
  ~TerminalTextBuf() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void pass_lines();  // REQUIRES: m_mutex held
  void pass_all();    // REQUIRES: m_mutex held

  std::streambuf* m_target;
  std::mutex m_mutex;     // progress callbacks may write from worker threads
  std::string m_pending;  // bytes after the last '\n' passed on
};

// Points `stream` at a TerminalTextBuf for its lifetime, then back at its own buffer (what is
// pending is passed on first). With `active` false it does nothing (a JSON branch).
class TerminalTextScope {
 public:
  explicit TerminalTextScope(std::ostream& stream, bool active = true);
  ~TerminalTextScope();
  TerminalTextScope(const TerminalTextScope&) = delete;
  TerminalTextScope& operator=(const TerminalTextScope&) = delete;

 private:
  std::ostream& m_stream;
  std::streambuf* m_original;
  TerminalTextBuf m_buf;
};

}  // namespace netdoctor::cli
