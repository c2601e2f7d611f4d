#include "kb/probe_entry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/kb/registered.h"

namespace netdoctor::kb {
namespace {

using testing::embedded_entries;
using testing::registered;

// A probe as the registry would describe it, for entries written by the tests.
const KnownProbes& foo_probe() {
  static const KnownProbes probes = {
      {"foo", ProbeCost::Passive, {"foo-bad", "foo-ok"}, {"min_rate", "share"}}};
  return probes;
}

// A valid entry for `foo`; tests break one part of it at a time.
std::string foo_entry(const std::string& thresholds_extra = "", const std::string& tail = "") {
  return "probe = \"foo\"\n"                                        // 1
         "title = \"Foo\"\n"                                        // 2
         "window = \"read twice\"\n"                                // 3
         "healthy = \"under {min_rate}/s, share below {share}\"\n"  // 4
         "\n"                                                       // 5
         "[[threshold]]\n"                                          // 6
         "name = \"min_rate\"\n"                                    // 7
         "value = 100\n"                                            // 8
         "unit = \"frames/s\"\n"                                    // 9
         "why = \"noise below\"\n"                                  // 10
         "source = \"physics\"\n"                                   // 11
         "\n"                                                       // 12
         "[[threshold]]\n"                                          // 13
         "name = \"share\"\n"                                       // 14
         "value = 0.05\n"                                           // 15
         "unit = \"fraction\"\n"                                    // 16
         "why = \"5 % of the link\"\n"                              // 17
         "source = \"the article\"\n" +                             // 18
         thresholds_extra +
         "\n[[command]]\nside = \"host\"\nrun = \"ethtool -S <netdev>\"\nshows = \"counters\"\n"
         "\n[[signal]]\nid = \"foo-bad\"\nmeans = \"bad\"\nlook_for = \"a high rate\"\n"
         "\n[[signal.supports]]\ncause = \"pfc-storm\"\nweight = 2.0\nnote = \"why\"\n"
         "localizes = false\n"
         "\n[[signal]]\nid = \"foo-ok\"\nmeans = \"fine\"\nlook_for = \"nothing\"\n"
         "\n[[signal.against]]\ncause = \"pfc-storm\"\nweight = 3.0\n" +
         tail;
}

TEST(ProbeEntry, EveryRegisteredProbeHasAnEntryWithItsThresholdsExplained) {
  ProbeEntrySet entries = embedded_entries();
  ASSERT_EQ(entries.entries().size(), registered().size());
  ASSERT_FALSE(entries.fleet_thresholds().empty());
  std::set<std::string> settings;
  for (const Threshold* threshold : entries.all_thresholds()) {
    EXPECT_FALSE(threshold->why.empty()) << threshold->name;
    EXPECT_FALSE(threshold->source.empty()) << threshold->name;
    EXPECT_FALSE(threshold->unit.empty()) << threshold->name;
    EXPECT_TRUE(settings.insert(threshold->setting).second)
        << "two thresholds share the setting key " << threshold->setting;
  }
  EXPECT_EQ(settings.count("baseline.threshold"), 1u);
  EXPECT_EQ(settings.count("pfc-pause.min_pause_rate"), 1u);
  EXPECT_EQ(settings.count("fleet.outlier_min_z"), 1u);
}

TEST(ProbeEntry, ValidEntryParsesThresholdsSignalsAndWeights) {
  auto entry = parse_probe_entry(foo_entry(), "kb/probes/foo.toml", foo_probe());
  ASSERT_TRUE(entry.ok()) << entry.error().describe();
  ASSERT_EQ(entry->thresholds.size(), 2u);
  const Threshold* share = entry->threshold("share");
  ASSERT_NE(share, nullptr);
  EXPECT_DOUBLE_EQ(share->value, 0.05);
  EXPECT_EQ(share->kind(), ThresholdKind::Fraction);
  EXPECT_EQ(share->setting, "foo.share");
  EXPECT_EQ(share->line, 13);
  ASSERT_EQ(entry->signals.size(), 2u);
  EXPECT_EQ(entry->signals[0].id, "foo-bad");
  ASSERT_EQ(entry->signals[0].supports.size(), 1u);
  EXPECT_FALSE(entry->signals[0].supports[0].localizes);
  ASSERT_EQ(entry->signals[1].against.size(), 1u);
  EXPECT_DOUBLE_EQ(entry->signals[1].against[0].weight, 3.0);
}

TEST(ProbeEntry, AThresholdTheProbeJudgesByMustBeThere) {
  std::string text = foo_entry();
  text.replace(text.find("name = \"share\""), 14, "name = \"shares\"");
  auto entry = parse_probe_entry(text, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(entry.ok());
  EXPECT_NE(entry.error().message.find("'share'"), std::string::npos) << entry.error().message;
}

TEST(ProbeEntry, AThresholdTheProbeDoesNotDeclareIsRejectedWithItsLine) {
  auto entry = parse_probe_entry(
      foo_entry("\n[[threshold]]\nname = \"spare\"\nvalue = 1\nunit = \"count\"\nwhy = \"x\"\n"
                "source = \"y\"\n"),
      "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.error().context, "kb/probes/foo.toml:20");
  EXPECT_NE(entry.error().message.find("spare"), std::string::npos);
}

TEST(ProbeEntry, ValuesAreCheckedAgainstTheirUnit) {
  std::string fraction = foo_entry();
  fraction.replace(fraction.find("value = 0.05"), 12, "value = 5.0");
  auto wide = parse_probe_entry(fraction, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.error().context, "kb/probes/foo.toml:15");
  EXPECT_NE(wide.error().message.find("0..1"), std::string::npos);

  std::string count = foo_entry();
  count.replace(count.find("unit = \"frames/s\""), 17, "unit = \"count\"");
  count.replace(count.find("value = 100"), 11, "value = 2.5");
  auto fractional = parse_probe_entry(count, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(fractional.ok());
  EXPECT_NE(fractional.error().message.find("whole"), std::string::npos);

  std::string negative = foo_entry();
  negative.replace(negative.find("value = 100"), 11, "value = -1");
  EXPECT_FALSE(parse_probe_entry(negative, "kb/probes/foo.toml", foo_probe()).ok());
}

TEST(ProbeEntry, UnknownKeysAndSignalsAreRejectedWithFileAndLine) {
  auto key = parse_probe_entry(foo_entry("colour = \"red\"\n"), "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().context, "kb/probes/foo.toml:19");

  auto signal = parse_probe_entry(
      foo_entry("", "\n[[signal]]\nid = \"foo-worse\"\nmeans = \"m\"\nlook_for = \"l\"\n"),
      "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(signal.ok());
  EXPECT_NE(signal.error().message.find("foo-worse"), std::string::npos);

  std::string missing = foo_entry();
  missing.erase(missing.find("\n[[signal]]\nid = \"foo-ok\""));
  auto undescribed = parse_probe_entry(missing, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(undescribed.ok());
  EXPECT_NE(undescribed.error().message.find("foo-ok"), std::string::npos);
}

TEST(ProbeEntry, ACommandMayBeForOneKindOfFabricOnly) {
  std::string text = foo_entry();
  const std::string side = "side = \"host\"\n";
  text.insert(text.find(side) + side.size(), "fabric = \"ib\"\n");
  auto entry = parse_probe_entry(text, "kb/probes/foo.toml", foo_probe());
  ASSERT_TRUE(entry.ok()) << entry.error().describe();
  EXPECT_EQ(entry->commands.at(0).fabric, "ib");

  text.replace(text.find("fabric = \"ib\""), 13, "fabric = \"fc\"");
  auto unknown = parse_probe_entry(text, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown fabric 'fc'"), std::string::npos);
  EXPECT_EQ(unknown.error().context, "kb/probes/foo.toml:22");
}

TEST(ProbeEntry, NonPositiveWeightIsRejected) {
  std::string text = foo_entry();
  text.replace(text.find("weight = 2.0"), 12, "weight = 0.0");
  auto entry = parse_probe_entry(text, "kb/probes/foo.toml", foo_probe());
  ASSERT_FALSE(entry.ok());
  EXPECT_NE(entry.error().message.find("positive"), std::string::npos);
}

TEST(ProbeEntry, PlaceholdersMustNameAThresholdOrThePriority) {
  const std::string fleet =
      "[[threshold]]\nname = \"outlier_min_z\"\nvalue = 5\nunit = \"sigmas\"\nwhy = \"w\"\n"
      "source = \"s\"\n";
  std::string good = foo_entry();
  good.replace(good.find("look_for = \"a high rate\""), 24,
               "look_for = \"{outlier_min_z} sigmas on priority {prio}\"");
  auto loaded = ProbeEntrySet::load({{"kb/probes/foo.toml", good}, {"kb/probes/fleet.toml", fleet}},
                                    foo_probe());
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();

  std::string bad = foo_entry();
  bad.replace(bad.find("look_for = \"a high rate\""), 24, "look_for = \"above {min_rat}\"");
  auto rejected = ProbeEntrySet::load(
      {{"kb/probes/foo.toml", bad}, {"kb/probes/fleet.toml", fleet}}, foo_probe());
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.error().message.find("{min_rat}"), std::string::npos);
}

TEST(ProbeEntry, EveryRegisteredProbeAndTheFleetFileAreRequired) {
  auto without_fleet = ProbeEntrySet::load({{"kb/probes/foo.toml", foo_entry()}}, foo_probe());
  ASSERT_FALSE(without_fleet.ok());
  EXPECT_NE(without_fleet.error().message.find("fleet.toml"), std::string::npos);
  auto partial = ProbeEntrySet::load({}, foo_probe());
  ASSERT_FALSE(partial.ok());
  EXPECT_NE(partial.error().message.find("kb/probes/foo.toml"), std::string::npos);
}

TEST(ProbeEntry, FileNameMustBeTheProbeId) {
  auto entry = parse_probe_entry(foo_entry(), "kb/probes/bar.toml", foo_probe());
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.error().context, "kb/probes/bar.toml:1");
}

TEST(FillPlaceholders, PriorityAndNamedValuesLeaveTheRestAsWritten) {
  const auto value_of = [](std::string_view name) -> std::optional<std::string> {
    if (name == "min_rate") {
      return "100";
    }
    return std::nullopt;
  };
  EXPECT_EQ(fill_placeholders("tx_prio{prio}_pause above {min_rate}/s, {entity}", 4, value_of),
            "tx_prio4_pause above 100/s, {entity}");
  EXPECT_EQ(fill_placeholders("unclosed {prio", 4, value_of), "unclosed {prio");
}

}  // namespace
}  // namespace netdoctor::kb
