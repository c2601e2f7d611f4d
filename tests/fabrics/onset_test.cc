// Long incidents: a capture of 3 to 20 samples places each cause in time. The simulator starts a
// fault inside a chosen interval (--onset K); the diagnosis must say it began there (not before:
// the intervals before it are quiet; not after: it shows from K on), report the deciding figure
// per interval, and say "before the capture" when the fault predates the first sample. Two
// samples hold one interval only: no onset is claimed. A fault of configuration never gets an
// onset inside the capture (its figures do not move between samples).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/fabrics/sim_bundle.h"
#include "tests/fabrics/sim_diagnosis.h"

namespace netdoctor::engine {
namespace {

using netdoctor::testing::diagnose_sim;
using netdoctor::testing::SimBundle;
using netdoctor::testing::simulate;

struct OnsetCase {
  std::string name;
  std::string flags;
  std::size_t samples = 0;
  std::size_t onset = 0;  // 0: the fault predates the capture
};

void PrintTo(const OnsetCase& onset_case, std::ostream* out) {
  *out << onset_case.flags;
}

class FaultOnset : public ::testing::TestWithParam<OnsetCase> {};

TEST_P(FaultOnset, TheDiagnosisSaysInWhichIntervalTheFaultBegan) {
  const OnsetCase& c = GetParam();
  const std::string flags = c.flags + " --samples " + std::to_string(c.samples) +
                            (c.onset > 0 ? " --onset " + std::to_string(c.onset) : "");
  const SimBundle bundle = simulate("onset-" + c.name, flags);
  ASSERT_FALSE(bundle.expected.is_null()) << flags;
  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = flags + "\n" + render_text(*diagnosis);
  ASSERT_FALSE(diagnosis->causes.empty()) << text;
  const RankedCause& top = diagnosis->causes.front();
  ASSERT_EQ(top.id, bundle.expected.at("cause").get<std::string>()) << text;
  ASSERT_TRUE(top.onset.has_value()) << text;
  const Onset& onset = *top.onset;
  EXPECT_EQ(onset.intervals, c.samples - 1) << text;
  ASSERT_EQ(onset.timeline.size(), c.samples - 1) << text;
  const std::size_t began = c.onset > 0 ? c.onset : 1;
  EXPECT_EQ(onset.interval, began) << text;
  EXPECT_EQ(onset.before_capture(), c.onset == 0) << text;
  for (const IntervalReading& reading : onset.timeline) {
    EXPECT_EQ(reading.shows, reading.interval >= began) << "interval " << reading.interval << "\n"
                                                        << text;
    EXPECT_LT(reading.from, reading.to) << text;
    if (reading.shows) {
      EXPECT_TRUE(reading.value.has_value()) << "interval " << reading.interval << "\n" << text;
    }
  }
  // The onset interval's bounds are its own in the timeline, and the intervals follow each other.
  EXPECT_EQ(onset.from, onset.timeline[began - 1].from);
  EXPECT_EQ(onset.to, onset.timeline[began - 1].to);
  for (std::size_t i = 1; i < onset.timeline.size(); ++i) {
    EXPECT_EQ(onset.timeline[i].from, onset.timeline[i - 1].to);
  }
  // Every rendering says it.
  const nlohmann::json json = to_json(*diagnosis);
  const nlohmann::json& out = json.at("causes").at(0).at("onset");
  EXPECT_EQ(out.at("interval").get<std::size_t>(), began);
  EXPECT_EQ(out.at("before_capture").get<bool>(), c.onset == 0);
  EXPECT_EQ(out.at("timeline").size(), c.samples - 1);
  EXPECT_NE(text.find("Began: "), std::string::npos) << text;
  EXPECT_NE(render_markdown(*diagnosis).find("**Began**"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    LongCaptures, FaultOnset,
    ::testing::Values(
        OnsetCase{"pfc-storm-mid", "--hosts 16 --nics 2 --fault pfc-storm --seed 3", 8, 5},
        OnsetCase{"pfc-storm-last", "--hosts 12 --nics 2 --fault pfc-storm --seed 5", 5, 4},
        OnsetCase{"pfc-storm-before", "--hosts 12 --nics 2 --fault pfc-storm --seed 7", 4, 0},
        OnsetCase{"link-errors", "--hosts 16 --nics 2 --fault link-errors --seed 2", 6, 3},
        OnsetCase{"buffer-exhaustion", "--hosts 16 --nics 2 --fault buffer-exhaustion --seed 4", 7,
                  4},
        OnsetCase{"ib-link-errors",
                  "--hosts 16 --nics 4 --fabric ib --ib-speed ndr --fault link-errors --seed 2", 6,
                  3},
        OnsetCase{"twenty-samples", "--hosts 8 --nics 2 --fault pfc-storm --seed 9", 20, 13}),
    [](const ::testing::TestParamInfo<OnsetCase>& info) {
      std::string name = info.param.name;
      for (char& ch : name) {
        ch = ch == '-' ? '_' : ch;
      }
      return name;
    });

TEST(FaultOnset, TwoSamplesHoldOneIntervalAndClaimNoOnset) {
  const SimBundle bundle = simulate("onset-two", "--hosts 8 --nics 2 --fault pfc-storm --seed 3");
  ASSERT_FALSE(bundle.expected.is_null());
  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok());
  ASSERT_FALSE(diagnosis->causes.empty());
  EXPECT_FALSE(diagnosis->causes.front().onset.has_value()) << render_text(*diagnosis);
  EXPECT_EQ(render_text(*diagnosis).find("Began: "), std::string::npos);
}

// Twenty samples, the storm in the last interval only: the whole window averages it down to a
// nineteenth; the diagnosis judges it at its present rate, from the latest interval, and says so.
TEST(FaultOnset, AStormOfTheLastOfTwentySamplesIsJudgedAtItsPresentRate) {
  const SimBundle bundle = simulate(
      "onset-latest", "--hosts 8 --nics 2 --fault pfc-storm --seed 3 --samples 20 --onset 19");
  ASSERT_FALSE(bundle.expected.is_null());
  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = render_text(*diagnosis);
  ASSERT_FALSE(diagnosis->causes.empty()) << text;
  const RankedCause& top = diagnosis->causes.front();
  ASSERT_EQ(top.id, "pfc-storm") << text;
  ASSERT_FALSE(top.entities.empty()) << text;
  EXPECT_EQ(top.entities.front(), bundle.expected.at("culprits_any").at(0).get<std::string>())
      << text;
  ASSERT_TRUE(top.onset.has_value()) << text;
  EXPECT_EQ(top.onset->interval, 19u) << text;
  const EvidenceItem* latest = nullptr;
  const EvidenceItem* window = nullptr;
  for (const EvidenceItem& item : top.evidence) {
    if (item.signal != "pfc-storm-origin" || !item.value) {
      continue;
    }
    const EvidenceItem*& slot =
        item.summary.find("in the latest interval") != std::string::npos ? latest : window;
    if (slot == nullptr) {
      slot = &item;
    }
  }
  ASSERT_NE(latest, nullptr) << text;
  ASSERT_NE(window, nullptr) << text;
  // The latest interval holds all of the storm, the window a nineteenth of it (and some noise).
  EXPECT_GT(*latest->value, 10.0 * *window->value) << text;
  EXPECT_EQ(&top.evidence.front(), latest) << "the present rate weighs most\n" << text;
}

TEST(FaultOnset, AFaultOfConfigurationIsNeverPlacedInsideTheCapture) {
  const SimBundle bundle =
      simulate("onset-mtu", "--hosts 8 --nics 2 --fault mtu-mismatch --seed 3 --samples 5");
  ASSERT_FALSE(bundle.expected.is_null());
  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok());
  ASSERT_FALSE(diagnosis->causes.empty());
  for (const RankedCause& cause : diagnosis->causes) {
    if (cause.onset) {
      EXPECT_TRUE(cause.onset->before_capture()) << render_text(*diagnosis);
    }
  }
}

}  // namespace
}  // namespace netdoctor::engine
