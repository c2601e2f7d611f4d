#include "base/bundle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "base/strings.h"
#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> scenario_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(testing::shared_dir() + "/scenarios")) {
    const std::string file = entry.path().filename().string();
    if (file.size() > 7 && file.substr(file.size() - 7) == ".tar.gz") {
      names.push_back(file.substr(0, file.size() - 7));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::size_t count_dirs(const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    return 0;
  }
  return static_cast<std::size_t>(
      std::count_if(fs::directory_iterator(dir), fs::directory_iterator{},
                    [](const fs::directory_entry& e) { return e.is_directory(); }));
}

std::size_t count_files_two_down(const fs::path& dir) {
  std::size_t n = 0;
  if (fs::is_directory(dir)) {
    for (const auto& pair : fs::directory_iterator(dir)) {
      n += static_cast<std::size_t>(
          std::count_if(fs::directory_iterator(pair.path()), fs::directory_iterator{},
                        [](const fs::directory_entry& e) { return e.is_regular_file(); }));
    }
  }
  return n;
}

// Checks a bundle against the extracted directory it came from, counted independently.
void expect_matches(const Bundle& bundle, const fs::path& extracted) {
  EXPECT_TRUE(bundle.problems.empty()) << bundle.problems.front().describe();
  ASSERT_EQ(bundle.hosts.size(), 8u);
  EXPECT_EQ(bundle.hosts.size(), count_dirs(extracted / "hosts"));
  EXPECT_EQ(bundle.switches.size(), count_dirs(extracted / "switches"));
  EXPECT_GE(bundle.switches.size(), 3u);
  for (const auto* machines : {&bundle.hosts, &bundle.switches}) {
    for (const MachineCapture& m : *machines) {
      ASSERT_EQ(m.samples.size(), 2u) << m.name;
      EXPECT_LT(m.samples[0].name, m.samples[1].name);
      auto t0 = m.samples[0].source->captured_at();
      auto t1 = m.samples[1].source->captured_at();
      ASSERT_TRUE(t0.ok() && t1.ok()) << m.name;
      EXPECT_LT(*t0, *t1) << m.name;
    }
  }
  EXPECT_TRUE(std::is_sorted(bundle.hosts.begin(), bundle.hosts.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
  std::size_t current = 0;
  std::set<std::string> pairs;
  for (const PerftestFile& p : bundle.perftests) {
    current += p.baseline ? 0 : 1;
    pairs.insert((p.baseline ? "b:" : "c:") + p.client + "__" + p.server);
    EXPECT_FALSE(p.text.empty()) << p.display_path;
  }
  EXPECT_EQ(current, count_files_two_down(extracted / "perftest"));
  EXPECT_EQ(bundle.perftests.size() - current,
            count_files_two_down(extracted / "perftest-baseline"));
  EXPECT_EQ(pairs.size(),
            count_dirs(extracted / "perftest") + count_dirs(extracted / "perftest-baseline"));
  EXPECT_EQ(bundle.manifest_json.has_value(), fs::exists(extracted / "bundle.json"));
}

class ScenarioBundle : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioBundle, OpensAsTarballAndAsExtractedDirectoryAlike) {
  const std::string archive = testing::shared_dir() + "/scenarios/" + GetParam() + ".tar.gz";
  const std::string dir = testing::make_temp_dir("scenario");
  testing::extract_tar(archive, dir);
  const fs::path extracted = fs::path(dir) / GetParam();

  auto from_tar = open_bundle(archive);
  ASSERT_TRUE(from_tar.ok()) << from_tar.error().describe();
  expect_matches(*from_tar, extracted);

  auto from_dir = open_bundle(extracted.string());
  ASSERT_TRUE(from_dir.ok()) << from_dir.error().describe();
  expect_matches(*from_dir, extracted);
  // The directory holding the single bundle directory opens too.
  auto from_parent = open_bundle(dir);
  ASSERT_TRUE(from_parent.ok()) << from_parent.error().describe();
  EXPECT_EQ(from_parent->hosts.size(), 8u);

  // Same reads through both.
  const auto& host_tar = from_tar->hosts.front().samples.front().source;
  const auto& host_dir = from_dir->hosts.front().samples.front().source;
  EXPECT_EQ(*host_tar->captured_at(), *host_dir->captured_at());
  EXPECT_EQ(host_tar->command({"ip", "-d", "address"}).ok(),
            host_dir->command({"ip", "-d", "address"}).ok());
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioBundle, ::testing::ValuesIn(scenario_names()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(OpenBundle, NoSuchPathIsNotFoundNamingIt) {
  auto r = open_bundle("/nonexistent/bundle-xyz");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_NE(r.error().message.find("no such bundle: /nonexistent/bundle-xyz"), std::string::npos);
}

TEST(OpenBundle, SomethingElseIsInvalidArgumentSayingWhatWasExpected) {
  const std::string dir = testing::make_temp_dir("notbundle");
  testing::write_file(dir + "/a/readme.txt", "hello");
  testing::write_file(dir + "/b/x", "hello");
  auto r = open_bundle(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_NE(r.error().message.find("hosts/"), std::string::npos);
  auto file = open_bundle(dir + "/a/readme.txt");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().code, ErrorCode::InvalidArgument);
}

TEST(OpenBundle, BadPartsBecomeProblemsAndTheRestLoads) {
  const std::string dir = testing::make_temp_dir("partial");
  testing::write_file(dir + "/hosts/n1/0/captured_at", "1.0");
  testing::write_file(dir + "/hosts/n1/notes.txt", "extra files are ignored");
  testing::write_file(dir + "/perftest/n1-n2/ib_write_bw", "no double underscore");
  testing::write_file(dir + "/perftest/n1__n2/ib_write_bw_-d_mlx5_0_n2", "BW peak");
  testing::make_link("/etc/passwd", dir + "/perftest/n1__n2/evil");
  testing::make_link("/etc", dir + "/hosts/n1/9");
  testing::write_file(dir + "/switches/leaf1/0/captured_at", "1.0");
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->hosts.size(), 1u);
  EXPECT_EQ(r->hosts[0].samples.size(), 1u);
  EXPECT_EQ(r->switches.size(), 1u);
  ASSERT_EQ(r->perftests.size(), 1u);
  EXPECT_EQ(r->perftests[0].client, "n1");
  EXPECT_EQ(r->perftests[0].server, "n2");
  EXPECT_EQ(r->perftests[0].text, "BW peak");
  EXPECT_FALSE(r->perftests[0].baseline);
  std::string all;
  for (const Error& e : r->problems) {
    all += e.describe() + "\n";
  }
  EXPECT_NE(all.find("n1-n2"), std::string::npos) << all;
  EXPECT_NE(all.find("evil"), std::string::npos) << all;
  EXPECT_NE(all.find("hosts/n1/9"), std::string::npos) << all;
  EXPECT_FALSE(r->manifest_json.has_value());
}

std::string sos_fixture() {
  for (const auto& entry : fs::directory_iterator(testing::source_dir() + "/tests/fixtures/sos")) {
    if (has_archive_suffix(entry.path().filename().string())) {
      return entry.path().string();
    }
  }
  ADD_FAILURE() << "no sos report fixture";
  return {};
}

void expect_sos_host(const Bundle& bundle) {
  ASSERT_EQ(bundle.hosts.size(), 1u);
  EXPECT_TRUE(bundle.switches.empty());
  EXPECT_EQ(bundle.hosts[0].name, "vm");
  ASSERT_EQ(bundle.hosts[0].samples.size(), 1u);
  const auto& sample = bundle.hosts[0].samples[0].source;
  auto when = sample->captured_at();
  ASSERT_TRUE(when.ok()) << when.error().describe();
  // `date --utc` said Wed Dec  2 09:26:33 UTC 2026.
  EXPECT_EQ(*when, 1796203593.0);
  auto addresses = sample->command({"ip", "-d", "address"});
  ASSERT_TRUE(addresses.ok()) << addresses.error().describe();
  EXPECT_NE(addresses->find("mtu"), std::string::npos);
  EXPECT_TRUE(sample->command({"/usr/sbin/ip", "route", "show", "table", "all"}).ok());
  EXPECT_TRUE(sample->command({"journalctl", "--no-pager", "--unit", "chrony"}).ok());
  EXPECT_EQ(sample->command({"chronyc", "tracking"}).error().code, ErrorCode::NotFound);
  // sos keeps sysfs links relative; they resolve inside the report.
  auto packets = sample->read_file("/sys/class/net/lo/statistics/rx_packets");
  ASSERT_TRUE(packets.ok()) << packets.error().describe();
  EXPECT_TRUE(parse_u64(trim(*packets)).has_value()) << *packets;
  // proc/net -> self/net -> <pid>/net: a chain of links inside the report.
  auto dev = sample->read_file("/proc/net/dev");
  ASSERT_TRUE(dev.ok()) << dev.error().describe();
  EXPECT_NE(dev->find("lo:"), std::string::npos);
}

TEST(OpenBundle, SosReportTarballIsOneHostOneSample) {
  auto r = open_bundle(sos_fixture());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  expect_sos_host(*r);
}

TEST(OpenBundle, ExtractedSosReportDirectoryIsOneHostOneSample) {
  const std::string dir = testing::make_temp_dir("sos");
  testing::extract_tar(sos_fixture(), dir);
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  expect_sos_host(*r);
}

TEST(OpenBundle, SosReportTarballAsAHostSampleInsideABundle) {
  const std::string dir = testing::make_temp_dir("sosinbundle");
  fs::create_directories(dir + "/hosts/vm");
  fs::copy_file(sos_fixture(), dir + "/hosts/vm/" + fs::path(sos_fixture()).filename().string());
  testing::write_file(dir + "/hosts/other/0/captured_at", "1796203000");
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->hosts.size(), 2u);
  EXPECT_EQ(r->hosts[1].name, "vm");
  ASSERT_EQ(r->hosts[1].samples.size(), 1u);
  EXPECT_EQ(r->hosts[1].samples[0].name.rfind("sosreport-vm", 0), 0u);
  EXPECT_EQ(*r->hosts[1].samples[0].source->captured_at(), 1796203593.0);
  EXPECT_TRUE(r->hosts[1].samples[0].source->command({"ip", "-d", "address"}).ok());
}

// The reports an on-call engineer was sent, in one folder: each is a host named from its own
// report (not from the file name), extracted or not; anything else beside them is ignored and a
// broken report is a problem naming it.
TEST(OpenBundle, FolderOfSosReportsIsOneHostEach) {
  const std::string dir = testing::make_temp_dir("sosfolder");
  const std::string archive = fs::path(sos_fixture()).filename().string();
  fs::copy_file(sos_fixture(), dir + "/" + archive);
  const std::string staging = testing::make_temp_dir("sosfolder-staging");
  testing::extract_tar(sos_fixture(), staging);
  const fs::path extracted = fs::directory_iterator(staging)->path();
  fs::rename(extracted, dir + "/sosreport-b2-2026-12-03-xyz");
  testing::write_file(dir + "/sosreport-b2-2026-12-03-xyz/hostname", "gpu-b002\n");
  testing::write_file(dir + "/README.txt", "ten reports from the night shift\n");
  testing::write_file(dir + "/sosreport-broken-2026-12-03.tar.xz", "not an archive");
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->hosts.size(), 2u);
  EXPECT_EQ(r->hosts[0].name, "gpu-b002");
  EXPECT_EQ(r->hosts[1].name, "vm");
  for (const auto& host : r->hosts) {
    ASSERT_EQ(host.samples.size(), 1u) << host.name;
    EXPECT_EQ(*host.samples[0].source->captured_at(), 1796203593.0) << host.name;
    EXPECT_TRUE(host.samples[0].source->command({"ip", "-d", "address"}).ok()) << host.name;
  }
  EXPECT_EQ(r->hosts[0].samples[0].name, "sosreport-b2-2026-12-03-xyz");
  std::string all;
  for (const Error& e : r->problems) {
    all += e.describe() + "\n";
  }
  EXPECT_NE(all.find("sosreport-broken"), std::string::npos) << all;
  EXPECT_EQ(all.find("README"), std::string::npos) << all;
}

