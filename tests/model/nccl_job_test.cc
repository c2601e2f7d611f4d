// NCCL jobs from nccl/<job>/ files: real NCCL_DEBUG=INFO and nccl-tests outputs (shared
// reference), both parsers on every file, hosts joined by name or file name, a file that is
// neither a problem naming it, and nothing read when the source is withheld.
#include <gtest/gtest.h>

#include <string>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/mem_bundle.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

std::string reference(const std::string& name) {
  return netdoctor::testing::read_text(netdoctor::testing::reference_file("nccl/" + name));
}

MemBundle with_host(const std::string& host) {
  MemBundle b;
  b.time(host, "0", 10.0);
  b.file(host, "0", "/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  return b;
}

Fabric load(const MemBundle& b, LoadOptions options = {}) {
  auto fabric = load_fabric(b.build(), options);
  EXPECT_TRUE(fabric.ok());
  return fabric.ok() ? std::move(fabric).value() : Fabric{};
}

TEST(NcclJob, ALogWithoutHostNamesJoinsTheHostItsFileIsNamedAfter) {
  MemBundle b = with_host("node01");
  b.tree().add_file("nccl/train-7/node01.log",
                    reference("nccl_info_channel_via_net_ib_roce_gid.txt"));
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const NcclJob& job = fabric.nccl_jobs[0];
  EXPECT_EQ(job.name, "train-7");
  ASSERT_EQ(job.hosts.size(), 1u);
  const NcclHostView& view = job.hosts[0];
  EXPECT_EQ(view.host, "node01");
  EXPECT_EQ(view.fabric_host, "node01");
  EXPECT_EQ(view.net_channels, 16u);
  EXPECT_EQ(view.channels.at("NET/IB"), 16u);
  EXPECT_EQ(view.gdr_channels, 0u);  // "via NET/IB/4" without /GDRDMA
  ASSERT_TRUE(view.rings_gdr.has_value());
  EXPECT_FALSE(*view.rings_gdr);  // "use ring PXN 0 GDR 0"
  EXPECT_EQ(view.env.at("NCCL_IB_GID_INDEX"), "3");
  EXPECT_EQ(job.env.at("NCCL_IB_GID_INDEX"), "3");
  EXPECT_FALSE(job.busbw_peak_gbyte_s.has_value());
  EXPECT_EQ(fabric.hosts[0].sources.at(source::k_nccl).availability, Availability::Observed);
}

TEST(NcclJob, NcclTestsGiveThePeakAndAverageBusBandwidthAndTheirHosts) {
  MemBundle b = with_host("kubeflow-nccl-test-3-worker-0");
  b.tree().add_file("nccl/a800/all_reduce_perf.txt",
                    reference("all_reduce_perf_a800_24rank_k8s.txt"));
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const NcclJob& job = fabric.nccl_jobs[0];
  ASSERT_TRUE(job.busbw_peak_gbyte_s.has_value());
  EXPECT_DOUBLE_EQ(*job.busbw_peak_gbyte_s, 42.34);
  ASSERT_TRUE(job.busbw_avg_gbyte_s.has_value());
  EXPECT_NEAR(*job.busbw_avg_gbyte_s, 41.6967, 1e-9);
  EXPECT_EQ(job.test_hosts.size(), 12u);
  EXPECT_EQ(job.test_hosts.front(), "kubeflow-nccl-test-3-master-0");
  EXPECT_TRUE(job.hosts.empty());  // no NCCL INFO line: no host view
  EXPECT_TRUE(fabric.problems.empty());
}

TEST(NcclJob, AFileWithBothTheLogAndTheTableFeedsBoth) {
  MemBundle b = with_host("hostname");
  b.tree().add_file("nccl/superbench/out.txt",
                    reference("all_reduce_perf_a100_8gpu_1node_info_line_in_table_superbench.txt"));
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const NcclJob& job = fabric.nccl_jobs[0];
  ASSERT_TRUE(job.busbw_peak_gbyte_s.has_value());
  EXPECT_DOUBLE_EQ(*job.busbw_peak_gbyte_s, 235.26);
  ASSERT_EQ(job.hosts.size(), 1u);
  EXPECT_EQ(job.hosts[0].fabric_host, "hostname");
  EXPECT_EQ(job.hosts[0].net_channels, 0u);
}

TEST(NcclJob, AFileThatIsNeitherIsAProblemNamingItAndTheRestLoads) {
  MemBundle b = with_host("node01");
  b.tree().add_file("nccl/j/node01.log", reference("nccl_info_channel_via_net_ib_roce_gid.txt"));
  b.tree().add_file("nccl/j/notes.txt", "the job was restarted twice\n");
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  EXPECT_EQ(fabric.nccl_jobs[0].files.size(), 1u);
  ASSERT_EQ(fabric.problems.size(), 1u);
  EXPECT_EQ(fabric.problems[0].source, source::k_nccl);
  EXPECT_NE(fabric.problems[0].error.context.find("notes.txt"), std::string::npos);
}

TEST(NcclJob, HostsJoinByShortNameAndAnUnknownHostStaysUnjoined) {
  MemBundle b = with_host("node01");
  b.tree().add_file("nccl/j/all.log",
                    "node01.cluster.local:10:10 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE "
                    "[1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>\n"
                    "node09:11:11 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.9<0>\n"
                    "node09:11:11 [0] NCCL INFO Using network Socket\n"
                    "node09:11:11 [0] NCCL WARN NET/IB : No device found.\n");
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const auto& hosts = fabric.nccl_jobs[0].hosts;
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].host, "node01.cluster.local");
  EXPECT_EQ(hosts[0].fabric_host, "node01");
  EXPECT_EQ(hosts[0].hcas, (std::vector<std::string>{"mlx5_0", "mlx5_1"}));
  EXPECT_EQ(hosts[1].host, "node09");
  EXPECT_EQ(hosts[1].fabric_host, "");
  EXPECT_EQ(hosts[1].network, "Socket");
  EXPECT_EQ(hosts[1].warnings.size(), 1u);
}

