#include "runbook/manual.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/pipeline.h"
#include "probes/probe.h"

namespace netdoctor::runbook {
namespace {

const kb::KnownProbes& registered() {
  static const kb::KnownProbes probes = [] {
    probes::ProbeRegistry registry;
    probes::register_builtin_probes(registry);
    return engine::known_probes(registry);
  }();
  return probes;
}

kb::ProbeEntrySet embedded_entries() {
  auto entries = kb::ProbeEntrySet::load_embedded(registered());
  EXPECT_TRUE(entries.ok()) << entries.error().describe();
  return entries.ok() ? std::move(entries).value() : kb::ProbeEntrySet();
}

// A valid clock entry (the clock probe judges by thresholds: they are declared here too); tests
// break its command line.
std::string clock_entry(const std::string& run = "chronyc tracking") {
  std::string text =
      "probe = \"clock\"\n"  // line 1
      "title = \"t\"\n"      // 2
      "window = \"w\"\n"     // 3
      "healthy = \"h\"\n"    // 4
      "[[command]]\n"        // 5
      "side = \"host\"\n"    // 6
      "run = \"" +
      run +
      "\"\n"              // 7
      "shows = \"s\"\n";  // 8
  for (const auto& signal : kb::find_probe(registered(), "clock")->signals) {
    text += "[[signal]]\nid = \"" + signal + "\"\nmeans = \"m\"\nlook_for = \"x\"\n";
  }
  for (const auto& name : kb::find_probe(registered(), "clock")->thresholds) {
    text += "[[threshold]]\nname = \"" + name +
            "\"\nvalue = 1\nunit = \"seconds\"\nwhy = \"w\"\nsource = \"s\"\n";
  }
  return text;
}

Result<ProbeManual> clock_manual(const std::string& run = "chronyc tracking") {
  auto entry = kb::parse_probe_entry(clock_entry(run), "kb/probes/clock.toml", registered());
  EXPECT_TRUE(entry.ok()) << entry.error().describe();
  if (!entry.ok()) {
    return entry.error();
  }
  return manual_of(*entry);
}

TEST(Manual, EmbeddedEntriesGiveEveryRegisteredProbeAManual) {
  const auto entries = embedded_entries();
  auto set = ManualSet::from_entries(entries);
  ASSERT_TRUE(set.ok()) << set.error().describe();
  for (const auto& probe : registered()) {
    const ProbeManual* manual = set->find(probe.id);
    ASSERT_NE(manual, nullptr) << probe.id;
    EXPECT_FALSE(manual->commands.empty()) << probe.id;
    for (const auto& signal : probe.signals) {
      EXPECT_NE(manual->reading(signal), nullptr) << probe.id << " " << signal;
    }
  }
}

TEST(Manual, EveryEmbeddedCommandNamesKnownToolsAndFlags) {
  const auto entries = embedded_entries();
  auto set = ManualSet::from_entries(entries);
  ASSERT_TRUE(set.ok()) << set.error().describe();
  std::size_t checked = 0;
  for (const auto& manual : set->manuals()) {
    for (int prio : {0, 3, 7}) {
      for (const auto& command : filled(manual, TextFiller(prio, &entries)).commands) {
        auto forms = check_command_line(command.run);
        EXPECT_TRUE(forms.ok()) << manual.file << ":" << command.line;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40u);
}

TEST(Manual, ValidEntryGivesItsManual) {
  auto manual = clock_manual();
  ASSERT_TRUE(manual.ok()) << manual.error().describe();
  EXPECT_EQ(manual->commands.front().side, Side::Host);
  EXPECT_EQ(manual->readings.size(), kb::find_probe(registered(), "clock")->signals.size());
}

TEST(Manual, UnknownToolIsAnErrorAtTheCommand) {
  auto manual = clock_manual("timedatectl show-timesync");
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/probes/clock.toml:5");
  EXPECT_NE(manual.error().message.find("unknown tool 'timedatectl'"), std::string::npos);
}

TEST(Manual, UnknownFlagIsAnErrorAtTheCommand) {
  auto manual = clock_manual("chronyc -Q tracking");
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/probes/clock.toml:5");
  EXPECT_NE(manual.error().message.find("unknown flag '-Q'"), std::string::npos);
}

TEST(Manual, SwitchCommandOnTheHostSideIsAnError) {
  auto manual = clock_manual("show pfc counters");
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("switch side"), std::string::npos);
}

TEST(Manual, UnknownPlaceholderIsAnError) {
  auto manual = clock_manual("ethtool -S <interface>");
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("unknown placeholder '<interface>'"), std::string::npos);
}

TEST(Manual, TextsShowThePriorityAndTheThresholdsAsTheSiteRunsThem) {
  const auto entries = embedded_entries();
  const TextFiller kb_values(5, &entries);
  EXPECT_EQ(kb_values("tx_prio{prio}_pause above {min_pause_rate}/s", "pfc-pause"),
            "tx_prio5_pause above 100/s");
  EXPECT_EQ(kb_values("paused under {min_storm_share} of the window", "pfc-pause"),
            "paused under 1 % of the window");
  EXPECT_EQ(kb_values("{outlier_min_z} sigmas", "pfc-pause"), "5 sigmas");  // the fleet's
  probes::ThresholdBook tuned;
  tuned["pfc-pause"]["min_pause_rate"] = 250.0;
  const TextFiller site(3, &entries, tuned);
  EXPECT_EQ(site("above {min_pause_rate}/s on {prio}", "pfc-pause"), "above 250/s on 3");
}

}  // namespace
}  // namespace netdoctor::runbook