// Several captures as one fabric: a host met twice keeps both samples in the order the bundles
// were given, and a bundle that will not open is named while the rest load.
TEST(OpenBundles, MachinesOfEveryBundleJoinAndABadOneIsNamed) {
  const std::string first = testing::make_temp_dir("merge-a");
  const std::string second = testing::make_temp_dir("merge-b");
  testing::write_file(first + "/hosts/n1/0/captured_at", "100");
  testing::write_file(first + "/switches/leaf1/0/captured_at", "100");
  testing::write_file(second + "/hosts/n1/0/captured_at", "130");
  testing::write_file(second + "/hosts/n2/0/captured_at", "130");
  testing::write_file(second + "/perftest/n1__n2/ib_write_bw", "BW peak");
  auto r = open_bundles({first, second, first + "/no-such-bundle"});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->hosts.size(), 2u);
  EXPECT_EQ(r->hosts[0].name, "n1");
  ASSERT_EQ(r->hosts[0].samples.size(), 2u);
  EXPECT_EQ(r->hosts[0].samples[0].name, "b1-0");
  EXPECT_EQ(r->hosts[0].samples[1].name, "b2-0");
  EXPECT_EQ(*r->hosts[0].samples[1].source->captured_at(), 130.0);
  ASSERT_EQ(r->hosts[1].samples.size(), 1u);
  EXPECT_EQ(r->hosts[1].samples[0].name, "0");  // no clash, no prefix
  ASSERT_EQ(r->switches.size(), 1u);
  ASSERT_EQ(r->perftests.size(), 1u);
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_NE(r->problems[0].describe().find("no-such-bundle"), std::string::npos);
  EXPECT_FALSE(open_bundles({first + "/nope", second + "/nope"}).ok());
}

