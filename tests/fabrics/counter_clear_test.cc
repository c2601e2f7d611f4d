// A NIC whose counters are cleared inside a long capture (a driver reload, a firmware reset)
// must keep its own figures in the diagnosis: the interval holding the clear is left out of its
// rates and the intervals on either side count. With two samples there is no other interval, so
// its rate stays unknown and the probe says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/fabrics/sim_bundle.h"
#include "tests/fabrics/sim_diagnosis.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

namespace fs = std::filesystem;
using netdoctor::testing::diagnose_sim;
using netdoctor::testing::read_text;
using netdoctor::testing::SimBundle;
using netdoctor::testing::simulate;

// "name: 123" lines of `ethtool -S` and the single number of a sysfs counter file ("" as name).
const std::regex& counter_line() {
  static const std::regex k_line(R"(^(\s*(?:([^:\n]*):\s*)?)(\d+)\s*$)", std::regex::multiline);
  return k_line;
}

std::map<std::string, unsigned long long> counters_of(const std::string& text) {
  std::map<std::string, unsigned long long> values;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), counter_line());
       it != std::sregex_iterator(); ++it) {
    values[(*it)[2].str()] = std::stoull((*it)[3].str());
  }
  return values;
}

// Every later sample of the file reads its value minus the one of sample `cleared - 1`: the
// counters were zeroed just after that sample.
int clear_file(const std::vector<fs::path>& samples, std::size_t cleared, const fs::path& rel) {
  const auto before = counters_of(read_text((samples[cleared - 1] / rel).string()));
  int rewritten = 0;
  for (std::size_t s = cleared; s < samples.size(); ++s) {
    const fs::path path = samples[s] / rel;
    const std::string text = read_text(path.string());
    std::string out;
    std::size_t last = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), counter_line());
         it != std::sregex_iterator(); ++it) {
      const auto& match = *it;
      const auto found = before.find(match[2].str());
      const unsigned long long value = std::stoull(match[3].str());
      const unsigned long long base = found == before.end() ? 0 : found->second;
      out += text.substr(last, static_cast<std::size_t>(match.position(3)) - last);
      out += std::to_string(value >= base ? value - base : 0);
      last = static_cast<std::size_t>(match.position(3) + match.length(3));
    }
    out += text.substr(last);
    std::ofstream(path, std::ios::trunc) << out;
    ++rewritten;
  }
  return rewritten;
}

// Clears every counter of `host`'s NIC (its `ethtool -S`, RDMA port and netdev counters) just
// after sample `cleared - 1`; returns the files rewritten.
int clear_nic(const std::string& bundle, const std::string& host, const std::string& netdev,
              const std::string& ibdev, std::size_t cleared) {
  std::vector<fs::path> samples;
  for (const auto& entry : fs::directory_iterator(fs::path(bundle) / "hosts" / host)) {
    samples.push_back(entry.path());
  }
  std::sort(samples.begin(), samples.end(), [](const fs::path& a, const fs::path& b) {
    return std::stoi(a.filename().string()) < std::stoi(b.filename().string());
  });
  std::vector<fs::path> files = {fs::path("sos_commands/networking") / ("ethtool_-S_" + netdev)};
  for (const fs::path& dir : {fs::path("sys/class/infiniband") / ibdev / "ports/1/counters",
                              fs::path("sys/class/infiniband") / ibdev / "ports/1/hw_counters",
                              fs::path("sys/class/net") / netdev / "statistics"}) {
    if (fs::is_directory(samples.front() / dir)) {
      for (const auto& entry : fs::directory_iterator(samples.front() / dir)) {
        files.push_back(dir / entry.path().filename());
      }
    }
  }
  int rewritten = 0;
  for (const auto& rel : files) {
    rewritten += clear_file(samples, cleared, rel);
  }
  return rewritten;
}

struct Culprit {
  std::string host, netdev, ibdev;
};

// The injected NIC: "nic:HOST/IBDEV" and "netdev:HOST/NETDEV" of the simulator's answer.
Culprit culprit_of(const SimBundle& bundle) {
  Culprit culprit;
  for (const auto& entity : bundle.expected.at("culprits_any")) {
    const std::string text = entity.get<std::string>();
    const auto slash = text.find('/');
    if (text.rfind("nic:", 0) == 0) {
      culprit.host = text.substr(4, slash - 4);
      culprit.ibdev = text.substr(slash + 1);
    } else if (text.rfind("netdev:", 0) == 0) {
      culprit.netdev = text.substr(slash + 1);
    }
  }
  return culprit;
}

std::string probe_reason(const Diagnosis& diagnosis, const std::string& id) {
  for (const auto& run : diagnosis.probes) {
    if (run.id == id) {
      return run.reason;
    }
  }
  return "(not run)";
}

TEST(CounterClear, AStormOriginClearedMidCaptureKeepsItsOwnRate) {
  const SimBundle bundle =
      simulate("clear-long", "--hosts 8 --nics 2 --fault pfc-storm --seed 3 --samples 5");
  ASSERT_FALSE(bundle.expected.is_null());
  const Culprit culprit = culprit_of(bundle);
  ASSERT_FALSE(culprit.netdev.empty());
  ASSERT_GT(clear_nic(bundle.path, culprit.host, culprit.netdev, culprit.ibdev, 2), 0);

  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = render_text(*diagnosis);
  ASSERT_FALSE(diagnosis->causes.empty()) << text;
  const RankedCause& top = diagnosis->causes.front();
  EXPECT_EQ(top.id, "pfc-storm") << text;
  ASSERT_FALSE(top.evidence.empty()) << text;
  // The origin's own pause rate, read over the four intervals but the one it was cleared in.
  EXPECT_NE(top.evidence.front().summary.find(culprit.host + "/" + culprit.ibdev + " sends"),
            std::string::npos)
      << text;
  const std::string pause_reason = probe_reason(*diagnosis, "pfc-pause");
  EXPECT_EQ(pause_reason.find("reset"), std::string::npos) << text;
  // The clear itself is told, with the NIC: a reload in the middle of an incident is a clue.
  EXPECT_NE(pause_reason.find("cleared inside the capture on 1 NICs"), std::string::npos) << text;
  EXPECT_NE(pause_reason.find(culprit.host + "/" + culprit.ibdev), std::string::npos) << text;
}

TEST(CounterClear, WithTwoSamplesAClearedNicHasNoRateAndTheProbeSaysSo) {
  const SimBundle bundle = simulate("clear-two", "--hosts 8 --nics 2 --fault pfc-storm --seed 3");
  ASSERT_FALSE(bundle.expected.is_null());
  const Culprit culprit = culprit_of(bundle);
  ASSERT_GT(clear_nic(bundle.path, culprit.host, culprit.netdev, culprit.ibdev, 1), 0);

  auto diagnosis = diagnose_sim(bundle);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = render_text(*diagnosis);
  EXPECT_NE(probe_reason(*diagnosis, "pfc-pause").find("reset on 1 NICs"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace netdoctor::engine
