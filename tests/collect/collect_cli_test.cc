// `netdoctor collect` end to end: the built binary captures fake roots (mlx5 + bnxt) to a
// directory, a .tar.gz and stdout, and fans out over pdsh's exec module on this machine, one
// fake root per "host"; the results read back through `netdoctor inventory` and open_bundle.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/command_runner.h"
#include "base/strings.h"
#include "tests/collect/fake_sysfs.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::netdoctor_binary;
using netdoctor::testing::RunOutput;

// The real binary, no shell: an argument vector, a clean environment, a fresh sandbox.
RunOutput run(const std::vector<std::string>& args) {
  return netdoctor::testing::run_netdoctor(args, netdoctor::testing::RunOptions{});
}

std::vector<std::string> nic_devices(const std::string& bundle) {
  const RunOutput inventory = run({"inventory", "--format", "json", "--bundle", bundle});
  EXPECT_EQ(inventory.exit_code, 0) << inventory.err;
  std::vector<std::string> devices;
  const auto json = nlohmann::json::parse(inventory.out, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << inventory.out;
  const std::string text = inventory.out;
  for (const char* device : {"mlx5_0", "bnxt_re0"}) {
    if (contains(text, device)) {
      devices.emplace_back(device);
    }
  }
  return devices;
}

class CollectCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_root = make_temp_dir("collect-cli-root");
    netdoctor::testing::write_fake_host(m_root, "fakehost");
  }
  std::string m_root;
};

TEST_F(CollectCli, FakeRootToDirectoryReadsBackInInventory) {
  const std::string out = make_temp_dir("collect-cli-dir") + "/bundle";
  const RunOutput result =
      run({"collect", "--root", m_root, "--samples", "2", "--interval", "0.2", "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "2 RDMA device(s)")) << result.err;
  EXPECT_TRUE(std::filesystem::exists(out + "/hosts/fakehost/1/captured_at"));
  EXPECT_TRUE(std::filesystem::exists(out + "/bundle.json"));
  EXPECT_EQ(nic_devices(out), (std::vector<std::string>{"mlx5_0", "bnxt_re0"}));

  // A second capture into the same directory would mix with the first: refused.
  const RunOutput again = run({"collect", "--root", m_root, "--samples", "1", "--out", out});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_TRUE(contains(again.err, "not empty")) << again.err;
}

// The job's NCCL logs ride along under nccl/<job>/: two files of one name both kept, a file
// that is not there said by name, the rest of the capture unharmed.
TEST_F(CollectCli, NcclLogsAreCopiedUnderTheJobAndAMissingOneIsNamed) {
  const std::string reference =
      netdoctor::testing::reference_file("nccl/nccl_info_channel_via_net_ib_roce_gid.txt");
  const std::string other =
      make_temp_dir("collect-cli-nccl") + "/nccl_info_channel_via_net_ib_roce_gid.txt";
  std::ofstream(other) << "node1:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n";
  const std::string missing = make_temp_dir("collect-cli-nccl-missing") + "/rank0.log";
  const std::string out = make_temp_dir("collect-cli-nccl-out") + "/bundle";
  const RunOutput result =
      run({"collect", "--root", m_root, "--samples", "1", "--out", out, "--nccl-job", "llama-70b",
           "--nccl-log", reference, "--nccl-log", missing, "--nccl-log", other});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "rank0.log")) << result.err;
  EXPECT_TRUE(contains(result.err, "2 of 3 NCCL log(s)")) << result.err;
  const std::string dir = out + "/nccl/llama-70b/";
  EXPECT_EQ(netdoctor::testing::read_text(dir + "nccl_info_channel_via_net_ib_roce_gid.txt"),
            netdoctor::testing::read_text(reference));
  EXPECT_TRUE(
      contains(netdoctor::testing::read_text(dir + "nccl_info_channel_via_net_ib_roce_gid-2.txt"),
               "NET/Socket"));
  EXPECT_TRUE(std::filesystem::exists(out + "/hosts/fakehost/0/captured_at"));
  const RunOutput bad = run({"collect", "--root", m_root, "--out", out + "2", "--nccl-job", "../up",
                             "--nccl-log", reference});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(contains(bad.err, "../up")) << bad.err;
}