// Whole-bundle folders (NCCL logs, InfiniBand fabric views) of every bundle are read: a job's
// logs split over two captures list together, each file read from the capture that has it.
TEST(OpenBundles, NcclFoldersOfEveryBundleAreOneTree) {
  const std::string first = testing::make_temp_dir("merge-nccl-a");
  const std::string second = testing::make_temp_dir("merge-nccl-b");
  testing::write_file(first + "/hosts/n1/0/captured_at", "100");
  testing::write_file(first + "/nccl/job/n1.log", "from the first");
  testing::write_file(second + "/hosts/n2/0/captured_at", "130");
  testing::write_file(second + "/nccl/job/n2.log", "from the second");
  testing::write_file(second + "/nccl/other/all_reduce_perf", "second job");
  auto r = open_bundles({first, second});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto jobs = r->tree->list("nccl");
  ASSERT_TRUE(jobs.ok()) << jobs.error().describe();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].name, "job");
  EXPECT_EQ((*jobs)[1].name, "other");
  auto files = r->tree->list("nccl/job");
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ(*r->tree->read("nccl/job/n1.log"), "from the first");
  EXPECT_EQ(*r->tree->read("nccl/job/n2.log"), "from the second");
  EXPECT_NE(r->tree->display_path("nccl/job/n2.log").find(second), std::string::npos)
      << r->tree->display_path("nccl/job/n2.log");
  EXPECT_EQ(r->tree->read("nccl/job/n3.log").error().code, ErrorCode::NotFound);
  EXPECT_EQ(r->tree->list("fabric").error().code, ErrorCode::NotFound);
}

