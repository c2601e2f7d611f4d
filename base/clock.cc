#include "base/clock.h"

#include <thread>

namespace netdoctor {

double SystemClock::now_unix() const {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(now).count();
}

void SystemClock::sleep_for(std::chrono::milliseconds duration) {
  std::this_thread::sleep_for(duration);
}

}  // namespace netdoctor
