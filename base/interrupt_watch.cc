#include "base/interrupt_watch.h"

#include <pthread.h>

#include <ctime>

namespace netdoctor {
namespace {

sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

InterruptWatch::InterruptWatch() {
  const sigset_t set = watched();
  ::pthread_sigmask(SIG_BLOCK, &set, &m_previous);
  m_watcher = std::thread([this, set] {
    const timespec tick{0, 100'000'000};  // how soon the watcher notices it is no longer needed
    while (!m_done.load()) {
      if (::sigtimedwait(&set, nullptr, &tick) > 0) {
        m_interrupted.store(true);
      }
    }
  });
}

InterruptWatch::~InterruptWatch() {
  m_done.store(true);
  m_watcher.join();
  ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
}

}  // namespace netdoctor