// A bundle of InfiniBand fabric views alone opens: its samples are listed in name order, each
// reading its own subtree (captured_at, sos_commands/<group>/<command>).
TEST(OpenBundle, FabricOnlyBundleListsItsSamplesInOrder) {
  const std::string dir = testing::make_temp_dir("fabric-only");
  testing::write_file(dir + "/fabric/s001/captured_at", "130");
  testing::write_file(dir + "/fabric/s000/captured_at", "100");
  testing::write_file(dir + "/fabric/s000/sos_commands/infiniband/sminfo", "sm lid 1");
  testing::write_file(dir + "/fabric/README", "not a sample");
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->hosts.empty());
  ASSERT_EQ(r->fabric_samples.size(), 2u);
  EXPECT_EQ(r->fabric_samples[0].name, "s000");
  EXPECT_EQ(r->fabric_samples[1].name, "s001");
  EXPECT_EQ(*r->fabric_samples[0].source->captured_at(), 100.0);
  EXPECT_EQ(*r->fabric_samples[1].source->captured_at(), 130.0);
  auto sminfo = r->fabric_samples[0].source->command({"sminfo"});
  ASSERT_TRUE(sminfo.ok()) << sminfo.error().describe();
  EXPECT_EQ(*sminfo, "sm lid 1");
  EXPECT_EQ(r->fabric_samples[1].source->command({"sminfo"}).error().code, ErrorCode::NotFound);
}

TEST(OpenBundle, NcclOnlyBundleOpens) {
  const std::string dir = testing::make_temp_dir("nccl-only");
  testing::write_file(dir + "/nccl/job/n1.log", "NCCL INFO");
  auto r = open_bundle(dir);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->hosts.empty());
  EXPECT_TRUE(r->fabric_samples.empty());
  EXPECT_TRUE(r->tree->read("nccl/job/n1.log").ok());
}

// Fabric samples of several bundles are one series; names met twice are prefixed by the bundle.
TEST(OpenBundles, FabricSamplesOfEveryBundleJoinInOrder) {
  const std::string first = testing::make_temp_dir("merge-fabric-a");
  const std::string second = testing::make_temp_dir("merge-fabric-b");
  const std::string third = testing::make_temp_dir("merge-fabric-c");
  testing::write_file(first + "/fabric/0/captured_at", "100");
  testing::write_file(second + "/fabric/0/captured_at", "130");
  testing::write_file(third + "/hosts/n1/0/captured_at", "140");
  auto r = open_bundles({first, second, third});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->fabric_samples.size(), 2u);
  EXPECT_EQ(r->fabric_samples[0].name, "b1-0");
  EXPECT_EQ(r->fabric_samples[1].name, "b2-0");
  EXPECT_EQ(*r->fabric_samples[1].source->captured_at(), 130.0);
  auto lone = open_bundles({first, third});
  ASSERT_TRUE(lone.ok());
  ASSERT_EQ(lone->fabric_samples.size(), 1u);
  EXPECT_EQ(lone->fabric_samples[0].name, "0");  // no clash, no prefix
}

}  // namespace
}  // namespace netdoctor
