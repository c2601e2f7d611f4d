// Ctrl-C as a flag that long commands poll, with no global state: while an InterruptWatch
// lives, SIGINT and SIGTERM are blocked in the thread that made it (and in every thread it
// starts afterwards) and a watcher thread takes them with sigtimedwait. Make it on the main
// thread before starting others; children started by LiveCommandRunner get the default mask.
#pragma once

#include <signal.h>

#include <atomic>
#include <thread>

namespace netdoctor {

class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  // Becomes true at the first SIGINT or SIGTERM and stays so.
  const std::atomic<bool>& flag() const { return m_interrupted; }
  bool interrupted() const { return m_interrupted.load(); }

 private:
  std::atomic<bool> m_interrupted{false};
  std::atomic<bool> m_done{false};
  sigset_t m_previous{};
  std::thread m_watcher;
};

}  // namespace netdoctor
