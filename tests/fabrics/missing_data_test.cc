// Degraded bundles: real captures miss whole categories of files (no switch access, perftest
// not run, chrony or mlnx_qos or lldpd not installed, one host's sysfs not collected). The
// diagnosis must still complete, say what it could not look at, and stay right where the
// remaining evidence suffices. Bundles come from the built `netdoctor sim`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/fabrics/sim_bundle.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

namespace fs = std::filesystem;

using netdoctor::testing::SimBundle;
using netdoctor::testing::simulate;

// Removes every file or directory under `root` whose name satisfies `matches` (directories
// are removed whole and not descended into).
size_t remove_matching(const std::string& root,
                       const std::function<bool(const fs::path&)>& matches) {
  std::vector<fs::path> doomed;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (matches(it->path())) {
      doomed.push_back(it->path());
      if (it->is_directory()) {
        it.disable_recursion_pending();
      }
    }
  }
  for (const fs::path& path : doomed) {
    fs::remove_all(path);
  }
  return doomed.size();
}

bool name_starts_with(const fs::path& path, const std::string& prefix) {
  return path.filename().string().rfind(prefix, 0) == 0;
}

std::string culprit_host(const nlohmann::json& expected) {
  for (const auto& culprit : expected.at("culprits_any")) {
    const std::string name = culprit.get<std::string>();
    const size_t colon = name.find(':');
    const size_t slash = name.find('/');
    if ((name.rfind("nic:", 0) == 0 || name.rfind("netdev:", 0) == 0) &&
        slash != std::string::npos) {
      return name.substr(colon + 1, slash - colon - 1);
    }
  }
  return {};
}

std::vector<std::string> hosts_of(const std::string& bundle) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(bundle + "/hosts")) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool says_what_it_skipped(const Diagnosis& diagnosis) {
  const bool skipped_probe = std::any_of(
      diagnosis.probes.begin(), diagnosis.probes.end(),
      [](const ProbeRun& run) { return run.status == "skipped" && !run.reason.empty(); });
  return skipped_probe || !diagnosis.data_problems.empty();
}

bool names_any(const RankedCause& cause, const std::vector<std::string>& culprits) {
  return std::any_of(culprits.begin(), culprits.end(), [&cause](const std::string& culprit) {
    return std::find(cause.entities.begin(), cause.entities.end(), culprit) != cause.entities.end();
  });
}

enum class Removal { Switches, Perftest, Chrony, MlnxQos, Lldp, OtherHostSys, CulpritHostSys };

struct MissingCase {
  std::string name;
  std::string fault;
  Removal removal;
  bool must_stay_right;  // the remaining evidence suffices for the expected cause and culprit
};

void PrintTo(const MissingCase& missing, std::ostream* out) {
  *out << missing.name;
}

size_t remove_category(const SimBundle& bundle, Removal removal) {
  const std::string& root = bundle.path;
  switch (removal) {
    case Removal::Switches:
      return remove_matching(
          root, [&root](const fs::path& p) { return p == fs::path(root) / "switches"; });
    case Removal::Perftest:
      return remove_matching(root, [&root](const fs::path& p) {
        return p.parent_path() == fs::path(root) && name_starts_with(p, "perftest");
      });
    case Removal::Chrony:
      return remove_matching(
          root, [](const fs::path& p) { return name_starts_with(p, "chronyc_tracking"); });
    case Removal::MlnxQos:
      return remove_matching(root,
                             [](const fs::path& p) { return name_starts_with(p, "mlnx_qos"); });
    case Removal::Lldp:
      return remove_matching(root,
                             [](const fs::path& p) { return name_starts_with(p, "lldpcli"); });
    case Removal::OtherHostSys:
    case Removal::CulpritHostSys: {
      const std::string culprit = culprit_host(bundle.expected);
      std::string host = culprit;
      if (removal == Removal::OtherHostSys) {
        for (const std::string& name : hosts_of(root)) {
          if (name != culprit) {
            host = name;
            break;
          }
        }
      }
      EXPECT_FALSE(host.empty());
      const fs::path host_dir = fs::path(root) / "hosts" / host;
      return remove_matching(host_dir.string(), [&host_dir](const fs::path& p) {
        return p.filename() == "sys" && p.parent_path().parent_path() == host_dir;
      });
    }
  }
  return 0;
}

class MissingData : public ::testing::TestWithParam<MissingCase> {};

TEST_P(MissingData, CompletesNamesWhatItSkippedAndStaysRight) {
  const MissingCase& missing = GetParam();
  const std::string flags =
      "--hosts 8 --nics 4 --vendors mlx5,bnxt --fault " + missing.fault + " --seed 41";
  const SimBundle bundle = simulate(missing.name, flags);
  ASSERT_FALSE(bundle.expected.is_null());
  ASSERT_GT(remove_category(bundle, missing.removal), 0U) << "nothing removed for " << missing.name;

  DiagnoseOptions options;
  options.symptom = bundle.expected.at("symptom").get<std::string>();
  auto diagnosis = diagnose_bundle(bundle.path, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = flags + " minus " + missing.name + "\n" + render_text(*diagnosis);
  EXPECT_TRUE(says_what_it_skipped(*diagnosis))
      << "no skipped probe with a reason and no data problem\n"
      << text;
  if (!missing.must_stay_right) {
    return;
  }
  EXPECT_EQ(to_string(diagnosis->verdict), bundle.expected.at("verdict").get<std::string>())
      << text;
  ASSERT_FALSE(diagnosis->causes.empty()) << text;
  EXPECT_EQ(diagnosis->causes.front().id, bundle.expected.at("cause").get<std::string>()) << text;
  EXPECT_TRUE(names_any(diagnosis->causes.front(),
                        bundle.expected.at("culprits_any").get<std::vector<std::string>>()))
      << text;
}

INSTANTIATE_TEST_SUITE_P(
    OneCategoryGone, MissingData,
    ::testing::Values(
        MissingCase{"pfc_storm_without_switches", "pfc-storm", Removal::Switches, true},
        MissingCase{"pfc_storm_without_perftest", "pfc-storm", Removal::Perftest, true},
        MissingCase{"pfc_storm_without_chrony", "pfc-storm", Removal::Chrony, true},
        MissingCase{"pfc_storm_without_mlnx_qos", "pfc-storm", Removal::MlnxQos, true},
        MissingCase{"pfc_storm_without_lldp", "pfc-storm", Removal::Lldp, true},
        MissingCase{"pfc_storm_without_other_host_sys", "pfc-storm", Removal::OtherHostSys, true},
        MissingCase{"pfc_storm_without_culprit_host_sys", "pfc-storm", Removal::CulpritHostSys,
                    false},
        MissingCase{"link_errors_without_perftest", "link-errors", Removal::Perftest, true},
        MissingCase{"link_errors_without_lldp", "link-errors", Removal::Lldp, true},
        MissingCase{"clock_skew_without_switches", "clock-skew", Removal::Switches, true},
        MissingCase{"clock_skew_without_chrony", "clock-skew", Removal::Chrony, false},
        MissingCase{"mtu_mismatch_without_perftest", "mtu-mismatch", Removal::Perftest, true}),
    [](const ::testing::TestParamInfo<MissingCase>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace netdoctor::engine