TEST_F(CollectCli, FakeRootToTarGzAndToStdoutOpenAsBundles) {
  const std::string archive = make_temp_dir("collect-cli-tgz") + "/cap.tar.gz";
  RunOutput result =
      run({"collect", "--root", m_root, "--host", "n7", "--samples", "1", "--out", archive});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto bundle = open_bundle(archive);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  ASSERT_EQ(bundle->hosts.size(), 1u);
  EXPECT_EQ(bundle->hosts[0].name, "n7");

  result = run({"collect", "--root", m_root, "--host", "n8", "--samples", "1", "--out", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto tree = open_tar_tree_from_memory(result.out, "stdout");
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  EXPECT_TRUE((*tree)->read("hosts/n8/0/sys/class/infiniband/bnxt_re0/fw_ver").ok());
}

TEST_F(CollectCli, UsageErrorsAndABadRoot) {
  EXPECT_EQ(run({"collect", "--out", "/tmp/x", "--samples", "0"}).exit_code, 2);
  EXPECT_EQ(run({"collect", "--out", "/tmp/x", "--base64"}).exit_code, 2);
  EXPECT_EQ(run({"collect", "--out", "/tmp/x", "--hosts", "n[1-", "--via", "ssh"}).exit_code, 2);
  EXPECT_EQ(run({"collect", "--out", "/tmp/x", "--hosts", "n1"}).exit_code, 2);
  const RunOutput bad = run({"collect", "--root", "/nonexistent/root", "--host", "h", "--out",
                             make_temp_dir("collect-cli-bad") + "/b"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(contains(bad.err, "--root")) << bad.err;
}

// pdsh's exec module runs the "remote" command here, once per host: a real launcher over
// loopback. h2 points at a root that does not exist and must fail alone.
TEST_F(CollectCli, PdshFanOutMergesEveryHostAndReportsTheFailedOne) {
  if (find_program("pdsh").empty()) {
    GTEST_SKIP() << "pdsh not installed (apt-get install pdsh)";
  }
  const std::string roots = make_temp_dir("collect-cli-roots");
  for (const char* host : {"h1", "h3", "rack1-n01"}) {
    netdoctor::testing::write_fake_host(roots + "/" + host, std::string("self-") + host);
  }
  const std::string out = make_temp_dir("collect-cli-fan") + "/cluster.tar.gz";
  const RunOutput result = run(
      {"collect", "--hosts", "h[1-3],rack1-n01", "--via", "pdsh", "--pdsh-rcmd", "exec",
       "--parallel", "2", "--samples", "2", "--interval", "0.1", "--remote-command",
       netdoctor_binary(), "--remote-arg=--root", "--remote-arg=" + roots + "/%h", "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "merged 3 of 4 host(s)")) << result.err;
  EXPECT_TRUE(contains(result.err, "h2: FAILED")) << result.err;
  EXPECT_TRUE(contains(result.err, "3/4 hosts done, 1 failed, 0 pending")) << result.err;
  EXPECT_TRUE(contains(result.err, "left out 1 host(s)")) << result.err;

  auto bundle = open_bundle(out);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  std::vector<std::string> names;
  for (const auto& host : bundle->hosts) {
    names.push_back(host.name);
    EXPECT_EQ(host.samples.size(), 2u) << host.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"h1", "h3", "rack1-n01"}));
  const auto log = bundle->tree->read("netdoctor_collect.log");
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(contains(*log, "h2: FAILED")) << *log;
  EXPECT_EQ(nic_devices(out), (std::vector<std::string>{"mlx5_0", "bnxt_re0"}));
}

// An `ssh` first on the PATH that runs the command here as the remote shell would, except that
// h2 never answers (it hangs until it is killed) and h3 refuses the connection.
TEST_F(CollectCli, AHungHostTimesOutAndIsLeftOutWhileTheOthersMerge) {
  const std::string roots = make_temp_dir("collect-cli-hang-roots");
  for (const char* host : {"h1", "h4"}) {
    netdoctor::testing::write_fake_host(roots + "/" + host, host);
  }
  const std::string bin = make_temp_dir("collect-cli-hang-bin");
  {
    std::ofstream ssh(bin + "/ssh");
    // ssh -o BatchMode=yes -o ConnectTimeout=10 -- HOST 'COMMAND'
    ssh << "#!/bin/sh\n"
           "case \"$6\" in\n"
           "  h2) exec sleep 600 ;;\n"
           "  h3) echo \"ssh: connect to host h3 port 22: Connection refused\" >&2; exit 255 ;;\n"
           "esac\n"
           "eval \"$7\"\n";
  }
  std::filesystem::permissions(bin + "/ssh", std::filesystem::perms::owner_all);
  const std::string out = make_temp_dir("collect-cli-hang") + "/cluster.tar.gz";
  netdoctor::testing::RunOptions options;
  options.env = {{"PATH", bin + ":/usr/bin:/bin"}};
  const auto started = std::chrono::steady_clock::now();
  const RunOutput result = netdoctor::testing::run_netdoctor(
      {"collect", "--hosts", "h[1-4]", "--via", "ssh", "--parallel", "4", "--host-timeout", "2",
       "--samples", "1", "--no-fabric", "--remote-command", netdoctor_binary(),
       "--remote-arg=--root", "--remote-arg=" + roots + "/%h", "--out", out},
      options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_LT(seconds, 30.0) << "the hang is cut at --host-timeout";
  EXPECT_TRUE(contains(result.err, "2/4 hosts done, 2 failed, 0 pending (slowest so far h2"))
      << result.err;
  EXPECT_TRUE(contains(result.err, "merged 2 of 4 host(s)")) << result.err;
  EXPECT_TRUE(contains(result.err, "left out 2 host(s):")) << result.err;
  EXPECT_TRUE(contains(result.err, "h2: timed out: no answer within 2s, the launcher was killed"))
      << result.err;
  EXPECT_TRUE(contains(result.err, "h3: exit 255 (host unreachable or connection refused)"))
      << result.err;
  auto bundle = open_bundle(out);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  std::vector<std::string> names;
  for (const auto& host : bundle->hosts) {
    names.push_back(host.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"h1", "h4"}));
  const auto log = bundle->tree->read("netdoctor_collect.log");
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(contains(*log, "h2: FAILED: timed out")) << *log;
}

}  // namespace
}  // namespace netdoctor::cli
