#include "runbook/manual.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/pipeline.h"
#include "probes/probe.h"

namespace netdoctor::runbook {
namespace {

kb::KnownProbes registered() {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  return engine::known_probes(registry);
}

// A valid clock manual; tests break one line of it at a time.
std::string clock_manual(const std::string& run = "chronyc tracking",
                         const std::string& extra = "") {
  return "probe = \"clock\"\n"  // line 1
         "title = \"t\"\n"      // 2
         "window = \"w\"\n"     // 3
         "healthy = \"h\"\n" +  // 4
         extra +                //
         "[[command]]\n"        // 5
         "side = \"host\"\n"    // 6
         "run = \"" +
         run +
         "\"\n"             // 7
         "shows = \"s\"\n"  // 8
         "[[reading]]\nsignal = \"clock-offset\"\nlook_for = \"x\"\n"
         "[[reading]]\nsignal = \"clock-unsynchronised\"\nlook_for = \"x\"\n"
         "[[reading]]\nsignal = \"clock-ok\"\nlook_for = \"x\"\n";
}

TEST(Manual, EmbeddedManualsCoverEveryRegisteredProbe) {
  const auto probes = registered();
  auto set = ManualSet::load_embedded(probes);
  ASSERT_TRUE(set.ok()) << set.error().describe();
  for (const auto& probe : probes) {
    const ProbeManual* manual = set->find(probe.id);
    ASSERT_NE(manual, nullptr) << probe.id;
    EXPECT_FALSE(manual->commands.empty()) << probe.id;
    for (const auto& signal : probe.signals) {
      EXPECT_NE(manual->reading(signal), nullptr) << probe.id << " " << signal;
    }
  }
}

TEST(Manual, EveryEmbeddedCommandNamesKnownToolsAndFlags) {
  auto set = ManualSet::load_embedded(registered());
  ASSERT_TRUE(set.ok()) << set.error().describe();
  std::size_t checked = 0;
  for (const auto& manual : set->manuals()) {
    for (const auto& command : manual.commands) {
      for (int prio : {0, 3, 7}) {
        auto forms = check_command_line(with_priority(command.run, prio));
        EXPECT_TRUE(forms.ok()) << manual.file << ":" << command.line;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40u);
}

TEST(Manual, ValidManualParses) {
  auto manual = parse_manual(clock_manual(), "kb/manual/clock.toml", registered());
  ASSERT_TRUE(manual.ok()) << manual.error().describe();
  EXPECT_EQ(manual->commands.front().side, Side::Host);
}

TEST(Manual, UnknownProbeIdIsAnErrorWithFileAndLine) {
  std::string text = clock_manual();
  text.replace(text.find("\"clock\""), 7, "\"clocks\"");
  auto manual = parse_manual(text, "kb/manual/clocks.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/manual/clocks.toml:1");
  EXPECT_NE(manual.error().message.find("unknown probe 'clocks'"), std::string::npos);
}

TEST(Manual, UnknownKeyIsAnErrorWithFileAndLine) {
  auto manual = parse_manual(clock_manual("chronyc tracking", "colour = \"red\"\n"),
                             "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/manual/clock.toml:5");
  EXPECT_NE(manual.error().message.find("unknown key 'colour'"), std::string::npos);
}

TEST(Manual, UnknownToolIsAnErrorAtTheCommandLine) {
  auto manual = parse_manual(clock_manual("ntpq -p"), "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/manual/clock.toml:7");
  EXPECT_NE(manual.error().message.find("unknown tool 'ntpq'"), std::string::npos);
}

TEST(Manual, UnknownFlagIsAnErrorAtTheCommandLine) {
  auto manual =
      parse_manual(clock_manual("chronyc -Q tracking"), "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_EQ(manual.error().context, "kb/manual/clock.toml:7");
  EXPECT_NE(manual.error().message.find("unknown flag '-Q'"), std::string::npos);
}

TEST(Manual, SwitchCommandOnTheHostSideIsAnError) {
  auto manual =
      parse_manual(clock_manual("show pfc counters"), "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("switch side"), std::string::npos);
}

TEST(Manual, UnknownPlaceholderIsAnError) {
  auto manual =
      parse_manual(clock_manual("ethtool -S <interface>"), "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("unknown placeholder '<interface>'"), std::string::npos);
}

TEST(Manual, SignalWithoutReadingIsAnError) {
  std::string text = clock_manual();
  text.erase(text.find("[[reading]]\nsignal = \"clock-ok\""));
  auto manual = parse_manual(text, "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("no [[reading]] for signal 'clock-ok'"), std::string::npos);
}

TEST(Manual, ReadingOfASignalTheProbeDoesNotEmitIsAnError) {
  std::string text = clock_manual() + "[[reading]]\nsignal = \"pfc-quiet\"\nlook_for = \"x\"\n";
  auto manual = parse_manual(text, "kb/manual/clock.toml", registered());
  ASSERT_FALSE(manual.ok());
  EXPECT_NE(manual.error().message.find("unknown signal 'pfc-quiet'"), std::string::npos);
}

TEST(Manual, ReadingNamesTheCommandThatShowsIt) {
  std::string good = clock_manual();
  good.replace(good.find("signal = \"clock-ok\"\n"), 19, "signal = \"clock-ok\"\ncommand = 1\n");
  auto manual = parse_manual(good, "kb/manual/clock.toml", registered());
  ASSERT_TRUE(manual.ok()) << manual.error().describe();
  EXPECT_EQ(manual->reading("clock-ok")->command, 0u);

  std::string bad = clock_manual();
  bad.replace(bad.find("signal = \"clock-ok\"\n"), 19, "signal = \"clock-ok\"\ncommand = 4\n");
  auto rejected = parse_manual(bad, "kb/manual/clock.toml", registered());
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().context, "kb/manual/clock.toml:17");
  EXPECT_NE(rejected.error().message.find("not one of the 1 [[command]]"), std::string::npos);
}

TEST(Manual, FileNameMustMatchProbe) {
  auto manual = parse_manual(clock_manual(), "kb/manual/mtu.toml", registered());
  ASSERT_FALSE(manual.ok());
}

TEST(Manual, MissingManualForARegisteredProbeIsAnError) {
  auto set = ManualSet::load({{"kb/manual/clock.toml", clock_manual()}}, registered(), true);
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.error().message.find("no manual for probe"), std::string::npos);
}

TEST(Manual, PriorityPlaceholderIsFilled) {
  EXPECT_EQ(with_priority("tx_prio{prio}_pause rx_prio{prio}_pause", 5),
            "tx_prio5_pause rx_prio5_pause");
}

}  // namespace
}  // namespace netdoctor::runbook
