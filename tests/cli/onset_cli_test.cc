// A long incident end to end through the real binary: a capture of six samples whose PFC storm
// begins in interval 3 is diagnosed into a database; the incident then says when the fault began
// (`incident show`), and its postmortem places the onset on the timeline, before the diagnosis.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;

netdoctor::testing::RunOutput netdoctor(const std::vector<std::string>& args) {
  return netdoctor::testing::run_netdoctor(args, netdoctor::testing::RunOptions{});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OnsetCli, TheIncidentAndItsPostmortemSayWhenTheFaultBegan) {
  const std::string dir = make_temp_dir("onset-cli");
  const std::string bundle = dir + "/long.tar.gz";
  const std::string db = dir + "/nd.db";
  auto sim = netdoctor({"sim", "--hosts", "8", "--nics", "2", "--seed", "3", "--fault", "pfc-storm",
                        "--samples", "6", "--onset", "3", "--out", bundle});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;

  auto diagnose = netdoctor(
      {"diagnose", "--bundle", bundle, "--symptom", "slowdown", "--db", db, "--format", "json"});
  ASSERT_EQ(diagnose.exit_code, 0) << diagnose.err;
  const auto json = nlohmann::json::parse(diagnose.out);
  const auto& onset = json.at("causes").at(0).at("onset");
  EXPECT_EQ(onset.at("interval"), 3);
  EXPECT_EQ(onset.at("intervals"), 5);
  EXPECT_FALSE(onset.at("before_capture").get<bool>());
  const std::string began_from = onset.at("from").get<std::string>();

  auto show = netdoctor({"incident", "show", "1", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(has(show.out, "began in interval 3 of 5")) << show.out;

  auto exported = netdoctor({"incident", "export", "1", "--db", db, "--format", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto postmortem = nlohmann::json::parse(exported.out);
  std::vector<std::string> kinds;
  std::string onset_text;
  for (const auto& event : postmortem.at("timeline")) {
    kinds.push_back(event.at("kind").get<std::string>());
    if (kinds.back() == "onset") {
      onset_text = event.dump();
    }
  }
  // The fault began before anyone diagnosed it: the onset comes first after the opening.
  ASSERT_FALSE(onset_text.empty()) << exported.out;
  EXPECT_TRUE(has(onset_text, "pfc-storm began at nic:")) << onset_text;
  EXPECT_TRUE(has(onset_text, "interval 3 of 5")) << onset_text;
  EXPECT_TRUE(has(onset_text, began_from)) << onset_text;
  const auto at = [&kinds](const std::string& kind) {
    return std::find(kinds.begin(), kinds.end(), kind) - kinds.begin();
  };
  EXPECT_LT(at("onset"), at("diagnosis")) << exported.out;
}

}  // namespace
}  // namespace netdoctor::cli
