// Clock: wall time and sleeping, injectable so tests can advance time.
#pragma once

#include <chrono>

namespace netdoctor {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double now_unix() const = 0;  // seconds since the epoch, with fraction
  virtual void sleep_for(std::chrono::milliseconds duration) = 0;
};

class SystemClock final : public Clock {
 public:
  double now_unix() const override;
  void sleep_for(std::chrono::milliseconds duration) override;
};

class FakeClock final : public Clock {
 public:
  explicit FakeClock(double start = 1'700'000'000.0) : m_now(start) {}
  double now_unix() const override { return m_now; }
  void sleep_for(std::chrono::milliseconds duration) override {
    m_now += static_cast<double>(duration.count()) / 1000.0;
  }

 private:
  double m_now;
};

}  // namespace netdoctor