TEST(NcclJob, APerHostFilesSettingsStayWithItsHost) {
  MemBundle b = with_host("node01");
  b.tree().add_file("nccl/j/node01.log",
                    "node01:10:10 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n"
                    "node01:10:10 [0] NCCL INFO Using network IB\n");
  b.tree().add_file("nccl/j/node02.log",
                    "node02:11:11 [0] NCCL INFO NCCL_IB_HCA set by environment to =mlx5_0.\n"
                    "node02:11:11 [0] NCCL INFO Using network IB\n");
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const auto& hosts = fabric.nccl_jobs[0].hosts;
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].env.count("NCCL_IB_HCA"), 0u);
  EXPECT_EQ(hosts[0].env.at("NCCL_IB_GID_INDEX"), "3");
  EXPECT_EQ(hosts[1].env.at("NCCL_IB_HCA"), "=mlx5_0");
  EXPECT_EQ(hosts[1].env.count("NCCL_IB_GID_INDEX"), 0u);
  EXPECT_EQ(fabric.nccl_jobs[0].env.size(), 2u);  // the job: every setting any file logged
}

TEST(NcclJob, WithheldNothingIsRead) {
  MemBundle b = with_host("node01");
  b.tree().add_file("nccl/j/node01.log", reference("nccl_info_channel_via_net_ib_roce_gid.txt"));
  LoadOptions options;
  options.only_sources = std::set<std::string>{source::k_sysfs_port};
  const Fabric fabric = load(b, options);
  EXPECT_TRUE(fabric.nccl_jobs.empty());
  EXPECT_EQ(fabric.hosts[0].sources.count(source::k_nccl), 0u);
}

TEST(NcclJob, TwoHostsOfOneCombinedLogEachGetTheirGdrStateAndChannels) {
  MemBundle b = with_host("21346d5cefce");
  b.tree().add_file(
      "nccl/issue899/combined.log",
      netdoctor::testing::read_text(
          netdoctor::testing::source_dir() +
          "/tests/parsers/data/nccl_log_issue899_gdr_no_module_channels_two_hosts.txt"));
  const Fabric fabric = load(b);
  ASSERT_EQ(fabric.nccl_jobs.size(), 1u);
  const auto& hosts = fabric.nccl_jobs[0].hosts;
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].host, "21346d5cefce");
  EXPECT_EQ(hosts[0].fabric_host, "21346d5cefce");
  EXPECT_EQ(hosts[0].gdr.size(), 3u);
  EXPECT_FALSE(hosts[0].gdr.at("mlx5_2"));
  EXPECT_EQ(hosts[0].net_channels, 6u);
  EXPECT_EQ(hosts[0].gdr_channels, 0u);
  EXPECT_EQ(hosts[1].host, "6a5a91752e39");
  EXPECT_EQ(hosts[1].fabric_host, "");  // not captured: kept, unjoined
  EXPECT_EQ(hosts[1].net_channels, 5u);
}

TEST(NcclJob, NoNcclFolderNoJobs) {
  const Fabric fabric = load(with_host("node01"));
  EXPECT_TRUE(fabric.nccl_jobs.empty());
  EXPECT_TRUE(fabric.problems.empty());
}

}  // namespace
}  // namespace netdoctor::model
