// Broken files inside an otherwise good bundle: every case must leave the other hosts loaded,
// name the broken file in a problem, and let `inventory` / `diagnose` finish with exit 0.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "model/loader.h"
#include "model/metric.h"
#include "tests/reliability/reliability_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;

// Deterministic bytes over the whole 0..255 range (NUL, control, invalid UTF-8).
std::string garbage(std::size_t n) {
  std::string out(n, '\0');
  std::uint32_t x = 2463534242u;
  for (char& c : out) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x & 0xffu);
  }
  return out;
}

std::string first_file_starting(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind(prefix, 0) == 0) {
      found.push_back(entry.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  EXPECT_FALSE(found.empty()) << "no " << prefix << "* under " << dir;
  return found.empty() ? dir + "/" + prefix : found.front();
}

// One way of breaking one file of the second host's first sample; returns the file broken.
struct Corruption {
  const char* name;
  std::function<std::string(const std::string& sample_dir)> apply;
  bool expect_problem = true;  // false when a reader may rightly accept what is left
};

std::string replace_content(const std::string& path, const std::string& content) {
  write_file(path, content);
  return path;
}

std::vector<Corruption> corruptions() {
  return {
      {"EthtoolStatsBinaryGarbage",
       [](const std::string& s) {
         std::string bytes = garbage(64 * 1024);
         std::replace(bytes.begin(), bytes.end(), ':', '.');  // no "name: value" line at all
         return replace_content(first_file_starting(s, "ethtool_-S_"), bytes);
       }},
      {"EthtoolStatsEmpty",
       [](const std::string& s) {
         return replace_content(first_file_starting(s, "ethtool_-S_"), "");
       }},
      {"EthtoolStatsTruncatedMidLine",
       [](const std::string& s) {
         const std::string path = first_file_starting(s, "ethtool_-S_");
         const std::string text = read_text(path);
         return replace_content(path, text.substr(0, text.size() / 2 + 3));
       },
       false},
      {"LldpJsonTruncated",
       [](const std::string& s) {
         const std::string path = first_file_starting(s, "lldpcli_show_neighbors");
         const std::string text = read_text(path);
         return replace_content(path, text.substr(0, text.size() / 2));
       }},
      {"IbvDevinfoGarbage",
       [](const std::string& s) {
         return replace_content(first_file_starting(s, "ibv_devinfo"), garbage(4096));
       }},
      {"ChronyNotUtf8",
       [](const std::string& s) {
         return replace_content(first_file_starting(s, "chronyc_tracking"),
                                "Reference ID    : \xff\xfe\xc3\x28 (\xe2\x82)\n"
                                "System time     : \xff seconds fast\n");
       }},
      {"CapturedAtNan",
       [](const std::string& s) { return replace_content(s + "/captured_at", "nan\n"); }},
      {"CapturedAtOverflow",
       [](const std::string& s) { return replace_content(s + "/captured_at", "1e400\n"); }},
      {"CapturedAtNegative",
       [](const std::string& s) { return replace_content(s + "/captured_at", "-5\n"); }},
      {"CapturedAtEmpty",
       [](const std::string& s) { return replace_content(s + "/captured_at", ""); }},
  };
}

// The numbers a counter file must survive (one per sysfs counter file of the NIC).
const std::vector<std::string>& hostile_numbers() {
  static const std::vector<std::string> k_numbers = {
      "18446744073709551616\n", "-5\n", "nan\n", "1e400\n", "inf\n", "0x10\n", "12abc\n", "\n"};
  return k_numbers;
}

class BadFilesTest : public ::testing::TestWithParam<Corruption> {
 protected:
  void SetUp() override {
    m_sandbox = make_temp_dir("reliability");
    m_bundle = m_sandbox + "/bundle";
    m_hosts = make_sim_bundle(m_bundle, 3);
    ASSERT_EQ(m_hosts.size(), 3u);
    m_clean_nics = nic_counts();
  }

  std::vector<std::size_t> nic_counts() {
    auto bundle = open_bundle(m_bundle);
    EXPECT_TRUE(bundle.ok()) << bundle.error().describe();
    auto fabric = model::load_fabric(*bundle);
    EXPECT_TRUE(fabric.ok());
    std::vector<std::size_t> counts;
    for (const auto& host : fabric->hosts) {
      counts.push_back(host.nics.size());
    }
    return counts;
  }

  std::string m_sandbox;
  std::string m_bundle;
  std::vector<std::string> m_hosts;
  std::vector<std::size_t> m_clean_nics;
};

TEST_P(BadFilesTest, OtherHostsLoadAndTheProblemNamesTheFile) {
  const Corruption& c = GetParam();
  const std::string victim_host = m_hosts[1];
  // The latest sample: configuration (LLDP, ibv_devinfo, chronyc) is read from it, the state
  // the incident is in; counters and capture times are read from every sample.
  const std::string broken = c.apply(last_sample_dir(m_bundle, victim_host));
  const std::string broken_name = fs::path(broken).filename().string();
  // Beside the bundle, not in the sandbox: diagnose records its incident under HOME (the
  // sandbox), which is where it belongs.
  fs::create_directories(m_sandbox + "/beside");
  Canary canary(m_sandbox + "/beside");

  auto bundle = open_bundle(m_bundle);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok()) << fabric.error().describe();
  ASSERT_EQ(fabric->hosts.size(), 3u);
  EXPECT_EQ(fabric->hosts[0].nics.size(), m_clean_nics[0]) << "an unrelated host lost NICs";
  EXPECT_EQ(fabric->hosts[2].nics.size(), m_clean_nics[2]) << "an unrelated host lost NICs";
  for (const auto& host : fabric->hosts) {
    for (double t : host.captured_at) {
      EXPECT_TRUE(std::isfinite(t)) << host.name << " kept a non-finite capture time";
    }
  }

  bool named = false;
  for (const auto& problem : fabric->problems) {
    if (problem.error.describe().find(broken_name) != std::string::npos &&
        problem.error.describe().find(victim_host) != std::string::npos) {
      named = true;
    }
  }
  if (c.expect_problem) {
    EXPECT_TRUE(named) << "no problem names " << broken;
  }

  const RunOutput inventory = run_netdoctor({"inventory", "--bundle", m_bundle}, m_sandbox);
  EXPECT_EQ(inventory.exit_code, 0) << inventory.err;
  if (c.expect_problem) {
    EXPECT_NE(inventory.out.find(broken_name), std::string::npos) << inventory.out;
  }
  const RunOutput json =
      run_netdoctor({"inventory", "--bundle", m_bundle, "--format", "json"}, m_sandbox);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const RunOutput diagnose =
      run_netdoctor({"diagnose", "--bundle", m_bundle, "--format", "json"}, m_sandbox);
  EXPECT_EQ(diagnose.exit_code, 0) << diagnose.err;
  if (c.expect_problem) {
    EXPECT_NE(diagnose.out.find(broken_name), std::string::npos)
        << "diagnose does not list the broken file";
  }
  EXPECT_EQ(canary.check(), "");
}

