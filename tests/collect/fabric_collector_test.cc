// The InfiniBand fabric capture with canned tool outputs (the real infiniband-diags captures of
// tests/fixtures/ib): what the sweep asks, what lands in fabric/<sample>/, what a failure leaves.
// The live runs against ibsim are tests/ibsim.
#include "collect/fabric_collector.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "base/strings.h"
#include "collect/fabric_plan.h"
#include "collect/host_collector.h"
#include "parsers/ibnetdiscover.h"
#include "tests/support/test_paths.h"

namespace netdoctor::collect {
namespace {

using testing::make_temp_dir;
using testing::read_text;
using testing::source_dir;

std::string ib_fixture(const std::string& name) {
  return read_text(source_dir() + "/tests/fixtures/ib/" + name);
}

CommandOutput exited(int code, std::string out, std::string err = {}) {
  CommandOutput output;
  output.exit_code = code;
  output.out = std::move(out);
  output.err = std::move(err);
  return output;
}

class MemWriter final : public TreeWriter {
 public:
  Status write_file(std::string_view path, std::string_view content) override {
    files[std::string(path)] = std::string(content);
    return {};
  }
  Status finish() override { return {}; }
  std::string describe() const override { return "memory"; }
  std::map<std::string, std::string> files;
};

// The fixture subnet (tests/fixtures/ib/README.md): switches leaf-1 (LID 1) and spine-1 (LID 3),
// HCAs node01 (LID 2), node02 (LID 4), node03 (LID 5); perfquery -x answers with CapMask2 0.
void can_fixture_subnet(FakeCommandRunner& runner) {
  runner.set("ibnetdiscover", exited(0, ib_fixture("ibsim_ibnetdiscover.txt")));
  runner.set("ibnetdiscover -p", exited(0, ib_fixture("ibsim_ibnetdiscover_p.txt")));
  runner.set("iblinkinfo", exited(0, ib_fixture("ibsim_iblinkinfo.txt")));
  runner.set("sminfo", exited(0, ib_fixture("ibsim_sminfo.txt")));
  runner.set("ibswitches", exited(0, ib_fixture("ibsim_ibswitches.txt")));
  runner.set("ibhosts", exited(0, ib_fixture("ibsim_ibhosts.txt")));
  runner.set("ibqueryerrors", exited(0, ib_fixture("ibsim_ibqueryerrors.txt")));
  for (const char* lid : {"1", "3"}) {
    runner.set(std::string("perfquery -x -l ") + lid + " 255",
               exited(0, ib_fixture("ibsim_perfquery_x.txt")));
    runner.set(std::string("perfquery -l ") + lid + " 255",
               exited(0, ib_fixture("ibsim_perfquery.txt")));
  }
  for (const char* lid : {"2", "4", "5"}) {
    runner.set(std::string("perfquery -x ") + lid + " 1",
               exited(0, ib_fixture("ibsim_perfquery_x_ca.txt")));
    runner.set(std::string("perfquery ") + lid + " 1",
               exited(0, ib_fixture("ibsim_perfquery_ca.txt")));
  }
}

FabricOptions serial() {
  FabricOptions options;
  options.parallelism = 1;  // FakeCommandRunner is not thread-safe
  return options;
}

TEST(FabricPlan, SweepsEverySwitchByItsLidAndEveryHcaPort) {
  auto topology = parsers::parse_ibnetdiscover(ib_fixture("ibsim_ibnetdiscover.txt"));
  ASSERT_TRUE(topology.ok());
  const SweepPlan plan = plan_perfquery_sweep(*topology);
  EXPECT_EQ(plan.nodes, 5u);
  EXPECT_EQ(plan.nodes_without_lid, 0u);
  std::set<std::string> commands;
  for (const auto& target : plan.targets) {
    commands.insert(join(extended_perfquery(target), " "));
  }
  EXPECT_EQ(commands,
            (std::set<std::string>{"perfquery -x -l 1 255", "perfquery -x -l 3 255",
                                   "perfquery -x 2 1", "perfquery -x 4 1", "perfquery -x 5 1"}));
  ASSERT_FALSE(plan.targets.empty());
  EXPECT_TRUE(plan.targets.front().is_switch);  // switches first
}

TEST(FabricPlan, NodesWithoutLidsAreCountedNotSwept) {
  std::string text = ib_fixture("ibsim_ibnetdiscover.txt");
  // As before any subnet manager ran: every LID 0.
  for (const char* lid : {"lid 1 ", "lid 2 ", "lid 3 ", "lid 4 ", "lid 5 "}) {
    for (auto at = text.find(lid); at != std::string::npos; at = text.find(lid)) {
      text.replace(at, std::string(lid).size(), "lid 0 ");
    }
  }
  auto topology = parsers::parse_ibnetdiscover(text);
  ASSERT_TRUE(topology.ok());
  const SweepPlan plan = plan_perfquery_sweep(*topology);
  EXPECT_TRUE(plan.targets.empty());
  EXPECT_EQ(plan.nodes_without_lid, 5u);
}

TEST(FabricPlan, PlainCountersAreNeededOnlyWhereTheExtendedBlockLacksThem) {
  // ibsim, like some switches, answers -x with CapMask2 0: no error counters, no PortXmitWait.
  EXPECT_TRUE(needs_plain_counters(ib_fixture("ibsim_perfquery_x.txt")));
  const std::string full =
      "# Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)\n"
      "PortXmitData:....................36298026860928\n"
      "SymbolErrorCounter:..............0\n"
      "PortXmitWait:....................22730501\n";
  EXPECT_FALSE(needs_plain_counters(full));
  EXPECT_FALSE(needs_plain_counters("perfquery: iberror: failed: perfextquery\n"));
}

TEST(FabricCollector, WritesEveryViewAndTheSweepUnderTheSample) {
  FakeCommandRunner runner;
  can_fixture_subnet(runner);
  MemWriter out;
  auto report = capture_fabric_sample("1", 1764662400.5, runner, serial(), out);
  ASSERT_TRUE(report.ok()) << report.error().describe();
  EXPECT_EQ(report->views, 7u);
  EXPECT_EQ(report->nodes, 5u);
  EXPECT_EQ(report->targets, 5u);
  EXPECT_EQ(report->perfquery, 10u);  // extended and, CapMask2 being 0, plain for each
  EXPECT_EQ(report->failed, 0u);
  const std::string dir = "fabric/1/sos_commands/infiniband/";
  for (const char* name : {"ibnetdiscover", "ibnetdiscover_-p", "iblinkinfo", "sminfo",
                           "ibswitches", "ibhosts", "ibqueryerrors", "perfquery_-x_-l_1_255",
                           "perfquery_-l_1_255", "perfquery_-x_5_1", "perfquery_5_1"}) {
    EXPECT_EQ(out.files.count(dir + name), 1u) << name;
  }
  EXPECT_EQ(out.files["fabric/1/captured_at"], "1764662400.500000\n");
  EXPECT_EQ(out.files.count("fabric/1/" + std::string(k_fabric_log)), 1u);
}

TEST(FabricCollector, AFailedCommandIsNotedWithItsStderrAndTheRestKept) {
  FakeCommandRunner runner;
  can_fixture_subnet(runner);
  // As infiniband-diags fail: the iberror line on stdout, libibmad's warning on stderr.
  runner.set("sminfo", exited(255, "sminfo: iberror: failed: query\n",
                              "ibwarn: [1] mad_rpc: _do_madrpc failed\n"));
  // Non-zero with output: the output stays (a tool may print its view and still exit non-zero).
  runner.set("ibqueryerrors", exited(1, ib_fixture("ibsim_ibqueryerrors.txt")));
  // Exit 0 and nothing printed (ibqueryerrors without a subnet manager): no empty view.
  runner.set("ibhosts", exited(0, "\n", "ibwarn: no SA\n"));
  MemWriter out;
  auto report = capture_fabric_sample("0", 1.0, runner, serial(), out);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failed, 3u);
  // sminfo failing is itself the view (no SM answered): kept, so the sample says it asked.
  ASSERT_EQ(out.files.count("fabric/0/sos_commands/infiniband/sminfo"), 1u);
  EXPECT_NE(out.files["fabric/0/sos_commands/infiniband/sminfo"].find("iberror: failed: query"),
            std::string::npos);
  EXPECT_EQ(out.files.count("fabric/0/sos_commands/infiniband/ibhosts"), 0u);
  EXPECT_EQ(out.files.count("fabric/0/sos_commands/infiniband/ibqueryerrors"), 1u);
  const std::string log = out.files["fabric/0/" + std::string(k_fabric_log)];
  EXPECT_NE(log.find("'sminfo' failed (exit 255, its output kept): ibwarn: [1] mad_rpc: "
                     "_do_madrpc failed"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("'ibqueryerrors' failed (exit 1, its output kept)"), std::string::npos) << log;
}

TEST(FabricCollector, WithoutInfinibandDiagsOnlyTheLogIsWritten) {
  FakeCommandRunner runner;  // every command: not installed
  MemWriter out;
  auto report = capture_fabric_sample("0", 1.0, runner, serial(), out);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->views + report->perfquery, 0u);
  EXPECT_EQ(runner.commands_ran().size(), 7u);  // the views only: no topology, no sweep
  const std::string log = out.files["fabric/0/" + std::string(k_fabric_log)];
  EXPECT_NE(log.find("ibnetdiscover is not installed"), std::string::npos) << log;
  EXPECT_NE(log.find("no perfquery sweep"), std::string::npos) << log;
}

TEST(FabricCollector, ProgressIsSaidForALargeSweep) {
  // 60 HCA ports: the sweep says how far it got in tenths.
  std::string topology;
  FakeCommandRunner runner;
  for (int i = 1; i <= 60; ++i) {
    topology += "caguid=0x" + std::to_string(1000 + i) + "\nCa\t1 \"H-" + std::to_string(1000 + i) +
                "\"\t\t# \"host" + std::to_string(i) + " mlx5_0\"\n[1](" +
                std::to_string(1000 + i) + ") \t\"S-0000000000200000\"[" + std::to_string(i) +
                "]\t\t# lid " + std::to_string(i + 1) + " lmc 0 \"leaf\" lid 1 4xHDR\n\n";
    runner.set("perfquery -x " + std::to_string(i + 1) + " 1",
               exited(0, ib_fixture("ibsim_perfquery_x_ca.txt")));
  }
  runner.set("ibnetdiscover", exited(0, topology));
  FabricOptions options = serial();
  std::vector<std::string> lines;
  options.progress = [&lines](const std::string& line) { lines.push_back(line); };
  MemWriter out;
  auto report = capture_fabric_sample("0", 1.0, runner, options, out);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->targets, 60u);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), "fabric sample 0: perfquery -x 6/60");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "fabric sample 0: perfquery -x 60/60"),
            lines.end());
}

