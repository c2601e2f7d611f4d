// link-margin: a link correcting far more bits than its fleet, or near the FEC limit, is named
// with its cable; idle links and a uniformly healthy fleet are not; a site can tighten the limit.
#include <gtest/gtest.h>

#include "model/entity_names.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

// Received bits per second of every healthy NIC in fabric_builder (14 GB/s).
constexpr double k_bits_per_s = 14e9 * 8.0;

void set_pre_fec_ber(model::Nic& nic, double ber) {
  set_rate(nic.samples, "fec_corrected_bits", -1, ber * k_bits_per_s, 1e7);
  set_rate(nic.samples, "rx_bits", -1, k_bits_per_s, 1e15);
}

TEST(LinkMargin, LinkFarAboveItsFleetIsNamedWithItsCable) {
  model::Fabric fabric = healthy_fleet();
  set_pre_fec_ber(nic_at(fabric, 2, 1), 3e-6);
  const auto result = run_probe("link-margin", fabric);
  const auto low = with_signal(result, "fec-margin-low");
  ASSERT_EQ(low.size(), 1u) << result.reason;
  const model::Nic& nic = nic_at(fabric, 2, 1);
  EXPECT_EQ(low[0].entities[0], nic.nic_entity());
  EXPECT_TRUE(names(low[0], model::link_entity(nic.netdev_entity(), nic.port_entity())))
      << low[0].entities.back();
  EXPECT_NE(low[0].summary.find("pre-FEC BER of 3e-06"), std::string::npos) << low[0].summary;
  EXPECT_NE(low[0].summary.find("below the 2.4e-05"), std::string::npos) << low[0].summary;
  EXPECT_GT(low[0].strength, 0.5);  // 10,000x its fleet: clear, though far from the limit
  EXPECT_TRUE(with_signal(result, "fec-margin-ok").empty());
}

TEST(LinkMargin, NearTheFecLimitIsAFindingWhateverTheFleetDoes) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 0; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      set_pre_fec_ber(nic_at(fabric, h, n), 5e-5);  // the whole fleet: no outlier
    }
  }
  const auto result = run_probe("link-margin", fabric);
  const auto low = with_signal(result, "fec-margin-low");
  EXPECT_EQ(low.size(), 32u);
  ASSERT_FALSE(low.empty());
  EXPECT_GE(low[0].strength, 0.9);
  EXPECT_NE(low[0].summary.find("at or above"), std::string::npos) << low[0].summary;
}

TEST(LinkMargin, IdleLinkSaysNothingAboutItsMargin) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& idle = nic_at(fabric, 0, 0);
  set_rate(idle.samples, "rx_bits", -1, 10.0, 1e3);  // 300 bits in the window
  set_rate(idle.samples, "fec_corrected_bits", -1, 1.0, 10.0);
  const auto result = run_probe("link-margin", fabric);
  EXPECT_TRUE(with_signal(result, "fec-margin-low").empty());
  ASSERT_EQ(with_signal(result, "fec-margin-ok").size(), 1u);
  EXPECT_NE(result.checked[0].find("31 links"), std::string::npos) << result.checked[0];
}

TEST(LinkMargin, ASiteCanTightenTheLimit) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 0; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      set_pre_fec_ber(nic_at(fabric, h, n), 3e-6);
    }
  }
  EXPECT_TRUE(with_signal(run_probe("link-margin", fabric), "fec-margin-low").empty());
  const auto strict = run_probe("link-margin", fabric, {}, {{"link-margin.max_pre_fec_ber", 1e-6}});
  EXPECT_EQ(with_signal(strict, "fec-margin-low").size(), 32u);
}

TEST(LinkMargin, NicsWithoutFecCountersArePartialCoverage) {
  model::Fabric fabric = healthy_fleet();
  remove_metric(nic_at(fabric, 7, 3).samples, "fec_corrected_bits");
  const auto result = run_probe("link-margin", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran);
  EXPECT_NE(result.reason.find("31 of 32 NICs"), std::string::npos) << result.reason;
}

}  // namespace
}  // namespace netdoctor::testing
