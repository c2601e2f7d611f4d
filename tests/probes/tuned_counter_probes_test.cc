// A site tunes the thresholds of the counter and clock probes (drops-buffers, ecn-cnp,
// retransmits, traffic-isolation, packet-size, clock, utilization-ecmp, perftest-baseline): each
// case sits on one side of the kb's value and moves to the other with the site's, so what the
// probe finds changes.
#include <gtest/gtest.h>

#include <string>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(TunedDropsBuffers, ASiteWithNoisierCountersRaisesTheDropFloor) {
  model::Fabric fabric = healthy_fleet();
  // 8 drops/s on the RoCE queue: far above the fleet (~0.02/s) and above the 1/s floor.
  set_rate(port_named(fabric, "leaf1", "Ethernet4").samples, "queue_drop_packets", 3, 8.0);
  EXPECT_EQ(with_signal(run_probe("drops-buffers", fabric), "lossless-queue-drops").size(), 1u);

  auto tuned = run_probe("drops-buffers", fabric, {}, {{"drops-buffers.min_drop_rate", 10.0}});
  EXPECT_TRUE(with_signal(tuned, "lossless-queue-drops").empty());
  EXPECT_EQ(with_signal(tuned, "drops-clear").size(), 1u);
}

TEST(TunedDropsBuffers, LossyQueueDropsKeepTheSiteShareOfTheirStrength) {
  model::Fabric fabric = healthy_fleet();
  set_rate(port_named(fabric, "leaf2", "Ethernet8").samples, "queue_drop_packets", 0, 900.0);
  auto lossy = with_signal(run_probe("drops-buffers", fabric), "lossy-queue-drops");
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_LE(lossy[0].strength, 0.5);

  auto full = with_signal(
      run_probe("drops-buffers", fabric, {}, {{"drops-buffers.lossy_drops_weight", 1.0}}),
      "lossy-queue-drops");
  ASSERT_EQ(full.size(), 1u);
  EXPECT_DOUBLE_EQ(full[0].strength, 2.0 * lossy[0].strength);
}

}  // namespace
}  // namespace netdoctor::testing
