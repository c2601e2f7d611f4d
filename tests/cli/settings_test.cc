// Site configuration (cli/settings.h): the layers in order, `config show` naming each value's
// origin, errors with file and line and exit 2, a tuned threshold changing a verdict, and the
// diagnosis and postmortem recording what they ran with. The binary runs in a sandbox whose
// HOME holds the user file; NETDOCTOR_SYSTEM_CONFIG stands in for /etc/netdoctor/netdoctor.toml.
#include "cli/settings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

namespace fs = std::filesystem;
using netdoctor::testing::make_temp_dir;
using netdoctor::testing::RunOutput;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// One sandbox: HOME (user file under .config), a system file, and the incident store.
struct Site {
  std::string home = make_temp_dir("settings");
  std::string system_file = home + "/etc/netdoctor.toml";
  std::string user_file = home + "/.config/netdoctor/netdoctor.toml";
  std::string db = home + "/incidents.db";

  RunOutput run(std::vector<std::string> args) const {
    netdoctor::testing::RunOptions options;
    options.sandbox = home;
    options.env = {{"NETDOCTOR_SYSTEM_CONFIG", system_file}, {"NETDOCTOR_DB", db}};
    return netdoctor::testing::run_netdoctor(args, options);
  }
  nlohmann::json shown(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"config", "show", "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutput result = run(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return nlohmann::json::parse(result.out, nullptr, false);
  }
};

const nlohmann::json& entry(const nlohmann::json& shown, const std::string& key) {
  for (const auto& item : shown) {
    if (item.at("key") == key) {
      return item;
    }
  }
  static const nlohmann::json k_missing;
  ADD_FAILURE() << key << " not shown";
  return k_missing;
}

// Every setting a run has: the general table and the probes' thresholds from the kb.
Settings full_settings() {
  auto thresholds = builtin_threshold_specs();
  EXPECT_TRUE(thresholds.ok()) << thresholds.error().describe();
  return Settings(thresholds.ok() ? std::move(thresholds).value() : std::vector<SettingSpec>{});
}

std::vector<SettingSpec> every_spec() {
  std::vector<SettingSpec> specs = setting_specs();
  auto thresholds = builtin_threshold_specs();
  EXPECT_TRUE(thresholds.ok());
  if (thresholds.ok()) {
    specs.insert(specs.end(), thresholds->begin(), thresholds->end());
  }
  return specs;
}

std::string scenario(const std::string& name) {
  return netdoctor::testing::shared_dir() + "/scenarios/" + name + ".tar.gz";
}

TEST(SettingsTable, EveryDefaultIsValidAndKeysAreUnique) {
  Settings settings = full_settings();
  std::vector<std::string> keys;
  for (const SettingSpec& spec : every_spec()) {
    Settings copy = full_settings();
    EXPECT_TRUE(copy.set(spec.key, spec.default_text, "test").ok()) << spec.key;
    EXPECT_EQ(std::count(keys.begin(), keys.end(), std::string(spec.key)), 0) << spec.key;
    keys.emplace_back(spec.key);
    EXPECT_TRUE(settings.get(spec.key).is_default());
  }
  EXPECT_TRUE(settings.non_defaults().empty());
  EXPECT_TRUE(settings.tuned_thresholds().empty());
  EXPECT_DOUBLE_EQ(settings.number("baseline.threshold"), 0.05);
  EXPECT_DOUBLE_EQ(settings.number("pfc-pause.min_pause_rate"), 100.0);
  EXPECT_DOUBLE_EQ(settings.number("fleet.outlier_min_z"), 5.0);
  EXPECT_DOUBLE_EQ(settings.number("roce.priority"), 3.0);
}

TEST(SettingsTable, ValuesAreReadAsTheirTypes) {
  Settings settings = full_settings();
  EXPECT_TRUE(settings.set("baseline.threshold", "12%", "t").ok());
  EXPECT_DOUBLE_EQ(settings.number("baseline.threshold"), 0.12);
  EXPECT_TRUE(settings.set("baseline.threshold", "0.2", "t").ok());
  EXPECT_EQ(settings.text("baseline.threshold"), "20%");
  EXPECT_FALSE(settings.set("baseline.threshold", "150%", "t").ok());
  EXPECT_FALSE(settings.set("roce.priority", "8", "t").ok());
  EXPECT_FALSE(settings.set("roce.priority", "2.5", "t").ok());
  EXPECT_TRUE(settings.set("collect.host_timeout", "45s", "t").ok());
  EXPECT_DOUBLE_EQ(settings.number("collect.host_timeout"), 45.0);
  EXPECT_FALSE(settings.set("collect.host_timeout", "-1", "t").ok());
  EXPECT_FALSE(settings.set("collect.launcher", "rsh", "t").ok());
  auto unknown = settings.set("roce.prio", "3", "--set");
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(has(unknown.error().describe(), "unknown key 'roce.prio'"));
  EXPECT_TRUE(has(unknown.error().describe(), "roce.priority"));  // the nearest keys are listed
}