INSTANTIATE_TEST_SUITE_P(Corruptions, BadFilesTest, ::testing::ValuesIn(corruptions()),
                         [](const auto& test_param) { return std::string(test_param.param.name); });

class HostileNumbersTest : public ::testing::TestWithParam<std::string> {};

// Every sysfs counter file of one host holds the same hostile number: no crash, no NaN or
// negative rate anywhere, the file named, the other hosts intact.
TEST_P(HostileNumbersTest, CounterFilesWithHostileNumbersAreReportedNotTrusted) {
  const std::string sandbox = make_temp_dir("numbers");
  const std::string dir = sandbox + "/bundle";
  const auto hosts = make_sim_bundle(dir, 2);
  const std::string sample = first_sample_dir(dir, hosts[0]);
  std::vector<std::string> counter_files;
  for (const auto& entry : fs::recursive_directory_iterator(sample)) {
    const std::string p = entry.path().string();
    if (entry.is_regular_file() && (p.find("/counters/") != std::string::npos ||
                                    p.find("/statistics/") != std::string::npos)) {
      counter_files.push_back(p);
      write_file(p, GetParam());
    }
  }
  ASSERT_FALSE(counter_files.empty()) << "the simulator wrote no sysfs counters";

  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  ASSERT_EQ(fabric->hosts.size(), 2u);
  EXPECT_FALSE(fabric->hosts[1].nics.empty());
  for (const auto& host : fabric->hosts) {
    for (const auto& nic : host.nics) {
      for (const auto& sample_values : nic.samples) {
        for (const auto& [key, value] : sample_values.values) {
          EXPECT_TRUE(std::isfinite(value) && value >= 0)
              << host.name << " " << key.to_string() << " = " << value;
          const model::Rate rate = model::rate_of(nic.samples, key);
          if (rate.ok()) {
            EXPECT_TRUE(std::isfinite(rate.per_second) && rate.per_second >= 0) << key.to_string();
          }
        }
      }
    }
  }
  bool named = false;
  for (const auto& problem : fabric->problems) {
    for (const std::string& f : counter_files) {
      if (problem.error.describe().find(fs::path(f).filename().string()) != std::string::npos) {
        named = true;
      }
    }
  }
  if (GetParam() != "\n") {
    EXPECT_TRUE(named) << "no problem names a counter file holding " << GetParam();
  }
  const RunOutput run = run_netdoctor({"diagnose", "--bundle", dir}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

INSTANTIATE_TEST_SUITE_P(Numbers, HostileNumbersTest, ::testing::ValuesIn(hostile_numbers()),
                         [](const auto& test_param) {
                           std::string name;
                           for (char c : test_param.param) {
                             if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
                               name += c;
                             } else if (c == '-') {
                               name += "minus";
                             }
                           }
                           return "N" + (name.empty() ? std::string("blank") : name);
                         });

TEST(CountersGoingBackwards, GiveResetNotANegativeRate) {
  const std::string sandbox = make_temp_dir("backwards");
  const std::string dir = sandbox + "/bundle";
  const auto hosts = make_sim_bundle(dir, 2);
  // Every counter of the host's later sample set below the earlier one.
  std::vector<std::string> samples;
  for (const auto& entry : fs::directory_iterator(dir + "/hosts/" + hosts[0])) {
    samples.push_back(entry.path().string());
  }
  std::sort(samples.begin(), samples.end());
  ASSERT_GE(samples.size(), 2u);
  std::size_t lowered = 0;
  for (const auto& entry : fs::recursive_directory_iterator(samples.back())) {
    const std::string p = entry.path().string();
    if (entry.is_regular_file() && p.find("/statistics/") != std::string::npos) {
      write_file(p, "0\n");
      ++lowered;
    }
  }
  ASSERT_GT(lowered, 0u);
  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  std::size_t resets = 0;
  for (const auto& nic : fabric->hosts[0].nics) {
    ASSERT_FALSE(nic.samples.empty());
    for (const auto& [key, value] : nic.samples.front().values) {
      const model::Rate rate = model::rate_of(nic.samples, key);
      if (rate.ok()) {
        EXPECT_GE(rate.per_second, 0) << key.to_string();
      }
      resets += rate.status == model::RateStatus::Reset ? 1 : 0;
    }
  }
  EXPECT_GT(resets, 0u) << "no counter was seen going down";
  const RunOutput run = run_netdoctor({"diagnose", "--bundle", dir, "--format", "json"}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

}  // namespace
}  // namespace netdoctor::testing
