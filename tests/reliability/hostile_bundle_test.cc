// Bundles built to escape or exhaust the reader: links and tar members that point outside,
// bombs, duplicates, huge lines, and a hundred thousand empty directories. Each must be
// refused or reported by name while the rest of the bundle loads, and nothing outside the
// bundle may be read or written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "model/loader.h"
#include "tests/reliability/reliability_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;

bool any_problem_mentions(const std::vector<Error>& problems, const std::string& text) {
  for (const Error& e : problems) {
    if (e.describe().find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool any_problem_mentions(const std::vector<model::Problem>& problems, const std::string& text) {
  for (const auto& p : problems) {
    if (p.error.describe().find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::string ethtool_stats_file(const std::string& sample_dir) {
  for (const auto& entry : fs::recursive_directory_iterator(sample_dir)) {
    if (entry.path().filename().string().rfind("ethtool_-S_", 0) == 0) {
      return entry.path().string();
    }
  }
  ADD_FAILURE() << "no ethtool -S output under " << sample_dir;
  return sample_dir + "/missing";
}

constexpr const char* k_canary_counter = "4242424242";

// A canary holding valid `ethtool -S` text with a counter value nothing else has.
std::string plant_stats_canary(const std::string& dir) {
  const std::string path = dir + "/outside-ethtool-S";
  write_file(path, std::string("NIC statistics:\n     rx_vport_rdma_unicast_packets: ") +
                       k_canary_counter + "\n");
  return path;
}

TEST(SymlinkOutOfBundle, AbsoluteAndClimbingLinksAreRefusedAndNamed) {
  const std::string sandbox = make_temp_dir("symlink");
  const std::string outside = sandbox + "/outside";
  fs::create_directories(outside);
  const std::string target = plant_stats_canary(outside);
  Canary canary(outside);
  const std::string dir = sandbox + "/bundle";
  const auto hosts = make_sim_bundle(dir, 3);

  const std::string absolute_link = ethtool_stats_file(first_sample_dir(dir, hosts[0]));
  fs::remove(absolute_link);
  fs::create_symlink(target, absolute_link);
  const std::string climbing_link = ethtool_stats_file(first_sample_dir(dir, hosts[1]));
  fs::remove(climbing_link);
  fs::create_symlink(fs::relative(target, fs::path(climbing_link).parent_path()), climbing_link);
  // A whole host directory that is a link to a directory outside.
  fs::create_directory_symlink(outside, dir + "/hosts/zz-evil");

  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_FALSE(fabric->hosts.empty());
  EXPECT_TRUE(any_problem_mentions(fabric->problems, fs::path(absolute_link).filename().string()));
  EXPECT_TRUE(any_problem_mentions(fabric->problems, hosts[0]));
  EXPECT_TRUE(any_problem_mentions(fabric->problems, hosts[1]));
  for (const auto& host : fabric->hosts) {
    EXPECT_NE(host.name, "zz-evil") << "a host directory outside the bundle was loaded";
  }

  for (const char* format : {"text", "json"}) {
    const RunOutput run =
        run_netdoctor({"inventory", "--bundle", dir, "--format", format}, sandbox);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find(k_canary_counter), std::string::npos) << "read through a link";
    EXPECT_NE(run.out.find(fs::path(absolute_link).filename().string()), std::string::npos);
  }
  const RunOutput diagnose = run_netdoctor({"diagnose", "--bundle", dir}, sandbox);
  EXPECT_EQ(diagnose.exit_code, 0) << diagnose.err;
  EXPECT_EQ(diagnose.out.find(k_canary_counter), std::string::npos);
  EXPECT_EQ(canary.check(), "");
}

// The sim bundle as tar members under "b/", then `extra` appended.
std::string sim_tar(const std::string& sandbox, std::vector<std::string>& hosts,
                    const std::function<void(RawTar&)>& extra) {
  const std::string dir = sandbox + "/src";
  hosts = make_sim_bundle(dir, 2);
  RawTar tar;
  tar.add_tree(dir, "b");
  extra(tar);
  fs::remove_all(dir);
  return tar.bytes();
}

TEST(TarMembers, DotDotAndAbsoluteNamesAreRefusedNamedAndNeverWritten) {
  const std::string sandbox = make_temp_dir("tar-escape");
  Canary canary(sandbox);
  std::vector<std::string> hosts;
  const std::string bytes = sim_tar(sandbox, hosts, [&](RawTar& tar) {
    tar.add_file("../../etc/netdoctor-escape", "x\n");
    tar.add_file("b/../../netdoctor-escape2", "x\n");
    tar.add_file("/tmp/netdoctor-absolute-escape", "y\n");
    tar.add_symlink("b/hosts/escape-link", "../../../../../../etc");
    tar.add_symlink("b/hosts/abs-link", "/etc");
  });
  const std::string archive = sandbox + "/bundle.tar";
  write_file(archive, bytes);
  // Refresh the canary's view of the sandbox now that the archive is there.
  Canary after_write(sandbox);

  auto bundle = open_bundle(archive);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  EXPECT_TRUE(any_problem_mentions(bundle->problems, "../../etc/netdoctor-escape"));
  EXPECT_TRUE(any_problem_mentions(bundle->problems, "/tmp/netdoctor-absolute-escape"));
  EXPECT_TRUE(any_problem_mentions(bundle->problems, "bundle.tar"));
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_EQ(fabric->hosts.size(), hosts.size()) << "the good hosts must still load";

  const RunOutput run = run_netdoctor({"inventory", "--bundle", archive}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("netdoctor-escape"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists("/etc/netdoctor-escape"));
  EXPECT_FALSE(fs::exists("/tmp/netdoctor-absolute-escape"));
  EXPECT_FALSE(fs::exists(fs::path(sandbox).parent_path() / "netdoctor-escape2"));
  EXPECT_EQ(after_write.check(), "");
}

TEST(TarBomb, HugeDeclaredSizesAreRefusedWithoutAllocating) {
  const std::string sandbox = make_temp_dir("tar-bomb");
  std::vector<std::string> hosts;
  // Members whose headers claim 1 TiB and 8 EiB but ship a few bytes: the archive ends early.
  const std::string bytes = sim_tar(sandbox, hosts, [](RawTar& tar) {
    tar.add_file_declaring("b/hosts/bomb/0/captured_at", "1\n", 1ull << 40);
  });
  const std::string archive = sandbox + "/bomb.tar";
  write_file(archive, bytes);
  const auto start = std::chrono::steady_clock::now();
  auto bundle = open_bundle(archive);
  if (bundle.ok()) {
    EXPECT_FALSE(bundle->problems.empty()) << "a truncated 1 TiB member went unreported";
    auto fabric = model::load_fabric(*bundle);
    EXPECT_TRUE(fabric.ok());
  } else {
    EXPECT_NE(bundle.error().describe().find("bomb.tar"), std::string::npos)
        << bundle.error().describe();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  const RunOutput run = run_netdoctor({"inventory", "--bundle", archive}, sandbox);
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.exit_code << run.err;
  EXPECT_NE((run.out + run.err).find("bomb"), std::string::npos);
}

TEST(TarBomb, DecompressionBombMemberIsRefusedAndTheRestLoads) {
  const std::string sandbox = make_temp_dir("gzip-bomb");
  std::vector<std::string> hosts;
  // 100 MiB of zeros (over the 64 MiB per-file limit) compresses to ~100 KiB.
  const std::string bytes = sim_tar(sandbox, hosts, [&](RawTar& tar) {
    tar.add_file(
        "b/hosts/" + std::string("bomb-host") + "/0/sos_commands/networking/ethtool_-S_eth0",
        std::string(100u << 20, '\0'));
  });
  const std::string archive = sandbox + "/gzbomb.tar.gz";
  write_file(archive, gzip(bytes));
  ASSERT_LT(fs::file_size(archive), 8u << 20);

  auto bundle = open_bundle(archive);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  std::size_t good = 0;
  for (const auto& host : fabric->hosts) {
    good += (host.name != "bomb-host" && !host.nics.empty()) ? 1U : 0U;
  }
  EXPECT_EQ(good, hosts.size());
  bool named = any_problem_mentions(bundle->problems, "ethtool_-S_eth0") ||
               any_problem_mentions(fabric->problems, "ethtool_-S_eth0");
  EXPECT_TRUE(named) << "the oversized member is not named";
  const RunOutput run = run_netdoctor({"inventory", "--bundle", archive}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(DuplicateHosts, SameHostDirectoryTwiceInATarLoadsOnce) {
  const std::string sandbox = make_temp_dir("dup-tar");
  std::vector<std::string> hosts;
  const std::string src = sandbox + "/again";
  const std::string bytes = sim_tar(sandbox, hosts, [&](RawTar& tar) {
    make_sim_bundle(src, 2);
    tar.add_tree(src + "/hosts/" + hosts[0], "b/hosts/" + hosts[0]);
  });
  const std::string archive = sandbox + "/dup.tar";
  write_file(archive, bytes);
  auto bundle = open_bundle(archive);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_EQ(fabric->hosts.size(), hosts.size());
  const RunOutput run = run_netdoctor({"diagnose", "--bundle", archive}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(DuplicateHosts, SameHostInTwoSpellingsDoesNotBreakTheRun) {
  const std::string sandbox = make_temp_dir("dup-spelling");
  const std::string dir = sandbox + "/bundle";
  const auto hosts = make_sim_bundle(dir, 2);
  fs::copy(dir + "/hosts/" + hosts[0], dir + "/hosts/" + hosts[0] + ".cluster.local",
           fs::copy_options::recursive);
  std::string upper = hosts[0];
  for (char& c : upper) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  fs::copy(dir + "/hosts/" + hosts[0], dir + "/hosts/" + upper, fs::copy_options::recursive);
  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_GE(fabric->hosts.size(), hosts.size());
  for (const char* cmd : {"inventory", "diagnose"}) {
    const RunOutput run = run_netdoctor({cmd, "--bundle", dir}, sandbox);
    EXPECT_EQ(run.exit_code, 0) << cmd << ": " << run.err;
  }
}

TEST(HugeLine, HundredMegabyteSingleLineIsRefusedByNameAndTheRestLoads) {
  const std::string sandbox = make_temp_dir("huge-line");
  const std::string dir = sandbox + "/bundle";
  const auto hosts = make_sim_bundle(dir, 2);
  const std::string victim = ethtool_stats_file(first_sample_dir(dir, hosts[0]));
  write_file(victim, std::string(100u << 20, 'a'));  // no newline, no ':'
  const auto start = std::chrono::steady_clock::now();
  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_TRUE(any_problem_mentions(fabric->problems, fs::path(victim).filename().string()));
  EXPECT_FALSE(fabric->hosts[1].nics.empty());
  const RunOutput run = run_netdoctor({"inventory", "--bundle", dir}, sandbox);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(fs::path(victim).filename().string()), std::string::npos);
  fs::remove(victim);
}

TEST(ManyDirectories, HundredThousandEmptyHostDirectoriesFinishInReasonableTime) {
  const std::string sandbox = make_temp_dir("many-dirs");
  const std::string dir = sandbox + "/bundle";
  make_sim_bundle(dir, 2);
  constexpr int k_dirs = 100'000;
  for (int i = 0; i < k_dirs; ++i) {
    fs::create_directory(dir + "/hosts/empty" + std::to_string(i));
  }
  const auto start = std::chrono::steady_clock::now();
  auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(60));
  std::size_t with_nics = 0;
  for (const auto& host : fabric->hosts) {
    with_nics += host.nics.empty() ? 0U : 1U;
  }
  EXPECT_EQ(with_nics, 2u);
  const RunOutput run = run_netdoctor({"inventory", "--bundle", dir}, sandbox, 180);
  EXPECT_EQ(run.exit_code, 0) << run.err.substr(0, 2000);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace netdoctor::testing
