#include <gtest/gtest.h>

#include "model/metric.h"

namespace netdoctor::model {
namespace {

const MetricKey k_key{"pfc_rx_pause_frames", 3};

CounterSample sample(double at, std::optional<double> value) {
  CounterSample s;
  s.captured_at = at;
  if (value) {
    s.values[k_key] = *value;
  }
  return s;
}

TEST(RateOf, TwoSamplesGiveDeltaOverTime) {
  auto rate = rate_of({sample(100.0, 1000.0), sample(110.0, 1500.0)}, k_key);
  EXPECT_EQ(rate.status, RateStatus::Ok);
  EXPECT_DOUBLE_EQ(rate.delta, 500.0);
  EXPECT_DOUBLE_EQ(rate.window_s, 10.0);
  EXPECT_DOUBLE_EQ(rate.per_second, 50.0);
  EXPECT_DOUBLE_EQ(rate.last, 1500.0);
}

TEST(RateOf, CounterGoingDownIsAResetNotANegativeRate) {
  auto rate = rate_of({sample(0.0, 900.0), sample(10.0, 12.0)}, k_key);
  EXPECT_EQ(rate.status, RateStatus::Reset);
  EXPECT_FALSE(rate.ok());
  EXPECT_DOUBLE_EQ(rate.last, 12.0);
  EXPECT_EQ(rate.resets, 1u);
}

// A counter cleared inside a long capture (a driver reload) costs the interval it was cleared
// in, not the whole window: the rate comes from the intervals on either side, over their time.
TEST(RateOf, AResetInsideALongCaptureLeavesOutOnlyItsInterval) {
  auto rate = rate_of(
      {sample(0.0, 900.0), sample(5.0, 950.0), sample(10.0, 12.0), sample(20.0, 112.0)}, k_key);
  ASSERT_EQ(rate.status, RateStatus::Ok);
  EXPECT_EQ(rate.resets, 1u);
  EXPECT_DOUBLE_EQ(rate.delta, 150.0);    // 50 before the clear, 100 after
  EXPECT_DOUBLE_EQ(rate.window_s, 15.0);  // 5 s + 10 s; the 5 s holding the clear left out
  EXPECT_DOUBLE_EQ(rate.per_second, 10.0);
  EXPECT_DOUBLE_EQ(rate.last, 112.0);
}

TEST(RateOf, AResetInTheLastIntervalKeepsTheEarlierOnes) {
  auto rate = rate_of({sample(0.0, 900.0), sample(5.0, 950.0), sample(10.0, 12.0)}, k_key);
  ASSERT_EQ(rate.status, RateStatus::Ok);
  EXPECT_DOUBLE_EQ(rate.per_second, 10.0);
  EXPECT_DOUBLE_EQ(rate.window_s, 5.0);
  EXPECT_DOUBLE_EQ(rate.last, 12.0);
}

TEST(RateOf, ACounterGoingDownInEveryIntervalHasNoRate) {
  auto rate = rate_of({sample(0.0, 900.0), sample(5.0, 500.0), sample(10.0, 12.0)}, k_key);
  EXPECT_EQ(rate.status, RateStatus::Reset);
  EXPECT_EQ(rate.resets, 2u);
}

TEST(RateOf, WithoutADecreaseNothingIsLeftOut) {
  auto rate = rate_of({sample(0.0, 10.0), sample(5.0, 10.0), sample(10.0, 30.0)}, k_key);
  ASSERT_EQ(rate.status, RateStatus::Ok);
  EXPECT_EQ(rate.resets, 0u);
  EXPECT_DOUBLE_EQ(rate.window_s, 10.0);
  EXPECT_DOUBLE_EQ(rate.per_second, 2.0);
}

TEST(RateOf, SingleSampleKeepsOnlyTheAbsoluteValue) {
  auto rate = rate_of({sample(3.0, 42.0)}, k_key);
  EXPECT_EQ(rate.status, RateStatus::SingleSample);
  EXPECT_DOUBLE_EQ(rate.last, 42.0);
}

TEST(RateOf, CounterMissingInOneSampleIsAbsentNotZero) {
  EXPECT_EQ(rate_of({sample(0.0, 1.0), sample(1.0, std::nullopt)}, k_key).status,
            RateStatus::Absent);
  EXPECT_EQ(rate_of({sample(0.0, std::nullopt), sample(1.0, 5.0)}, k_key).status,
            RateStatus::Absent);
  EXPECT_EQ(rate_of({}, k_key).status, RateStatus::Absent);
}

TEST(RateOf, TimesThatDoNotIncreaseGiveBadWindow) {
  EXPECT_EQ(rate_of({sample(5.0, 1.0), sample(5.0, 2.0)}, k_key).status, RateStatus::BadWindow);
}

}  // namespace
}  // namespace netdoctor::model