TEST(SettingsTable, ThresholdsAreTypedByTheirUnit) {
  Settings settings = full_settings();
  // frames/s: any non-negative number.
  EXPECT_TRUE(settings.set("pfc-pause.min_pause_rate", "250", "t").ok());
  EXPECT_DOUBLE_EQ(settings.number("pfc-pause.min_pause_rate"), 250.0);
  EXPECT_FALSE(settings.set("pfc-pause.min_pause_rate", "-1", "t").ok());
  EXPECT_FALSE(settings.set("pfc-pause.min_pause_rate", "fast", "t").ok());
  // fraction: a percentage.
  EXPECT_TRUE(settings.set("pfc-pause.storm_share", "40%", "t").ok());
  EXPECT_DOUBLE_EQ(settings.number("pfc-pause.storm_share"), 0.4);
  // strength: 0..1; count: whole.
  EXPECT_FALSE(settings.set("pfc-pause.quiet_strength", "1.5", "t").ok());
  EXPECT_FALSE(settings.set("pfc-pause.congestion_group", "2.5", "t").ok());
  EXPECT_TRUE(settings.set("pfc-pause.congestion_group", "6", "t").ok());
  // Only what differs from the kb reaches the engine, keyed as the kb names it.
  const auto tuned = settings.tuned_thresholds();
  EXPECT_EQ(tuned.size(), 3u);
  EXPECT_DOUBLE_EQ(tuned.at("pfc-pause.storm_share"), 0.4);
  auto near = settings.set("pfc-pause.min_pause", "3", "--set");
  ASSERT_FALSE(near.ok());
  EXPECT_TRUE(has(near.error().describe(), "pfc-pause.min_pause_rate")) << near.error().describe();
}

