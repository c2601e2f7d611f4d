// The probe vocabulary is generated from the registry and the kb entries: every probe, signal
// and threshold appears, as the site runs it; nothing lists them by hand.
#include "runbook/probe_table.h"

#include <gtest/gtest.h>

#include "engine/thresholds.h"
#include "tests/support/run_netdoctor.h"

namespace netdoctor::runbook {
namespace {

const Library& library() {
  static const std::unique_ptr<Library> loaded = [] {
    auto result = load_library();
    EXPECT_TRUE(result.ok()) << result.error().describe();
    return result.ok() ? std::move(result).value() : std::make_unique<Library>();
  }();
  return *loaded;
}

probes::ThresholdBook kb_values(const engine::ThresholdSettings& site = {}) {
  return engine::resolve_thresholds(library().knowledge.entries, site);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ProbeTable, EveryRegisteredProbeSignalAndThresholdIsListed) {
  const auto rows = probe_rows(library(), kb_values());
  ASSERT_EQ(rows.size(), library().registry.all().size() + 1);  // and the fleet's
  const std::string markdown = render_probe_table_markdown(rows);
  const std::string text = render_probe_table_text(rows);
  for (const probes::Probe* probe : library().registry.all()) {
    EXPECT_TRUE(has(markdown, "| `" + probe->id() + "` | " + probes::to_string(probe->cost())))
        << probe->id();
    for (const auto& signal : probe->signals()) {
      EXPECT_TRUE(has(markdown, "`" + signal + "`")) << signal;
      EXPECT_TRUE(has(text, signal + ":")) << signal;
    }
    for (const auto& name : probe->spec().thresholds) {
      const kb::Threshold* threshold =
          library().knowledge.entries.find(probe->id())->threshold(name);
      ASSERT_NE(threshold, nullptr) << name;
      EXPECT_TRUE(has(markdown, "`" + threshold->setting + "`")) << threshold->setting;
    }
  }
  EXPECT_TRUE(has(markdown, "`fleet.outlier_min_z`"));
  EXPECT_TRUE(has(text, "weighs +5 pfc-storm")) << text;
}

TEST(ProbeTable, ShowsTheSitesValueBesideTheKbs) {
  const auto rows =
      probe_rows(library(), kb_values({{"pfc-pause.min_pause_rate", 250.0}}), "pfc-pause");
  ASSERT_EQ(rows.size(), 1u);
  const std::string text = render_probe_table_text(rows);
  EXPECT_TRUE(has(text, "pfc-pause.min_pause_rate = 250 frames/s (kb: 100 frames/s)")) << text;
  EXPECT_TRUE(has(text, "pfc-pause.storm_share = 50 %:")) << text;
  const auto json = probe_table_json(rows);
  EXPECT_EQ(json[0]["cost"], "passive");
  EXPECT_DOUBLE_EQ(json[0]["thresholds"][0]["value"].get<double>(), 250.0);
}

TEST(ProbeTable, PlaceholdersInMeaningsShowTheValue) {
  const auto rows = probe_rows(library(), kb_values(), "perftest-baseline");
  ASSERT_EQ(rows.size(), 1u);
  const std::string text = render_probe_table_text(rows);
  EXPECT_FALSE(has(text, "{deviation}")) << text;
  EXPECT_TRUE(has(text, "5 %")) << text;
}

TEST(ProbesCommand, UnknownProbeIsAUsageError) {
  const auto known =
      netdoctor::testing::run_netdoctor({"probes", "pfc-pause", "--format", "md"}, "");
  EXPECT_EQ(known.exit_code, 0) << known.err;
  EXPECT_TRUE(has(known.out, "`pfc-storm-origin`")) << known.out;
  const auto unknown = netdoctor::testing::run_netdoctor({"probes", "pfc-pauses"}, "");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(has(unknown.err, "unknown probe 'pfc-pauses'")) << unknown.err;
}

}  // namespace
}  // namespace netdoctor::runbook
