// The fake cluster the sweep is tested against: every answer parses with the repository's own
// parsers, the hidden faults show where the sweep will look for them, and the launchers'
// failures look like the real ones.
#include "sim/fake_cluster.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "base/strings.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/lldpcli_json.h"
#include "parsers/nccl_tests.h"
#include "parsers/perftest.h"
#include "parsers/rdma_link.h"

namespace netdoctor::sim {
namespace {

using Words = std::vector<std::string>;

Words ssh(const std::string& host, const Words& words) {
  Words quoted;
  for (const std::string& word : words) {
    quoted.push_back(shell_quote(word));
  }
  return {"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "--", host, join(quoted, " ")};
}

Words pdsh(const std::string& host, const Words& words) {
  Words argv = {"pdsh", "-N", "-S", "-R", "ssh", "-w", host};
  for (const std::string& word : words) {
    argv.push_back(shell_quote(word));
  }
  return argv;
}

Words srun(const std::string& host, const Words& words) {
  Words argv = {"srun", "-w", host, "-N1", "-n1", "--"};
  argv.insert(argv.end(), words.begin(), words.end());
  return argv;
}

Words write_bw(const std::string& device, int tcp_port, const std::string& server = "") {
  Words words = {
      "timeout",        "-k", "5", "30", "ib_write_bw",           "-d", device, "-i", "1", "-F",
      "--report_gbits", "-D", "5", "-p", std::to_string(tcp_port)};
  if (!server.empty()) {
    words.push_back(server);
  }
  return words;
}

Words nccl_words(const std::string& test, const Words& hosts, int gpus) {
  Words with_slots;
  for (const std::string& host : hosts) {
    with_slots.push_back(host + ":" + std::to_string(gpus));
  }
  return {"timeout",
          "-k",
          "5",
          "120",
          "mpirun",
          "--host",
          join(with_slots, ","),
          "-np",
          std::to_string(static_cast<int>(hosts.size()) * gpus),
          test,
          "-b",
          "1G",
          "-e",
          "1G",
          "-f",
          "2",
          "-g",
          "1"};
}

CommandOptions seconds(int s) {
  CommandOptions options;
  options.timeout = std::chrono::seconds(s);
  return options;
}

CommandOutput ok_run(FakeCluster& cluster, const Words& argv) {
  auto output = cluster.run(argv, seconds(60));
  EXPECT_TRUE(output.ok()) << (output.ok() ? "" : output.error().describe());
  return output.ok() ? *output : CommandOutput{};
}

struct PairOutputs {
  Result<CommandOutput> server = make_error(ErrorCode::Internal, "not run");
  Result<CommandOutput> client = make_error(ErrorCode::Internal, "not run");
};

// The sweep's way: the server on its own thread, the client after a short head start.
PairOutputs run_pair(FakeCluster& cluster, const std::string& client, const std::string& cdev,
                     const std::string& server, const std::string& sdev, int tcp_port) {
  PairOutputs out;
  std::thread server_side(
      [&] { out.server = cluster.run(ssh(server, write_bw(sdev, tcp_port)), seconds(60)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  out.client = cluster.run(ssh(client, write_bw(cdev, tcp_port, server)), seconds(60));
  server_side.join();
  return out;
}

double measured_gbps(const Result<CommandOutput>& output) {
  if (!output.ok() || output->exit_code != 0) {
    ADD_FAILURE() << (output.ok() ? output->err : output.error().describe());
    return 0;
  }
  const auto parsed = parsers::parse_perftest(output->out);
  EXPECT_TRUE(parsed.ok());
  if (!parsed.ok() || parsed->bw_rows.empty()) {
    ADD_FAILURE() << output->out;
    return 0;
  }
  EXPECT_EQ(parsed->bw_unit, "Gb/sec");
  return parsed->bw_rows[0].bw_average_gbps;
}

std::uint64_t read_counter(FakeCluster& cluster, const std::string& host, const std::string& dev,
                           const std::string& name) {
  const std::string path = "/sys/class/infiniband/" + dev + "/ports/1/counters/" + name;
  const CommandOutput output = ok_run(cluster, ssh(host, {"grep", "-s", "-H", "^", path}));
  const auto lines = split_lines(output.out);
  EXPECT_EQ(lines.size(), 1u) << output.out;
  const std::size_t colon = lines.empty() ? std::string_view::npos : lines[0].rfind(':');
  EXPECT_EQ(lines.empty() ? "" : lines[0].substr(0, colon), path);
  return colon == std::string_view::npos ? 0 : parse_u64(lines[0].substr(colon + 1)).value_or(0);
}

FakeClusterSpec small_spec() {
  FakeClusterSpec spec;
  spec.hosts = 4;
  spec.nics_per_host = 2;
  spec.hosts_per_leaf = 2;
  return spec;
}

TEST(FakeCluster, NamesHostsLeavesAndDevices) {
  FakeCluster cluster(FakeClusterSpec{});
  EXPECT_EQ(cluster.host_name(0), "node0001");
  EXPECT_EQ(cluster.hosts().size(), 16u);
  EXPECT_EQ(cluster.hosts().back(), "node0016");
  EXPECT_EQ(cluster.leaf_of("node0008"), "leaf01");
  EXPECT_EQ(cluster.leaf_of("node0009"), "leaf02");
  EXPECT_EQ(cluster.leaf_of("node9999"), "");
  EXPECT_EQ(cluster.device_name(3), "mlx5_3");
  EXPECT_EQ(cluster.netdev_of("mlx5_3"), "ens4f0np0");
}

TEST(FakeCluster, DiscoveryAnswersParseWithTheRepositoryParsers) {
  FakeCluster cluster(FakeClusterSpec{});
  const auto devinfo =
      parsers::parse_ibv_devinfo(ok_run(cluster, ssh("node0009", {"ibv_devinfo"})).out);
  ASSERT_TRUE(devinfo.ok());
  ASSERT_EQ(devinfo->devices.size(), 8u);
  EXPECT_EQ(devinfo->devices[7].hca_id, "mlx5_7");
  ASSERT_EQ(devinfo->devices[0].ports.size(), 1u);
  const parsers::IbvPort& port = devinfo->devices[0].ports[0];
  EXPECT_EQ(port.state, "PORT_ACTIVE");
  EXPECT_EQ(port.link_layer, "Ethernet");
  EXPECT_EQ(port.rate_gbps.value_or(0), 400.0);

  const auto links =
      parsers::parse_rdma_link(ok_run(cluster, ssh("node0009", {"rdma", "link", "show"})).out);
  ASSERT_TRUE(links.ok());
  ASSERT_EQ(links->links.size(), 8u);
  EXPECT_EQ(links->links[1].device, "mlx5_1");
  EXPECT_EQ(links->links[1].netdev, "ens2f0np0");

  const auto lldp = parsers::parse_lldpcli_json(
      ok_run(cluster, ssh("node0010", {"lldpcli", "-f", "json", "show", "neighbors"})).out);
  ASSERT_TRUE(lldp.ok());
  ASSERT_EQ(lldp->neighbors.size(), 8u);
  EXPECT_EQ(lldp->neighbors[0].local_interface, "ens1f0np0");
  EXPECT_EQ(lldp->neighbors[0].chassis_name, "leaf02");
  EXPECT_EQ(lldp->neighbors[0].port_id, "Ethernet32");  // the leaf's second host, first NIC
  EXPECT_EQ(lldp->neighbors[7].port_id, "Ethernet60");
}

TEST(FakeCluster, InfiniBandHostsShowIbPortsAndNoLldpd) {
  FakeClusterSpec spec = small_spec();
  spec.infiniband = true;
  spec.line_gbps = 200;
  FakeCluster cluster(spec);
  const auto devinfo =
      parsers::parse_ibv_devinfo(ok_run(cluster, ssh("node0001", {"ibv_devinfo"})).out);
  ASSERT_TRUE(devinfo.ok());
  ASSERT_EQ(devinfo->devices.size(), 2u);
  EXPECT_EQ(devinfo->devices[1].ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(devinfo->devices[1].ports[0].rate_gbps.value_or(0), 200.0);
  EXPECT_NE(devinfo->devices[1].ports[0].port_lid.value_or(0), 0u);
  const auto links =
      parsers::parse_rdma_link(ok_run(cluster, ssh("node0001", {"rdma", "link", "show"})).out);
  ASSERT_TRUE(links.ok());
  EXPECT_EQ(links->links[0].state, "ACTIVE");
  const CommandOutput lldp =
      ok_run(cluster, ssh("node0001", {"lldpcli", "-f", "json", "show", "neighbors"}));
  EXPECT_EQ(lldp.exit_code, 1);
  EXPECT_TRUE(lldp.out.empty());
  EXPECT_TRUE(contains(lldp.err, "Unable to connect to lldpd daemon"));
  // perftest on InfiniBand: LIDs, no GIDs.
  const PairOutputs pair = run_pair(cluster, "node0001", "mlx5_0", "node0003", "mlx5_0", 18515);
  EXPECT_NEAR(measured_gbps(pair.client), 200 * 0.96, 200 * 0.96 * 0.01);
  const auto parsed = parsers::parse_perftest(pair.client->out);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->link_type, "IB");
}

TEST(FakeCluster, SshPdshAndSrunFormsAllReachTheHost) {
  FakeCluster cluster(small_spec());
  const std::string by_ssh = ok_run(cluster, ssh("node0002", {"ibv_devinfo"})).out;
  EXPECT_EQ(ok_run(cluster, pdsh("node0002", {"ibv_devinfo"})).out, by_ssh);
  EXPECT_EQ(ok_run(cluster, srun("node0002", {"ibv_devinfo"})).out, by_ssh);
  EXPECT_NE(ok_run(cluster, ssh("node0003", {"ibv_devinfo"})).out, by_ssh);
  // A word with spaces and quotes survives ssh's and pdsh's remote shell.
  const Words pkill = {"pkill", "-TERM", "-x", "-f", "timeout -k 5 30 ib_write_bw -d 'mlx5_0'"};
  EXPECT_EQ(ok_run(cluster, ssh("node0001", pkill)).exit_code, 1);
  EXPECT_EQ(ok_run(cluster, pdsh("node0002", pkill)).exit_code, 1);
  EXPECT_EQ(ok_run(cluster, srun("node0003", pkill)).exit_code, 1);
  const auto seen = cluster.pkills();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].host, "node0001");
  EXPECT_EQ(seen[1].host, "node0002");
  for (const auto& one : seen) {
    EXPECT_EQ(one.words, pkill);
  }
  EXPECT_EQ(cluster.commands_run("ibv_devinfo"), 4u);
  EXPECT_EQ(cluster.commands_run("pkill"), 3u);
  EXPECT_EQ(cluster.commands_run(), 7u);
}

TEST(FakeCluster, CountersAreReadAsGrepPrintsThem) {
  FakeCluster cluster(small_spec());
  const std::string dir = "/sys/class/infiniband/mlx5_1/ports/1/counters/";
  const CommandOutput all =
      ok_run(cluster,
             ssh("node0001", {"grep", "-s", "-H", "^", dir + "port_xmit_data",
                              dir + "port_rcv_data", dir + "symbol_error", dir + "port_rcv_errors",
                              dir + "link_downed", dir + "link_error_recovery"}));
  EXPECT_EQ(all.exit_code, 0);
  const auto lines = split_lines(all.out);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_TRUE(starts_with(lines[0], dir + "port_xmit_data:"));
  EXPECT_EQ(lines[2], dir + "symbol_error:0");
  // A missing file is skipped silently (-s); GNU grep still exits 2.
  const CommandOutput partial =
      ok_run(cluster, ssh("node0001", {"grep", "-s", "-H", "^",
                                       "/sys/class/infiniband/mlx5_9/ports/1/counters/symbol_error",
                                       dir + "link_downed"}));
  EXPECT_EQ(partial.exit_code, 2);
  EXPECT_EQ(partial.out, dir + "link_downed:0\n");
  EXPECT_TRUE(partial.err.empty());
}

TEST(FakeCluster, HealthyPairMeasuresLineRateTimesEfficiencyAndMovesCounters) {
  FakeCluster cluster(small_spec());
  const std::uint64_t xmit = read_counter(cluster, "node0001", "mlx5_0", "port_xmit_data");
  const std::uint64_t rcv = read_counter(cluster, "node0003", "mlx5_1", "port_rcv_data");
  const PairOutputs pair = run_pair(cluster, "node0001", "mlx5_0", "node0003", "mlx5_1", 18515);
  const double gbps = measured_gbps(pair.client);
  EXPECT_NEAR(gbps, 384.0, 384.0 * 0.01);
  EXPECT_NEAR(measured_gbps(pair.server), gbps, 0.01);
  EXPECT_TRUE(contains(pair.server->out, "Waiting for client to connect"));
  EXPECT_TRUE(contains(pair.client->out, "BW peak won't be measured"));
  EXPECT_DOUBLE_EQ(pair.client->duration_s, 5.0 + 2.0 + 0.2);
  // The bytes went out of the client's NIC and into the server's, in 4-byte words.
  const double words = gbps * 1e9 / 8 * 5 / 4;
  EXPECT_NEAR(
      static_cast<double>(read_counter(cluster, "node0001", "mlx5_0", "port_xmit_data") - xmit),
      words, words * 0.001);
  EXPECT_NEAR(
      static_cast<double>(read_counter(cluster, "node0003", "mlx5_1", "port_rcv_data") - rcv),
      words, words * 0.001);
  // The same pair measures the same again (deterministic noise), and the port is free again.
  const PairOutputs again = run_pair(cluster, "node0001", "mlx5_0", "node0003", "mlx5_1", 18515);
  EXPECT_DOUBLE_EQ(measured_gbps(again.client), gbps);
  EXPECT_EQ(cluster.commands_run("ib_write_bw server"), 2u);
  EXPECT_EQ(cluster.commands_run("ib_write_bw client"), 2u);
}

TEST(FakeCluster, SlowNicSlowsEveryPairThroughIt) {
  FakeClusterSpec spec = small_spec();
  spec.slow_nics = {{"node0002", "mlx5_1", 0.5}};
  FakeCluster cluster(spec);
  const double healthy = cluster.healthy_gbps();
  EXPECT_NEAR(
      measured_gbps(run_pair(cluster, "node0002", "mlx5_1", "node0003", "mlx5_0", 18515).client),
      healthy * 0.5, healthy * 0.5 * 0.01);
  EXPECT_NEAR(
      measured_gbps(run_pair(cluster, "node0004", "mlx5_1", "node0002", "mlx5_1", 18516).client),
      healthy * 0.5, healthy * 0.5 * 0.01);
  EXPECT_NEAR(
      measured_gbps(run_pair(cluster, "node0002", "mlx5_0", "node0003", "mlx5_1", 18517).client),
      healthy, healthy * 0.01);
}

TEST(FakeCluster, BadCableSlowsItsPairsAndItsErrorCountersGrowWithEachTest) {
  FakeClusterSpec spec = small_spec();
  spec.bad_cables = {{"node0003", "mlx5_0", 0.7}};
  FakeCluster cluster(spec);
  EXPECT_EQ(read_counter(cluster, "node0003", "mlx5_0", "symbol_error"), 0u);
  const double healthy = cluster.healthy_gbps();
  EXPECT_NEAR(
      measured_gbps(run_pair(cluster, "node0001", "mlx5_0", "node0003", "mlx5_0", 18515).client),
      healthy * 0.7, healthy * 0.7 * 0.01);
  const std::uint64_t symbols = read_counter(cluster, "node0003", "mlx5_0", "symbol_error");
  const std::uint64_t rcv_errors = read_counter(cluster, "node0003", "mlx5_0", "port_rcv_errors");
  EXPECT_GT(symbols, 0u);
  EXPECT_GT(rcv_errors, 0u);
  run_pair(cluster, "node0003", "mlx5_0", "node0002", "mlx5_1", 18516);
  EXPECT_GT(read_counter(cluster, "node0003", "mlx5_0", "symbol_error"), symbols);
  EXPECT_GT(read_counter(cluster, "node0003", "mlx5_0", "port_rcv_errors"), rcv_errors);
  // Its neighbours' counters stay clean.
  EXPECT_EQ(read_counter(cluster, "node0003", "mlx5_1", "symbol_error"), 0u);
  EXPECT_EQ(read_counter(cluster, "node0001", "mlx5_0", "symbol_error"), 0u);
}

TEST(FakeCluster, BusyHostCountersMoveBetweenReadsIdleOnesDoNot) {
  FakeClusterSpec spec = small_spec();
  spec.busy_hosts = {"node0004"};
  FakeCluster cluster(spec);
  const std::uint64_t busy = read_counter(cluster, "node0004", "mlx5_0", "port_xmit_data");
  const std::uint64_t idle = read_counter(cluster, "node0001", "mlx5_0", "port_xmit_data");
  EXPECT_GE(read_counter(cluster, "node0004", "mlx5_0", "port_xmit_data") - busy,
            static_cast<std::uint64_t>(k_busy_bytes_per_read / 4));
  EXPECT_EQ(read_counter(cluster, "node0001", "mlx5_0", "port_xmit_data"), idle);
}

TEST(FakeCluster, HungHostTimesOutWithoutWaiting) {
  FakeClusterSpec spec = small_spec();
  spec.hung_hosts = {"node0002"};
  FakeCluster cluster(spec);
  const auto start = std::chrono::steady_clock::now();
  const auto output = cluster.run(ssh("node0002", {"ibv_devinfo"}), seconds(300));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.error().code, ErrorCode::Timeout);
  EXPECT_TRUE(contains(output.error().message, "300000 ms"));
  EXPECT_EQ(cluster.commands_run("unreachable"), 1u);
}

TEST(FakeCluster, DownAndUnknownHostsFailAsTheLaunchersDo) {
  FakeClusterSpec spec = small_spec();
  spec.down_hosts = {"node0004"};
  FakeCluster cluster(spec);
  const CommandOutput down = ok_run(cluster, ssh("node0004", {"ibv_devinfo"}));
  EXPECT_EQ(down.exit_code, 255);
  EXPECT_EQ(down.err, "ssh: connect to host node0004 port 22: No route to host\n");
  const CommandOutput by_pdsh = ok_run(cluster, pdsh("node0004", {"ibv_devinfo"}));
  EXPECT_EQ(by_pdsh.exit_code, 255);
  EXPECT_TRUE(contains(by_pdsh.err, "No route to host"));
  const auto by_srun = cluster.run(srun("node0004", {"ibv_devinfo"}), seconds(30));
  ASSERT_FALSE(by_srun.ok());  // srun waits for a down node
  EXPECT_EQ(by_srun.error().code, ErrorCode::Timeout);
  const CommandOutput unknown = ok_run(cluster, ssh("node0099", {"ibv_devinfo"}));
  EXPECT_EQ(unknown.exit_code, 255);
  EXPECT_TRUE(contains(unknown.err, "Could not resolve hostname node0099"));
  EXPECT_EQ(ok_run(cluster, srun("node0099", {"ibv_devinfo"})).exit_code, 1);
}

TEST(FakeCluster, UnknownCommandIsNotFound) {
  FakeCluster cluster(small_spec());
  const CommandOutput output = ok_run(cluster, ssh("node0001", {"ibstat"}));
  EXPECT_EQ(output.exit_code, 127);
  EXPECT_EQ(output.err, "bash: ibstat: command not found\n");
  EXPECT_EQ(cluster.commands_run("unknown"), 1u);
  EXPECT_FALSE(cluster.run({"mpirun", "-np", "2", "hostname"}).ok());  // not a launcher line
}

TEST(FakeCluster, ClientWithoutServerFailsAsPerftestDoes) {
  FakeClusterSpec spec = small_spec();
  spec.rendezvous_ms = 50;
  FakeCluster cluster(spec);
  const CommandOutput output =
      ok_run(cluster, ssh("node0001", write_bw("mlx5_0", 18600, "node0003")));
  EXPECT_EQ(output.exit_code, 1);
  const auto parsed = parsers::parse_perftest(output.out + output.err);
  ASSERT_TRUE(parsed.ok());
  ASSERT_FALSE(parsed->errors.empty());
  EXPECT_EQ(parsed->errors[0].kind, "connect");
  EXPECT_TRUE(contains(output.err, "Couldn't connect to node0003:18600"));
}

TEST(FakeCluster, ServerWithoutClientHangsUntilItsTimeoutWrapper) {
  FakeClusterSpec spec = small_spec();
  spec.rendezvous_ms = 50;
  FakeCluster cluster(spec);
  const CommandOutput output = ok_run(cluster, ssh("node0003", write_bw("mlx5_0", 18600)));
  EXPECT_EQ(output.exit_code, 124);
  EXPECT_DOUBLE_EQ(output.duration_s, 30.0);
  // Without the wrapper the launcher's own timeout ends it.
  const auto bare =
      cluster.run(ssh("node0003", {"ib_write_bw", "-d", "mlx5_0", "-p", "18601"}), seconds(40));
  ASSERT_FALSE(bare.ok());
  EXPECT_EQ(bare.error().code, ErrorCode::Timeout);
}

TEST(FakeCluster, NcclBusBandwidthFollowsTheSlowestMember) {
  FakeClusterSpec spec = small_spec();
  spec.slow_nics = {{"node0004", "mlx5_1", 0.6}};
  spec.alltoall_slow_hosts = {"node0002"};
  FakeCluster cluster(spec);
  const double healthy = cluster.healthy_busbw();
  EXPECT_DOUBLE_EQ(healthy, 0.85 * 2 * 400 / 8);
  const auto busbw = [&](const std::string& test, const Words& hosts) {
    const CommandOutput output = ok_run(cluster, ssh(hosts[0], nccl_words(test, hosts, 8)));
    const auto parsed = parsers::parse_nccl_tests(output.out);
    EXPECT_TRUE(parsed.ok()) << output.out << output.err;
    if (!parsed.ok() || parsed->rows.empty()) {
      return 0.0;
    }
    EXPECT_EQ(parsed->ranks.size(), hosts.size() * 8);
    EXPECT_EQ(parsed->ranks.back().host, hosts.back());
    EXPECT_EQ(parsed->rows.back().size_bytes, 1ull << 30);
    return parsed->rows.back().out_of_place.busbw_gbyte_s.value_or(0);
  };
  EXPECT_NEAR(busbw("all_reduce_perf", {"node0001", "node0002", "node0003"}), healthy,
              healthy * 0.01);
  EXPECT_NEAR(busbw("alltoall_perf", {"node0001", "node0002"}), healthy * 0.55, healthy * 0.01);
  EXPECT_NEAR(busbw("alltoall_perf", {"node0001", "node0003"}), healthy, healthy * 0.01);
  EXPECT_NEAR(busbw("all_reduce_perf", {"node0003", "node0004"}), healthy * 0.6, healthy * 0.01);
  EXPECT_EQ(cluster.commands_run("alltoall_perf"), 2u);
}

TEST(FakeCluster, NcclUnderSrunRunsOverTheAllocation) {
  FakeCluster cluster(small_spec());
  const Words argv = {"srun", "-w",      "node0001,node0002,node0003",
                      "-N",   "3",       "--ntasks-per-node=4",
                      "--",   "timeout", "-k",
                      "5",    "120",     "all_reduce_perf",
                      "-b",   "1G",      "-e",
                      "1G",   "-f",      "2",
                      "-g",   "1"};
  const CommandOutput output = ok_run(cluster, argv);
  const auto parsed = parsers::parse_nccl_tests(output.out);
  ASSERT_TRUE(parsed.ok()) << output.exit_code << output.err;
  EXPECT_EQ(parsed->ranks.size(), 12u);
  EXPECT_EQ(parsed->ranks[4].host, "node0002");
  EXPECT_NEAR(parsed->avg_bus_bandwidth_gbyte_s.value_or(0), cluster.healthy_busbw(),
              cluster.healthy_busbw() * 0.01);
  EXPECT_DOUBLE_EQ(output.duration_s, 8.0 + 0.05 * 3 + 0.2);
}

TEST(FakeCluster, NcclWithADownMemberFailsAndWithAHungOneHangs) {
  FakeClusterSpec spec = small_spec();
  spec.down_hosts = {"node0002"};
  spec.hung_hosts = {"node0004"};
  FakeCluster cluster(spec);
  const CommandOutput down =
      ok_run(cluster, ssh("node0001", nccl_words("all_reduce_perf", {"node0001", "node0002"}, 8)));
  EXPECT_EQ(down.exit_code, 1);
  EXPECT_TRUE(contains(down.err, "ORTE was unable to reliably start one or more daemons"));
  const auto hung = cluster.run(
      ssh("node0003", nccl_words("all_reduce_perf", {"node0003", "node0004"}, 8)), seconds(300));
  ASSERT_TRUE(hung.ok());
  EXPECT_EQ(hung->exit_code, 124);  // timeout -k 5 120 ended it
  EXPECT_DOUBLE_EQ(hung->duration_s, 120.0);
  // With the launcher's timeout first, the launcher ends it.
  const auto killed = cluster.run(
      ssh("node0003", nccl_words("all_reduce_perf", {"node0003", "node0004"}, 8)), seconds(60));
  ASSERT_FALSE(killed.ok());
  EXPECT_EQ(killed.error().code, ErrorCode::Timeout);
}

// Several pairs at once from several threads, as the sweep runs a wave: every pair meets its
// own server, no NIC carries two tests, and the leaves see the tests overlap.
TEST(FakeCluster, ConcurrentPairsMeetTheirOwnServers) {
  FakeClusterSpec spec;
  spec.hosts = 8;
  spec.nics_per_host = 2;
  spec.hosts_per_leaf = 4;
  spec.client_hold_ms = 100;
  spec.slow_nics = {{"node0006", "mlx5_1", 0.5}};
  FakeCluster cluster(spec);
  std::vector<PairOutputs> results(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      const std::string client = cluster.host_name(i / 2);      // leaf01
      const std::string server = cluster.host_name(4 + i / 2);  // leaf02
      const std::string device = cluster.device_name(i % 2);
      results[i] = run_pair(cluster, client, device, server, device, 18515 + static_cast<int>(i));
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    const double expected = cluster.healthy_gbps() * (i == 3 ? 0.5 : 1.0);  // node0006/mlx5_1
    EXPECT_NEAR(measured_gbps(results[i].client), expected, expected * 0.01) << i;
  }
  EXPECT_EQ(cluster.max_concurrent_per_nic(), 1u);
  EXPECT_GE(cluster.max_concurrent_per_leaf(), 2u);

  // Two tests through one NIC at once are seen.
  std::thread first([&] { run_pair(cluster, "node0001", "mlx5_0", "node0005", "mlx5_0", 19000); });
  run_pair(cluster, "node0001", "mlx5_0", "node0006", "mlx5_0", 19001);
  first.join();
  EXPECT_EQ(cluster.max_concurrent_per_nic(), 2u);
}

TEST(FakeCluster, ValidateRejectsWhatItCannotModel) {
  EXPECT_TRUE(validate(FakeClusterSpec{}).ok());
  FakeClusterSpec spec;
  spec.line_gbps = 300;
  EXPECT_FALSE(validate(spec).ok());
  spec = FakeClusterSpec{};
  spec.slow_nics = {{"node0001", "mlx5_8", 0.5}};
  EXPECT_FALSE(validate(spec).ok());
  spec = FakeClusterSpec{};
  spec.hung_hosts = {"node0017"};
  EXPECT_FALSE(validate(spec).ok());
  spec = FakeClusterSpec{};
  spec.infiniband = true;
  spec.line_gbps = 50;
  EXPECT_FALSE(validate(spec).ok());
}

}  // namespace
}  // namespace netdoctor::sim
