#include "model/interval_view.h"

#include <gtest/gtest.h>

#include "model/metric.h"

namespace netdoctor::model {
namespace {

const MetricKey k_pause{"pfc_tx_pause_frames", 3};

CounterSample sample(double at, double value) {
  CounterSample s;
  s.captured_at = at;
  s.values[k_pause] = value;
  return s;
}

// Host h0 with four samples 30 s apart (its pause counter still for two intervals, then
// climbing 600 a second); host h1 the same times skewed +1000 s; h2 the same as h0 plus 2 s;
// a switch with two samples only.
Fabric long_capture() {
  Fabric fabric;
  const double offsets[] = {0.0, 1000.0, 2.0};
  const char* names[] = {"h0", "h1", "h2"};
  for (int h = 0; h < 3; ++h) {
    Host host;
    host.name = names[h];
    Nic nic;
    nic.host = host.name;
    nic.device = "mlx5_0";
    const double base = 1000.0 + offsets[h];
    const double counts[] = {50.0, 50.0, 50.0, 18050.0};
    for (int k = 0; k < 4; ++k) {
      host.captured_at.push_back(base + 30.0 * k);
      nic.samples.push_back(sample(base + 30.0 * k, counts[k]));
    }
    host.nics.push_back(nic);
    fabric.hosts.push_back(host);
  }
  Switch sw;
  sw.name = "leaf1";
  sw.captured_at = {1000.5, 1030.5};
  SwitchPort port;
  port.name = "Ethernet0";
  port.samples = {sample(1000.5, 7.0), sample(1030.5, 9.0)};
  sw.ports.push_back(port);
  fabric.switches.push_back(sw);
  return fabric;
}

TEST(IntervalViews, CountIsTheLongestSeriesLessOne) {
  const Fabric fabric = long_capture();
  EXPECT_EQ(IntervalViews(fabric).count(), 3u);
  Fabric one;
  one.hosts.push_back(Host{});
  one.hosts.back().captured_at = {5.0};
  EXPECT_EQ(IntervalViews(one).count(), 0u);
}

TEST(IntervalViews, EachViewHoldsTheTwoSamplesThatBoundItsInterval) {
  const Fabric fabric = long_capture();
  const IntervalViews views(fabric);
  const Fabric second = views.view(2);
  ASSERT_EQ(second.hosts.size(), 3u);
  const Nic& nic = second.hosts[0].nics[0];
  ASSERT_EQ(nic.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(nic.samples[0].captured_at, 1030.0);
  EXPECT_DOUBLE_EQ(nic.samples[1].captured_at, 1060.0);
  EXPECT_EQ(second.hosts[0].captured_at, (std::vector<double>{1030.0, 1060.0}));
  EXPECT_EQ(rate_of(nic.samples, k_pause).per_second, 0.0);
  const Fabric third = views.view(3);
  const Rate climbing = rate_of(third.hosts[0].nics[0].samples, k_pause);
  ASSERT_TRUE(climbing.ok());
  EXPECT_DOUBLE_EQ(climbing.per_second, 600.0);
  // The whole window averages the interval's rate away: a third of it.
  EXPECT_DOUBLE_EQ(rate_of(fabric.hosts[0].nics[0].samples, k_pause).per_second, 200.0);
  // All else is the capture's: names, devices, the switch's own ports.
  EXPECT_EQ(third.hosts[1].name, "h1");
  EXPECT_EQ(third.hosts[1].nics[0].device, "mlx5_0");
  ASSERT_EQ(third.switches.size(), 1u);
  EXPECT_EQ(third.switches[0].ports[0].name, "Ethernet0");
}

TEST(IntervalViews, AMachineWithFewerSamplesHasNoneInALaterInterval) {
  const Fabric fabric = long_capture();
  const IntervalViews views(fabric);
  const Fabric first = views.view(1);
  EXPECT_EQ(first.switches[0].ports[0].samples.size(), 2u);
  const Fabric later = views.view(2);
  EXPECT_TRUE(later.switches[0].ports[0].samples.empty());
  EXPECT_TRUE(later.switches[0].captured_at.empty());
  EXPECT_EQ(rate_of(later.switches[0].ports[0].samples, k_pause).status, RateStatus::Absent);
}

TEST(IntervalViews, IntervalTimesAreTheFleetsMedianSoASkewedClockDoesNotMoveThem) {
  const Fabric fabric = long_capture();
  const IntervalViews views(fabric);
  EXPECT_DOUBLE_EQ(views.started_at(1), 1002.0);
  EXPECT_DOUBLE_EQ(views.ended_at(1), 1032.0);
  EXPECT_DOUBLE_EQ(views.started_at(3), 1062.0);
  EXPECT_DOUBLE_EQ(views.ended_at(3), 1092.0);
}

}  // namespace
}  // namespace netdoctor::model