// A host root whose one RDMA port has the given link layer.
std::string host_root(const std::string& link_layer) {
  const std::string root = make_temp_dir("fabric-root");
  const std::string port = root + "/sys/class/infiniband/mlx5_0/ports/1";
  std::filesystem::create_directories(port);
  std::ofstream(port + "/link_layer") << link_layer << "\n";
  return root;
}

// collect_host's samples with the fabric runner set; the fabric files it wrote, by path.
std::set<std::string> fabric_files(const std::string& root, FabricMode mode, int samples) {
  FakeCommandRunner host_runner;  // the host's own commands: none installed
  FakeCommandRunner fabric_runner;
  can_fixture_subnet(fabric_runner);
  CollectOptions options;
  options.host = "h1";
  options.samples = samples;
  options.fabric = serial();
  options.fabric.mode = mode;
  options.fabric_runner = &fabric_runner;
  FakeClock clock;
  MemWriter out;
  const SampleFactory factory = [&](double time) {
    return make_live_sample(root, host_runner, {}, time);
  };
  auto report = collect_host(options, factory, nullptr, clock, out, {});
  EXPECT_TRUE(report.ok());
  std::set<std::string> files;
  for (const auto& [path, content] : out.files) {
    if (path.rfind("fabric/", 0) == 0) {
      files.insert(path);
    }
  }
  if (report.ok()) {
    EXPECT_EQ(report->fabric_samples, files.empty() ? 0u : static_cast<std::size_t>(samples));
  }
  return files;
}

TEST(CollectHostFabric, AnInfinibandPortTurnsTheViewsOnForEverySample) {
  const auto files = fabric_files(host_root("InfiniBand"), FabricMode::Auto, 2);
  for (const char* sample : {"0", "1"}) {
    EXPECT_EQ(files.count(std::string("fabric/") + sample + "/sos_commands/infiniband/iblinkinfo"),
              1u);
    EXPECT_EQ(files.count(std::string("fabric/") + sample + "/captured_at"), 1u);
  }
}

TEST(CollectHostFabric, RoceOnlyHostsAndNoFabricCaptureNone) {
  EXPECT_TRUE(fabric_files(host_root("Ethernet"), FabricMode::Auto, 1).empty());
  EXPECT_TRUE(fabric_files(host_root("InfiniBand"), FabricMode::Off, 1).empty());
  EXPECT_FALSE(fabric_files(host_root("Ethernet"), FabricMode::On, 1).empty());
}

}  // namespace
}  // namespace netdoctor::collect
