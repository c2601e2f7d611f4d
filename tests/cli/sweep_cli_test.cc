// `netdoctor sweep` end to end: the real binary runs the fake `ssh`, `pdsh` and `srun` found
// first on its PATH (tests/support/fake_launcher_main.cc), which forward every command to one
// FakeCluster served by this test process (tests/support/fake_cluster_server.h), so perftest's
// two sides meet and counters move as on a cluster. Real time: the CLI's one-second idle check
// and server head start per wave, so the fleets are small.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "base/strings.h"
#include "sim/fake_cluster.h"
#include "sim/fake_cluster_argv.h"
#include "tests/support/fake_cluster_server.h"
#include "tests/support/fake_launcher_protocol.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::RunOutput;
using Json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

constexpr int k_run_timeout_s = 120;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `hosts` hosts of `nics` NICs on two leaves.
sim::FakeClusterSpec fleet(std::size_t hosts, std::size_t nics) {
  sim::FakeClusterSpec spec;
  spec.hosts = hosts;
  spec.nics_per_host = nics;
  spec.hosts_per_leaf = hosts / 2;
  return spec;
}

// One fake cluster and its socket, for the life of a test.
struct Served {
  explicit Served(const sim::FakeClusterSpec& spec) : cluster(spec), server(cluster) {}
  sim::FakeCluster cluster;
  netdoctor::testing::FakeClusterServer server;

  netdoctor::testing::RunOptions options() const {
    netdoctor::testing::RunOptions options;
    options.env = server.environment();
    options.timeout_s = k_run_timeout_s;
    return options;
  }
  RunOutput netdoctor(const std::vector<std::string>& args) const {
    return netdoctor::testing::run_netdoctor(args, options());
  }
  // Every command reached the cluster through the launcher named `via`.
  void expect_all_through(const std::string& via) const {
    const auto requests = server.requests();
    EXPECT_FALSE(requests.empty());
    for (const auto& argv : requests) {
      EXPECT_EQ(argv.front(), via) << join(argv, " ");
    }
  }
};

Json parse_sweep(const RunOutput& run) {
  Json json = Json::parse(run.out, nullptr, false);
  EXPECT_TRUE(json.is_object()) << run.out << run.err;
  if (!json.is_object()) {
    return Json::object();
  }
  EXPECT_EQ(json["format"], "netdoctor-sweep");
  EXPECT_EQ(json["version"], 1);
  return json;
}

std::vector<std::string> slow_entities(const Json& sweep) {
  std::vector<std::string> out;
  for (const auto& slow : sweep.value("slow", Json::array())) {
    out.push_back(slow.value("entity", ""));
  }
  return out;
}

std::string incident_of(const RunOutput& run) {
  std::smatch match;
  if (!std::regex_search(run.err, match, std::regex("recorded in incident ([0-9]+) "))) {
    ADD_FAILURE() << "no incident recorded:\n" << run.err;
    return "0";
  }
  return match[1];
}

std::string temp_db(const std::string& tag) {
  return netdoctor::testing::make_temp_dir(tag) + "/nd.db";
}

