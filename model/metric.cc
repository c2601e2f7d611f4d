#include "model/metric.h"

#include <fmt/format.h>

namespace netdoctor::model {

std::string MetricKey::to_string() const {
  return index < 0 ? name : fmt::format("{}[{}]", name, index);
}

std::optional<double> CounterSample::get(const MetricKey& key) const {
  return values.get(key.name, key.index);
}

const char* to_string(RateStatus status) {
  switch (status) {
    case RateStatus::Ok:
      return "ok";
    case RateStatus::SingleSample:
      return "single sample";
    case RateStatus::Reset:
      return "counter reset";
    case RateStatus::Absent:
      return "absent";
    case RateStatus::BadWindow:
      return "sample times do not increase";
  }
  return "unknown";
}

Rate rate_of(const std::vector<CounterSample>& samples, const MetricKey& key) {
  Rate rate;
  std::optional<double> first;
  std::optional<double> previous;
  double first_time = 0.0;
  double previous_time = 0.0;
  // Over the intervals where the counter did not go down; used only when one did.
  double kept_delta = 0.0;
  double kept_time = 0.0;
  for (const auto& sample : samples) {
    auto value = sample.get(key);
    if (!value) {
      rate.status = RateStatus::Absent;
      return rate;
    }
    if (!first) {
      first = value;
      first_time = sample.captured_at;
    } else if (*value < *previous) {
      ++rate.resets;
    } else {
      kept_delta += *value - *previous;
      kept_time += sample.captured_at - previous_time;
    }
    previous = value;
    previous_time = sample.captured_at;
  }
  if (!first) {
    return rate;  // no samples: Absent
  }
  rate.last = *previous;
  if (samples.size() < 2) {
    rate.status = RateStatus::SingleSample;
    return rate;
  }
  if (rate.resets == samples.size() - 1) {
    rate.status = RateStatus::Reset;
    return rate;
  }
  rate.window_s = rate.resets > 0 ? kept_time : samples.back().captured_at - first_time;
  if (rate.window_s <= 0.0) {
    rate.status = RateStatus::BadWindow;
    return rate;
  }
  rate.delta = rate.resets > 0 ? kept_delta : *previous - *first;
  rate.per_second = rate.delta / rate.window_s;
  rate.status = RateStatus::Ok;
  return rate;
}

}  // namespace netdoctor::model