TEST(ConfigShow, DefaultsWithTheirOrigin) {
  const Site site;
  const RunOutput text = site.run({"config", "show"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const SettingSpec& spec : every_spec()) {
    EXPECT_TRUE(has(text.out, std::string(spec.key))) << spec.key;
  }
  EXPECT_TRUE(has(text.out, "(default)"));
  EXPECT_TRUE(has(text.out, "pfc-pause.min_pause_rate")) << text.out;
  const auto shown = site.shown();
  ASSERT_EQ(shown.size(), every_spec().size());
  EXPECT_EQ(entry(shown, "pfc-pause.min_pause_rate").at("value"), "100");
  EXPECT_EQ(entry(shown, "pfc-pause.min_pause_rate").at("unit"), "frames/s");
  EXPECT_TRUE(
      has(entry(shown, "pfc-pause.min_pause_rate").at("meaning").get<std::string>(), "microburst"));
  EXPECT_EQ(entry(shown, "roce.priority").at("value"), "3");
  EXPECT_EQ(entry(shown, "roce.priority").at("origin"), "default");
}

TEST(ConfigShow, LayersApplyInOrderAndNameTheirFileAndLine) {
  const Site site;
  write(site.system_file,
        "# site-wide\n[roce]\npriority = 4\n[baseline]\nthreshold = \"7%\"\n"
        "[collect]\nhost_timeout = 60\n");
  write(site.user_file, "[baseline]\nthreshold = 0.08\n[collect]\nlauncher = \"pdsh\"\n");
  const std::string config = site.home + "/job.toml";
  write(config, "[collect]\nlauncher = \"srun\"\n");

  auto shown = site.shown();
  EXPECT_EQ(entry(shown, "roce.priority").at("value"), "4");
  EXPECT_EQ(entry(shown, "roce.priority").at("origin"), site.system_file + ":3");
  EXPECT_EQ(entry(shown, "baseline.threshold").at("value"), "8%");
  EXPECT_EQ(entry(shown, "baseline.threshold").at("origin"), site.user_file + ":2");
  EXPECT_EQ(entry(shown, "collect.launcher").at("value"), "pdsh");

  shown = site.shown({"--config", config, "--set", "collect.host_timeout=90"});
  EXPECT_EQ(entry(shown, "collect.launcher").at("value"), "srun");
  EXPECT_EQ(entry(shown, "collect.launcher").at("origin"), config + ":2");
  EXPECT_EQ(entry(shown, "collect.host_timeout").at("value"), "90s");
  EXPECT_EQ(entry(shown, "collect.host_timeout").at("origin"), "--set");
  // The --set form with '=' and before the command word work too.
  const RunOutput before = site.run({"--set=roce.priority=5", "config", "show"});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_TRUE(has(before.out, "--set")) << before.out;
}

TEST(ConfigErrors, UnknownKeyInAFileNamesFileAndLine) {
  const Site site;
  write(site.user_file, "[roce]\npriority = 3\n\n[baseline]\ntreshold = \"5%\"\n");
  const RunOutput result = site.run({"config", "show"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, site.user_file + ":5")) << result.err;
  EXPECT_TRUE(has(result.err, "unknown key 'baseline.treshold'")) << result.err;
}

TEST(ConfigErrors, BadValuesAndBrokenFilesAreUsageErrors) {
  const Site site;
  RunOutput result = site.run({"config", "show", "--set", "roce.priority=9"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, "roce.priority must be a whole number from 0 to 7")) << result.err;
  result = site.run({"config", "show", "--set", "roce.priority"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, "KEY=VALUE")) << result.err;
  result = site.run({"config", "show", "--config", site.home + "/absent.toml"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, "absent.toml")) << result.err;
  write(site.system_file, "[roce\npriority = 3\n");
  result = site.run({"config", "show"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, site.system_file + ":1")) << result.err;
  // A bad setting stops a diagnosis before any work, with the same message.
  write(site.system_file, "[baseline]\nthreshold = \"abc\"\n");
  result = site.run({"diagnose", "--symptom", "slowdown", "--bundle", scenario("healthy")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(has(result.err, site.system_file + ":2")) << result.err;
}

nlohmann::json diagnose_json(const Site& site, const std::string& name,
                             std::vector<std::string> extra) {
  std::vector<std::string> args = {"diagnose",     "--symptom", "slowdown", "--bundle",
                                   scenario(name), "--format",  "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunOutput result = site.run(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out, nullptr, false);
}

std::string top_cause(const nlohmann::json& diagnosis) {
  return diagnosis.at("causes").empty() ? "" : diagnosis["causes"][0].at("id").get<std::string>();
}

// The acceptance case: a site that tolerates a wider perftest deviation than the article's 5 %
// no longer calls the regressed pair a root cause, and says why it differs from the default.
TEST(TunedThreshold, SiteFileChangesTheVerdictAndIsRecorded) {
  const Site site;
  const auto by_default = diagnose_json(site, "baseline-regression", {"--no-record"});
  EXPECT_EQ(top_cause(by_default), "baseline-regression");
  EXPECT_FALSE(by_default.contains("settings"));  // defaults: nothing to record

  write(site.user_file, "[baseline]\nthreshold = \"60%\"\n");
  const auto tuned = diagnose_json(site, "baseline-regression", {"--no-record"});
  EXPECT_NE(top_cause(tuned), "baseline-regression") << tuned.dump(1);
  ASSERT_TRUE(tuned.contains("settings")) << tuned.dump(1);
  ASSERT_EQ(tuned["settings"].size(), 1U);
  EXPECT_EQ(tuned["settings"][0].at("key"), "baseline.threshold");
  EXPECT_EQ(tuned["settings"][0].at("value"), "60%");
  EXPECT_EQ(tuned["settings"][0].at("origin"), site.user_file + ":2");

  // The command's own flag is the top layer.
  const auto flagged =
      diagnose_json(site, "baseline-regression", {"--no-record", "--threshold", "5%"});
  EXPECT_EQ(top_cause(flagged), "baseline-regression");
  ASSERT_TRUE(flagged.contains("settings"));
  EXPECT_EQ(flagged["settings"][0].at("origin"), "--threshold");
}

const nlohmann::json* evidence(const nlohmann::json& diagnosis, const std::string& signal) {
  for (const auto& cause : diagnosis.at("causes")) {
    for (const auto& item : cause.at("evidence")) {
      if (item.at("signal") == signal) {
        return &item;
      }
    }
  }
  return nullptr;
}

// A probe's own threshold from its kb entry, tuned by a site. With the pause floor raised far
// above what anyone sends, the storm's origin stands on its NIC's own storm detector alone
// (weaker evidence) and nobody counts as its victim; the record says which value it ran with.
TEST(TunedThreshold, ProbeThresholdInASiteFileChangesTheEvidence) {
  const Site site;
  const auto by_default = diagnose_json(site, "pfc-storm", {"--no-record"});
  ASSERT_EQ(top_cause(by_default), "pfc-storm");
  const auto* origin = evidence(by_default, "pfc-storm-origin");
  ASSERT_NE(origin, nullptr);
  ASSERT_NE(evidence(by_default, "pfc-pause-victim"), nullptr);

  write(site.system_file, "[pfc-pause]\nmin_pause_rate = 1000000\n");
  const auto tuned = diagnose_json(site, "pfc-storm", {"--no-record"});
  EXPECT_EQ(top_cause(tuned), "pfc-storm");  // the detector fired: still a storm
  const auto* detector_only = evidence(tuned, "pfc-storm-origin");
  ASSERT_NE(detector_only, nullptr);
  EXPECT_LT(detector_only->at("weight").get<double>(), origin->at("weight").get<double>());
  EXPECT_EQ(evidence(tuned, "pfc-pause-victim"), nullptr) << tuned.dump(1);
  ASSERT_TRUE(tuned.contains("settings")) << tuned.dump(1);
  EXPECT_EQ(tuned["settings"][0].at("key"), "pfc-pause.min_pause_rate");
  EXPECT_EQ(tuned["settings"][0].at("origin"), site.system_file + ":2");

  // --set above the file puts the kb's value back.
  const auto reset =
      diagnose_json(site, "pfc-storm", {"--no-record", "--set", "pfc-pause.min_pause_rate=100"});
  ASSERT_NE(evidence(reset, "pfc-pause-victim"), nullptr);

  // A bad value for a threshold is a usage error naming its file and line.
  write(site.system_file, "[pfc-pause]\nstorm_share = \"half\"\n");
  const RunOutput bad = site.run({"diagnose", "--bundle", scenario("pfc-storm")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(has(bad.err, site.system_file + ":2")) << bad.err;
}

TEST(TunedThreshold, RunbookShowsTheSitesValue) {
  const Site site;
  RunOutput book = site.run({"runbook", "slowdown"});
  ASSERT_EQ(book.exit_code, 0) << book.err;
  EXPECT_TRUE(has(book.out, "under 100 pause frames/s")) << book.out;
  book = site.run({"runbook", "slowdown", "--set", "pfc-pause.min_pause_rate=400"});
  ASSERT_EQ(book.exit_code, 0) << book.err;
  EXPECT_TRUE(has(book.out, "under 400 pause frames/s")) << book.out;
}

TEST(TunedThreshold, PostmortemListsTheSettingsADiagnosisRanWith) {
  const Site site;
  const RunOutput diagnosed =
      site.run({"diagnose", "--symptom", "slowdown", "--bundle", scenario("pfc-storm"), "--set",
                "collect.parallel=4", "--set", "baseline.threshold=9%"});
  ASSERT_EQ(diagnosed.exit_code, 0) << diagnosed.err;
  EXPECT_TRUE(has(diagnosed.out, "baseline.threshold = 9%  (--set)")) << diagnosed.out;
  const RunOutput md = site.run({"incident", "export", "1", "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_TRUE(has(md.out, "## Settings")) << md.out;
  EXPECT_TRUE(has(md.out, "| #1 | baseline.threshold | 9% | --set |")) << md.out;
  const RunOutput json = site.run({"incident", "export", "1", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto postmortem = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(postmortem.contains("settings"));
  EXPECT_EQ(postmortem["settings"].size(), 2U);
}

TEST(ConfiguredStore, DatabaseSettingIsUsedWhenNoFlagOrEnvironmentNamesOne) {
  const Site site;
  const std::string configured = site.home + "/site-store/netdoctor.db";
  netdoctor::testing::RunOptions options;
  options.sandbox = site.home;
  options.env = {{"NETDOCTOR_SYSTEM_CONFIG", site.system_file}};  // no NETDOCTOR_DB
  write(site.system_file, "[store]\ndatabase = \"" + configured + "\"\n");
  const RunOutput result = netdoctor::testing::run_netdoctor(
      {"diagnose", "--symptom", "slowdown", "--bundle", scenario("healthy")}, options);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(configured)) << result.err;
}

}  // namespace
}  // namespace netdoctor::cli