TEST(SweepThroughLaunchers, SlowNicAmongEightHostsIsNamedAndRecorded) {
  sim::FakeClusterSpec spec = fleet(8, 2);
  spec.slow_nics.push_back({"node0006", "mlx5_1", 0.6});
  const Served served(spec);
  ASSERT_TRUE(served.server.ok());
  const std::string db = temp_db("sweep-e2e-slow");
  const RunOutput run = served.netdoctor({"sweep", "--hosts", "node[0001-0008]", "--via", "ssh",
                                          "--format", "json", "--db", db, "--budget", "10m"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json sweep = parse_sweep(run);
  EXPECT_EQ(sweep["verdict"], "slow-found") << run.out;
  EXPECT_EQ(slow_entities(sweep), std::vector<std::string>{"nic:node0006/mlx5_1"}) << run.out;
  EXPECT_EQ(sweep["hosts"], 8);
  EXPECT_EQ(sweep["tested_nics"], 16);
  EXPECT_GE(sweep["rounds"].get<int>(), 2);
  ASSERT_TRUE(sweep["runs"].is_array());
  std::size_t slow_runs = 0;
  for (const auto& r : sweep["runs"]) {
    slow_runs += r["result"] == "slow" ? 1 : 0;
  }
  EXPECT_GE(slow_runs, 3u) << run.out;  // round 1's pair and the slow end with both partners
  served.expect_all_through("ssh");
  EXPECT_GT(served.cluster.commands_run("ib_write_bw client"), 0u);
  EXPECT_EQ(served.cluster.commands_run("bad launcher"), 0u);

  const std::string incident = incident_of(run);
  const RunOutput md =
      served.netdoctor({"incident", "export", incident, "--format", "md", "--db", db});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  for (const char* expected : {"## Active tests", "**slow-found**", "| nic:node0006/mlx5\\_1 |",
                               "node0006/mlx5\\_1 -> ", "| slow |"}) {
    EXPECT_TRUE(has(md.out, expected)) << expected << "\n" << md.out;
  }

  const RunOutput ticket =
      served.netdoctor({"sweep", "--hosts", "node[0001-0008]", "--via", "ssh", "--format", "md",
                        "--no-record", "--test", "perftest"});
  ASSERT_EQ(ticket.exit_code, 0) << ticket.err;
  for (const char* expected :
       {"## netdoctor sweep: slow-found", "| nic:node0006/mlx5\\_1 |", "### Runs",
        "| round | test | pair or group | result |", "| slow |"}) {
    EXPECT_TRUE(has(ticket.out, expected)) << expected << "\n" << ticket.out;
  }
}

TEST(SweepThroughLaunchers, HealthyFleetThroughPdshAndSrunIsAllHealthy) {
  for (const std::string via : {"pdsh", "srun"}) {
    SCOPED_TRACE(via);
    const Served served(fleet(4, 2));
    ASSERT_TRUE(served.server.ok());
    const RunOutput run = served.netdoctor(
        {"sweep", "--hosts", "node[0001-0004]", "--via", via, "--format", "json", "--no-record"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Json sweep = parse_sweep(run);
    EXPECT_EQ(sweep["verdict"], "all-healthy") << run.out;
    EXPECT_EQ(sweep["tested_nics"], 8);
    EXPECT_TRUE(sweep["left_out"].empty()) << run.out;
    served.expect_all_through(via);
    EXPECT_GT(served.cluster.commands_run("all_reduce_perf"), 0u);
  }
}

TEST(SweepThroughLaunchers, DownHostIsLeftOutUnreachableAndTheRestTested) {
  sim::FakeClusterSpec spec = fleet(4, 2);
  spec.down_hosts = {"node0003"};
  const Served served(spec);
  ASSERT_TRUE(served.server.ok());
  const RunOutput run = served.netdoctor({"sweep", "--hosts", "node[0001-0004]", "--via", "ssh",
                                          "--format", "json", "--no-record", "--test", "perftest"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json sweep = parse_sweep(run);
  ASSERT_EQ(sweep["left_out"].size(), 1u) << run.out;
  EXPECT_EQ(sweep["left_out"][0]["host"], "node0003");
  EXPECT_EQ(sweep["left_out"][0]["reason"], "unreachable");
  EXPECT_EQ(sweep["tested_nics"], 6) << run.out;
  for (const auto& r : sweep["runs"]) {
    EXPECT_NE(r["client"], "node0003");
    EXPECT_NE(r["server"], "node0003");
  }
}

TEST(SweepThroughLaunchers, HealthySweepImportedAsBaselinesSetsTheNextSweepsExpectations) {
  const std::string db = temp_db("sweep-e2e-baseline");
  const std::string out = netdoctor::testing::make_temp_dir("sweep-e2e-out") + "/healthy.json";
  {
    const Served healthy(fleet(4, 2));
    ASSERT_TRUE(healthy.server.ok());
    const RunOutput run =
        healthy.netdoctor({"sweep", "--hosts", "node[0001-0004]", "--via", "ssh", "--test",
                           "perftest", "--db", db, "--out", out, "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    ASSERT_EQ(parse_sweep(run)["verdict"], "all-healthy") << run.out;
  }
  const RunOutput imported = netdoctor::testing::run_netdoctor(
      {"baseline", "import", "--sweep", out, "--db", db}, netdoctor::testing::RunOptions{});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const RunOutput list = netdoctor::testing::run_netdoctor(
      {"baseline", "list", "--format", "json", "--db", db}, netdoctor::testing::RunOptions{});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const Json baselines = Json::parse(list.out, nullptr, false);
  ASSERT_TRUE(baselines.is_array()) << list.out;
  EXPECT_EQ(baselines.size(), 4u) << list.out;  // round 1: 8 NICs, 4 pairs

  sim::FakeClusterSpec spec = fleet(4, 2);
  spec.slow_nics.push_back({"node0002", "mlx5_0", 0.6});
  const Served slow(spec);
  ASSERT_TRUE(slow.server.ok());
  const RunOutput run = slow.netdoctor({"sweep", "--hosts", "node[0001-0004]", "--via", "ssh",
                                        "--test", "perftest", "--db", db, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json sweep = parse_sweep(run);
  EXPECT_EQ(slow_entities(sweep), std::vector<std::string>{"nic:node0002/mlx5_0"}) << run.out;
  std::size_t from_baseline = 0;
  for (const auto& r : sweep["runs"]) {
    if (r["round"] == 1) {
      EXPECT_EQ(r["expected_from"], "baseline") << r.dump();
    }
    from_baseline += r["expected_from"] == "baseline" ? 1 : 0;
  }
  EXPECT_GE(from_baseline, 4u) << run.out;
}

TEST(SweepThroughLaunchers, LauncherWithoutItsClusterFailsAsSshDoes) {
  const Served served(fleet(4, 1));
  ASSERT_TRUE(served.server.ok());
  netdoctor::testing::RunOptions options = served.options();
  for (auto& [name, value] : options.env) {
    if (name == netdoctor::testing::fake_launcher::k_socket_env) {
      value += ".absent";  // a socket that is not there
    }
  }
  const RunOutput run = netdoctor::testing::run_netdoctor(
      {"sweep", "--hosts", "node[0001-0004]", "--via", "ssh", "--format", "json", "--no-record"},
      options);
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;  // nothing could be tested
  const Json sweep = parse_sweep(run);
  ASSERT_EQ(sweep["left_out"].size(), 4u) << run.out;
  for (const auto& host : sweep["left_out"]) {
    EXPECT_EQ(host["reason"], "unreachable");
    EXPECT_TRUE(has(host.value("detail", ""), "exit 255")) << host.dump();
  }
  EXPECT_TRUE(served.server.requests().empty());
}

TEST(SweepThroughLaunchers, AMissingLauncherIsSaidBeforeAnyTest) {
  netdoctor::testing::RunOptions options;
  options.env.emplace_back("PATH", netdoctor::testing::make_temp_dir("no-launcher"));
  const RunOutput run = netdoctor::testing::run_netdoctor(
      {"sweep", "--hosts", "node[01-02]", "--via", "pdsh", "--no-record"}, options);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(has(run.err, "pdsh is not installed on this machine")) << run.err;
}

// `diagnose --hosts` captures through the same launcher: here the hosts have no netdoctor
// (the fake answers "command not found"), so every capture fails, each host is named, and no
// diagnosis is made of nothing.
TEST(SweepThroughLaunchers, DiagnoseHostsCapturesThroughTheLauncherAndNamesWhatFailed) {
  const Served served(fleet(2, 1));
  ASSERT_TRUE(served.server.ok());
  const std::string dir = netdoctor::testing::make_temp_dir("diagnose-hosts") + "/capture";
  const RunOutput run =
      served.netdoctor({"diagnose", "--symptom", "slowdown", "--hosts", "node[0001-0002]", "--via",
                        "ssh", "--capture-dir", dir, "--active", "--no-record"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(has(run.err, "node0001: FAILED")) << run.err;
  EXPECT_TRUE(has(run.err, "node0002: FAILED")) << run.err;
  // The progress line `collect --hosts` shows, and the hosts left out named at the end.
  EXPECT_TRUE(has(run.err, "netdoctor diagnose: 0/2 hosts done, 2 failed, 0 pending")) << run.err;
  EXPECT_TRUE(has(run.err, "netdoctor diagnose: left out 2 host(s):")) << run.err;
  EXPECT_TRUE(has(run.err, "no capture of node[0001-0002]")) << run.err;
  served.expect_all_through("ssh");
  bool collect_asked = false;
  for (const auto& argv : served.server.requests()) {
    collect_asked = collect_asked || has(join(argv, " "), "netdoctor collect --out - --base64");
  }
  EXPECT_TRUE(collect_asked);
  // The active step needs live hosts.
  const RunOutput offline = served.netdoctor(
      {"diagnose", "--bundle", netdoctor::testing::source_dir() + "/examples/pfc-storm.tar.gz",
       "--active", "--no-record"});
  EXPECT_EQ(offline.exit_code, 2) << offline.err;
  EXPECT_TRUE(has(offline.err, "--active runs tests on live hosts")) << offline.err;
}

// (host, command line) of every ib_write_bw side the cluster was asked to start.
std::set<std::pair<std::string, std::string>> perftests_started(
    const std::vector<std::vector<std::string>>& requests) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& argv : requests) {
    auto invocation = sim::fake::read_launcher(argv);
    if (!invocation.ok() || invocation->words.empty() || invocation->words[0] == "pkill") {
      continue;
    }
    const auto& words = invocation->words;
    if (std::find(words.begin(), words.end(), "ib_write_bw") != words.end()) {
      out.emplace(invocation->hosts.at(0), join(words, " "));
    }
  }
  return out;
}

TEST(SweepThroughLaunchers, CtrlCEndsTheSweepPromptlyAndStopsItsRemoteTests) {
  sim::FakeClusterSpec spec = fleet(4, 2);
  spec.client_hold_ms = 4000;  // each client holds its NICs four real seconds
  const Served served(spec);
  ASSERT_TRUE(served.server.ok());
  const auto started =
      netdoctor::testing::start_netdoctor({"sweep", "--hosts", "node[0001-0004]", "--via", "ssh",
                                           "--test", "perftest", "--format", "json", "--no-record"},
                                          served.options());
  ASSERT_GT(started.pid, 0);
  // Round 1 is one wave of 4 pairs: wait until every client has met its server.
  const auto give_up = SteadyClock::now() + std::chrono::seconds(30);
  while (served.cluster.commands_run("ib_write_bw client") < 4 && SteadyClock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(served.cluster.commands_run("ib_write_bw client"), 4u);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto interrupted_at = SteadyClock::now();
  ASSERT_EQ(::kill(started.pid, SIGINT), 0);
  const RunOutput run = netdoctor::testing::wait_netdoctor(started);
  const double took = std::chrono::duration<double>(SteadyClock::now() - interrupted_at).count();

  EXPECT_EQ(run.signal, 0) << "killed by the signal rather than handling it";
  EXPECT_EQ(run.exit_code, 130) << run.out << run.err;
  EXPECT_LT(took, 2.5) << "the clients hold 4 s: the launchers were not ended";
  const Json sweep = parse_sweep(run);
  EXPECT_EQ(sweep["interrupted"], true) << run.out;
  EXPECT_TRUE(has(run.out, "interrupted: ")) << run.out;  // the note

  const auto perftests = perftests_started(served.server.requests());
  EXPECT_EQ(perftests.size(), 8u);  // 4 servers, 4 clients
  std::set<std::pair<std::string, std::string>> pkilled;
  for (const auto& pkill : served.cluster.pkills()) {
    ASSERT_EQ(pkill.words.size(), 5u) << join(pkill.words, " ");
    EXPECT_EQ(std::vector<std::string>(pkill.words.begin(), pkill.words.begin() + 4),
              (std::vector<std::string>{"pkill", "-TERM", "-x", "-f"}));
    pkilled.emplace(pkill.host, pkill.words.back());
  }
  EXPECT_EQ(pkilled, perftests);
}

}  // namespace
}  // namespace netdoctor::cli
