#include "base/whole_number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace netdoctor {
namespace {

TEST(WholeCount, RoundsFiniteValuesInRange) {
  EXPECT_EQ(whole_count(0.0), 0u);
  EXPECT_EQ(whole_count(-0.4), 0u);
  EXPECT_EQ(whole_count(2.5), 3u);
  EXPECT_EQ(whole_count(1e15), 1'000'000'000'000'000u);
  // The largest double below 2^64 still converts.
  EXPECT_EQ(whole_count(std::nextafter(18446744073709551616.0, 0.0)), 18446744073709549568u);
}

TEST(WholeCount, RefusesWhatNoCounterHolds) {
  EXPECT_FALSE(whole_count(-1.0));
  EXPECT_FALSE(whole_count(-4.1596e6));  // the perftest fuzz finding
  EXPECT_FALSE(whole_count(18446744073709551616.0));
  EXPECT_FALSE(whole_count(1e300));
  EXPECT_FALSE(whole_count(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(whole_count(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(whole_count(-std::numeric_limits<double>::infinity()));
}

}  // namespace
}  // namespace netdoctor
