// diagnose --prometheus at scale (remote/prometheus_reader.h): hosts are read in bounded groups,
// every host in exactly one query; a group that times out, warns or leaves hosts without series
// is a problem naming them while the other groups' hosts are still read. Against a fake
// Prometheus (tests/remote/fake_prometheus.h); the real one is in prometheus_server_test.cc.
#include "remote/prometheus_batches.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "remote/prometheus_reader.h"
#include "tests/remote/fake_prometheus.h"

namespace netdoctor::remote {
namespace {

using netdoctor::testing::FakePrometheus;

PrometheusRequest request_of(std::size_t per_query) {
  PrometheusRequest request;
  request.url = "http://prom:9090";
  request.at = 130.0;
  request.window = 30.0;
  request.machines_per_query = per_query;
  return request;
}

std::string problems_of(const PrometheusRead& read) {
  std::string all;
  for (const auto& problem : read.problems) {
    all += problem.describe() + "\n";
  }
  return all;
}

bool has_host(const PrometheusRead& read, int n) {
  return read.tree
      ->read(fmt::format("hosts/n{:03}/001/sys/class/infiniband/mlx5_0/ports/1/state", n))
      .ok();
}

TEST(PrometheusBatchesTest, GroupsAndMatchersCoverEachValueOnce) {
  const std::vector<std::string> values = {"a", "b", "c", "d", "e"};
  const auto groups = group_values(values, 2);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[2], std::vector<std::string>{"e"});
  EXPECT_EQ(group_values(values, 0).size(), 5u);
  EXPECT_EQ(exact_values_matcher("instance", {"a.b:9100", "c\"d"}),
            R"(instance=~"a\\.b\\:9100|c\\\"d")");
}

TEST(PrometheusBatchesTest, EveryHostIsAskedForExactlyOnce) {
  FakePrometheus prometheus(300);
  auto read = read_prometheus(prometheus, request_of(128));
  ASSERT_TRUE(read.ok()) << read.error().describe();
  ASSERT_EQ(prometheus.batches.size(), 3u);  // 128 + 128 + 44, never one query per host
  std::multiset<std::string> asked;
  for (const auto& batch : prometheus.batches) {
    EXPECT_LE(batch.size(), 128u);
    asked.insert(batch.begin(), batch.end());
  }
  EXPECT_EQ(asked.size(), 300u);
  for (int n = 1; n <= 300; ++n) {
    EXPECT_EQ(asked.count(fmt::format("n{:03}:9100", n)), 1u) << n;
    EXPECT_TRUE(has_host(*read, n)) << n;
  }
  EXPECT_EQ(read->stats.hosts, 300u);
  EXPECT_EQ(read->stats.series, 600u);
  EXPECT_EQ(read->stats.queries, 3u + 3u);  // the listing, then the batches
  EXPECT_EQ(read->stats.failed_batches, 0u);
  // The counter's two samples: a rate is possible.
  EXPECT_TRUE(read->tree->read("hosts/n300/000/captured_at").ok());
}

// Records the machines handed over, and how many each batch's hand-over brought.
class RecordingSink final : public MachineSink {
 public:
  void take(MachineRole role, MachineCapture capture) override {
    EXPECT_FALSE(capture.samples.empty()) << capture.name;
    const char* file = role == MachineRole::Host ? "/sys/class/infiniband/mlx5_0/ports/1/state"
                                                 : "/sos_commands/sonic/show_queue_counters";
    for (const auto& sample : capture.samples) {
      EXPECT_TRUE(sample.source->read_file(file).ok()) << capture.name << " " << sample.name;
    }
    (role == MachineRole::Host ? names : switch_names).push_back(capture.name);
  }
  void discard() override { ADD_FAILURE() << "nothing is read twice"; }
  std::vector<std::string> names;         // hosts
  std::vector<std::string> switch_names;  // switches
};

TEST(PrometheusBatchesTest, WithASinkEachBatchsHostsAreHandedOverAndNotHeld) {
  FakePrometheus prometheus(300);
  RecordingSink sink;
  auto read = read_prometheus(prometheus, request_of(128), &sink);
  ASSERT_TRUE(read.ok()) << read.error().describe();
  ASSERT_EQ(sink.names.size(), 300u);
  const std::set<std::string> distinct(sink.names.begin(), sink.names.end());
  EXPECT_EQ(distinct.size(), 300u);
  EXPECT_EQ(sink.names.front(), "n001");
  EXPECT_EQ(sink.names.back(), "n300");  // batch by batch, in order
  EXPECT_FALSE(has_host(*read, 1));      // the tree holds none of them
  EXPECT_FALSE(read->tree->list("hosts").ok());
  EXPECT_EQ(read->stats.hosts, 300u);
  EXPECT_EQ(read->stats.series, 600u);
}

TEST(PrometheusBatchesTest, ATimedOutBatchIsReportedAndTheOthersAreRead) {
  FakePrometheus prometheus(300);
  prometheus.time_out_with = {"n150:9100"};
  auto read = read_prometheus(prometheus, request_of(128));
  ASSERT_TRUE(read.ok()) << read.error().describe();
  const std::string problems = problems_of(*read);
  EXPECT_NE(problems.find("batch 2 of 3 (hosts n129:9100, n130:9100"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("(+120 more)) failed: timed out"), std::string::npos) << problems;
  EXPECT_NE(problems.find("these hosts are not in the diagnosis"), std::string::npos) << problems;
  EXPECT_EQ(read->stats.failed_batches, 1u);
  EXPECT_EQ(read->stats.hosts, 172u);
  EXPECT_TRUE(has_host(*read, 1));
  EXPECT_TRUE(has_host(*read, 128));
  EXPECT_FALSE(has_host(*read, 129));
  EXPECT_FALSE(has_host(*read, 256));
  EXPECT_TRUE(has_host(*read, 257));
}

TEST(PrometheusBatchesTest, WarningsAndHostsWithoutSeriesAreReported) {
  FakePrometheus prometheus(20);
  prometheus.warn_with = {"n005:9100"};
  prometheus.silent = {"n007:9100"};
  auto read = read_prometheus(prometheus, request_of(10));
  ASSERT_TRUE(read.ok()) << read.error().describe();
  const std::string problems = problems_of(*read);
  EXPECT_NE(problems.find("batch 1 of 2 (hosts n001:9100"), std::string::npos) << problems;
  EXPECT_NE(problems.find("Prometheus warned \"remote read of shard 2 failed\"; its answer may "
                          "be partial"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("no series in the window for host n007:9100"), std::string::npos)
      << problems;
  EXPECT_EQ(problems.find("batch 2 of 2"), std::string::npos) << problems;
  EXPECT_TRUE(has_host(*read, 5));
  EXPECT_FALSE(has_host(*read, 7));
  EXPECT_EQ(read->stats.hosts, 19u);
}

// With a queue traffic rule the switch groups leave the queues' sent packets and bytes out;
// one more query asks for them of the switches the rule wants them for, and when it fails the
// switch's other counters and every host are still read, the failure named.
TEST(PrometheusBatchesTest, QueueTrafficIsAskedForAfterTheSwitchesAndItsFailureIsReported) {
  auto request = request_of(2);
  request.queue_traffic_rule = [](const std::vector<std::vector<double>>& drops, bool rate) {
    bool moved = false;
    for (const auto& counter : drops) {
      moved = moved || (counter.size() > 1 && counter.front() != counter.back());
    }
    return QueueTrafficWanted{moved, !rate};
  };
  FakePrometheus prometheus(3);
  prometheus.switches = {"leaf1:9101"};
  auto read = read_prometheus(prometheus, request);
  ASSERT_TRUE(read.ok()) << read.error().describe();
  // The switch group, its queue traffic (its drops grew; its octets give a rate, so no bytes),
  // then two host groups.
  ASSERT_EQ(prometheus.queries.size(), 4u);
  EXPECT_NE(prometheus.queries[0].find("sonic_queue_dropped_packets_total"), std::string::npos);
  EXPECT_EQ(prometheus.queries[0].find("sonic_queue_packets_total"), std::string::npos);
  EXPECT_EQ(prometheus.queries[0].find("sonic_queue_bytes_total"), std::string::npos);
  EXPECT_EQ(prometheus.queries[1],
            R"({__name__=~"sonic_queue_packets_total",instance=~"leaf1\\:9101"})");
  EXPECT_EQ(prometheus.batches[2], (std::vector<std::string>{"n001:9100", "n002:9100"}));
  auto queues = read->tree->read("switches/leaf1/001/sos_commands/sonic/show_queue_counters");
  ASSERT_TRUE(queues.ok()) << queues.error().describe();
  EXPECT_NE(queues->find("4,000,000"), std::string::npos) << *queues;  // the sent packets
  EXPECT_EQ(read->stats.queries, 3u + 4u);
  EXPECT_EQ(problems_of(*read).find("failed"), std::string::npos) << problems_of(*read);

  FakePrometheus failing(3);
  failing.switches = {"leaf1:9101"};
  failing.time_out_queue_traffic = true;
  read = read_prometheus(failing, request);
  ASSERT_TRUE(read.ok()) << read.error().describe();
  EXPECT_NE(problems_of(*read).find("queue traffic batch 1 of 1 (switches leaf1:9101) failed: "
                                    "timed out after 30000 ms; these switches' queue traffic is "
                                    "not in the diagnosis"),
            std::string::npos)
      << problems_of(*read);
  EXPECT_EQ(read->stats.failed_batches, 1u);
  EXPECT_EQ(read->stats.hosts, 3u);
  EXPECT_EQ(read->stats.switches, 1u);
  queues = read->tree->read("switches/leaf1/001/sos_commands/sonic/show_queue_counters");
  ASSERT_TRUE(queues.ok()) << queues.error().describe();
  EXPECT_NE(queues->find("910"), std::string::npos) << *queues;  // the drops
  EXPECT_EQ(queues->find("4,000,000"), std::string::npos) << *queues;
}

// Every file of `tree` under `dir`, with its content, in listing order.
void files_of(const FileTree& tree, const std::string& dir, std::string& out) {
  auto entries = tree.list(dir);
  if (!entries.ok()) {
    return;
  }
  for (const auto& entry : *entries) {
    const std::string path = dir.empty() ? entry.name : dir + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      files_of(tree, path, out);
    } else if (auto content = tree.read(path); content.ok()) {
      out += path + "\n" + *content + "\n";
    }
  }
}

// Host and switch groups are laid out on several threads at once; what is read does not depend
// on how many: the same files, problems (in the same order, failures and warnings among them),
// figures, and machines handed over in the same order.
TEST(PrometheusBatchesTest, HowManyThreadsLayOutTheGroupsChangesNothing) {
  struct Outcome {
    std::string files;
    std::string problems;
    std::vector<std::string> handed;
    std::vector<std::string> switches_handed;
    PrometheusReadStats stats;
  };
  auto read_with = [](std::size_t threads, bool sink) {
    FakePrometheus prometheus(95);
    prometheus.time_out_with = {"n023:9100", "n061:9100"};
    prometheus.warn_with = {"n044:9100"};
    prometheus.silent = {"n007:9100", "n088:9100"};
    for (int n = 1; n <= 23; ++n) {  // three groups of switches, each lacking every family
      prometheus.switches.push_back(fmt::format("leaf{:02}:9101", n));  // but queue counters
    }
    PrometheusRequest request = request_of(10);
    request.layout_threads = threads;
    RecordingSink recording;
    auto read = read_prometheus(prometheus, request, sink ? &recording : nullptr);
    EXPECT_TRUE(read.ok()) << read.error().describe();
    Outcome out;
    if (read.ok()) {
      files_of(*read->tree, "", out.files);
      out.problems = problems_of(*read);
      out.stats = read->stats;
    }
    out.handed = recording.names;
    out.switches_handed = recording.switch_names;
    return out;
  };
  for (bool sink : {false, true}) {
    const Outcome one = read_with(1, sink);
    EXPECT_EQ(one.stats.failed_batches, 2u);
    EXPECT_EQ(one.stats.hosts, 95u - 20u - 2u);  // two batches of ten timed out; two silent
    EXPECT_EQ(one.stats.switches, 23u);
    EXPECT_NE(one.problems.find("batch 6 of 13 (hosts n021:9100"), std::string::npos)
        << one.problems;
    EXPECT_NE(one.problems.find("Prometheus warned"), std::string::npos) << one.problems;
    EXPECT_NE(one.problems.find("no series in the window for host n088:9100"), std::string::npos)
        << one.problems;
    // One problem per family names every switch lacking it, whichever group each came in.
    EXPECT_NE(one.problems.find("switch(es) leaf01, leaf02, leaf03, leaf04, leaf05, leaf06, "
                                "leaf07, leaf08, leaf09, leaf10, leaf11, leaf12, leaf13, leaf14, "
                                "leaf15, leaf16, leaf17, leaf18, leaf19, leaf20, leaf21, leaf22, "
                                "leaf23 have no PFC counters"),
              std::string::npos)
        << one.problems;
    EXPECT_EQ(one.problems.find("have no queue counters"), std::string::npos) << one.problems;
    if (sink) {
      EXPECT_EQ(one.handed.size(), 73u);
      EXPECT_TRUE(std::is_sorted(one.handed.begin(), one.handed.end()));
      EXPECT_EQ(one.switches_handed.size(), 23u);
      EXPECT_TRUE(std::is_sorted(one.switches_handed.begin(), one.switches_handed.end()));
    } else {
      EXPECT_NE(one.files.find("hosts/n095/001/sys/class/infiniband/mlx5_0/ports/1/state"),
                std::string::npos);
      EXPECT_NE(one.files.find("switches/leaf23/001/sos_commands/sonic/show_queue_counters"),
                std::string::npos);
    }
    for (std::size_t threads : {2u, 3u, 8u}) {
      const Outcome many = read_with(threads, sink);
      EXPECT_EQ(many.files, one.files) << threads;
      EXPECT_EQ(many.problems, one.problems) << threads;
      EXPECT_EQ(many.handed, one.handed) << threads;
      EXPECT_EQ(many.switches_handed, one.switches_handed) << threads;
      EXPECT_EQ(many.stats.series, one.stats.series) << threads;
      EXPECT_EQ(many.stats.bytes, one.stats.bytes) << threads;
      EXPECT_EQ(many.stats.hosts, one.stats.hosts) << threads;
      EXPECT_EQ(many.stats.switches, one.stats.switches) << threads;
      EXPECT_EQ(many.stats.queries, one.stats.queries) << threads;
      EXPECT_EQ(many.stats.failed_batches, one.stats.failed_batches) << threads;
    }
  }
}

TEST(PrometheusBatchesTest, EveryBatchFailingIsAFailure) {
  FakePrometheus prometheus(4);
  prometheus.time_out_with = {"n001:9100", "n003:9100"};
  auto read = read_prometheus(prometheus, request_of(2));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, ErrorCode::Timeout);
  EXPECT_NE(read.error().message.find("batch 1 of 2"), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace netdoctor::remote
