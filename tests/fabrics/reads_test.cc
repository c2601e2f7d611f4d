// A probe reads only what its spec declares, and the loaders provide what it declares.
//
// For every fixture bundle and every probe: the bundle is loaded again with every source the
// probe does not declare withheld (LoadOptions::only_sources; the inventory that names the
// NICs is always read), and the probe's result must be exactly what it is with everything. A
// probe that used an undeclared source would lose data and answer differently. Conversely each
// declared source is one the loaders know and observed in the fixtures, and withholding what
// the probe declares changes its answer on some fixture. (One declared source alone may change
// nothing: several are alternatives for the same fact on other vendors or captures, such as
// the MTU from sysfs or from `ip address`; and a probe reading part of the inventory, which a
// load never withholds, may find all it needs there.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "engine/pipeline.h"
#include "engine/thresholds.h"
#include "model/loader.h"
#include "model/source_names.h"
#include "probes/counters_read.h"
#include "report/map_metrics.h"
#include "tests/fabrics/sim_bundle.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

struct Fixture {
  std::string name;
  std::unique_ptr<Bundle> bundle;
  model::Fabric full;
};

const std::vector<std::string>& fixture_names() {
  static const std::vector<std::string> names = {
      "healthy",           "pfc-storm",           "ecmp-imbalance",   "mtu-mismatch",
      "firmware-mismatch", "clock-skew",          "link-errors",      "link-degraded",
      "buffer-exhaustion", "ecn-misconfig",       "lossy-roce",       "traffic-isolation",
      "small-messages",    "addressing-conflict", "oversubscription", "baseline-regression"};
  return names;
}

struct World {
  probes::ProbeRegistry registry;
  probes::ThresholdBook thresholds;
  std::vector<Fixture> fixtures;
};

model::Fabric load(const Bundle& bundle, std::optional<std::set<std::string>> only = {}) {
  model::LoadOptions options;
  options.only_sources = std::move(only);
  auto fabric = model::load_fabric(bundle, options);
  EXPECT_TRUE(fabric.ok()) << fabric.error().describe();
  return fabric.ok() ? std::move(fabric).value() : model::Fabric{};
}

// Copies the ibdiagnet fixtures into the last fabric sample of the bundle directory `bundle`.
void add_ibdiagnet_run(const std::string& bundle) {
  namespace fs = std::filesystem;
  std::vector<fs::path> samples;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(bundle + "/fabric", error)) {
    samples.push_back(entry.path());
  }
  ASSERT_FALSE(samples.empty()) << bundle << " has no fabric samples";
  std::sort(samples.begin(), samples.end());
  const fs::path target = samples.back() / "var/tmp/ibdiagnet2";
  fs::create_directories(target);
  for (const std::string file : {"ibdiagnet2.db_csv", "ibdiagnet2.pm", "ibdiagnet2.net_dump",
                                 "ibdiagnet2.log", "ibdiagnet2.sm"}) {
    fs::copy_file(netdoctor::testing::source_dir() + "/tests/fixtures/ibdiag/" + file,
                  target / file);
  }
}

// A sweep of that fabric (docs/sweep.md) as `sweep --out` writes it, one NIC slow.
void add_sweep(const std::string& bundle) {
  namespace fs = std::filesystem;
  fs::create_directories(bundle + "/sweep");
  std::ofstream(bundle + "/sweep/active-1.json")
      << R"({"format": "netdoctor-sweep", "version": 1, "verdict": "slow-found",
             "summary": "1 slow", "hosts": 4, "nics": 8, "tested_nics": 8, "rounds": 2,
             "slow": [{"entity": "nic:host02/mlx5_1", "measured_gbps": 120.0,
                       "expected_gbps": 180.0, "found_by": "perftest",
                       "evidence": ["ib_write_bw host02/mlx5_1 -> host03/mlx5_1: 120.0 Gb/s"]}],
             "left_out": [], "runs": []})";
}

const World& world() {
  static const std::unique_ptr<World> instance = [] {
    auto out = std::make_unique<World>();
    probes::register_builtin_probes(out->registry);
    auto knowledge = load_knowledge_base(out->registry);
    EXPECT_TRUE(knowledge.ok()) << knowledge.error().describe();
    if (knowledge.ok()) {
      out->thresholds = resolve_thresholds(knowledge->entries, {});
    }
    std::vector<std::pair<std::string, std::string>> paths;
    for (const auto& name : fixture_names()) {
      paths.emplace_back(name, netdoctor::testing::shared_dir() + "/scenarios/" + name + ".tar.gz");
    }
    // Other vendors and more samples than the scenarios have: Broadcom beside mlx5, 3 samples.
    const auto mixed = netdoctor::testing::simulate(
        "reads", "--hosts 4 --nics 2 --hosts-per-leaf 2 --samples 3 --vendors mlx5,bnxt");
    add_sweep(mixed.path);
    paths.emplace_back("sim-mixed", mixed.path);
    // Every clock view a real fleet gives (linuxptp, pmc, chronyc sources, ntpq), one per host.
    const auto clocks = netdoctor::testing::simulate(
        "reads-clocks", "--hosts 5 --nics 1 --clock-views chrony,ptp,pmc,chrony-sources,ntpq");
    paths.emplace_back("sim-clock-views", clocks.path);
    // An InfiniBand fat tree (infiniband-diags views, 3 samples), with ibdiagnet's files of
    // another subnet copied into its last sample: every IB view is observed somewhere.
    const auto ib = netdoctor::testing::simulate(
        "reads-ib", "--fabric ib --hosts 8 --nics 2 --samples 3 --fault ib-congestion --seed 3");
    add_ibdiagnet_run(ib.path);
    paths.emplace_back("sim-ib", ib.path);
    for (const auto& [name, path] : paths) {
      auto bundle = open_bundle(path);
      EXPECT_TRUE(bundle.ok()) << path << ": " << bundle.error().describe();
      if (!bundle.ok()) {
        continue;
      }
      Fixture fixture{name, std::make_unique<Bundle>(std::move(bundle).value()), {}};
      fixture.full = load(*fixture.bundle);
      out->fixtures.push_back(std::move(fixture));
    }
    return out;
  }();
  return *instance;
}

// The whole result as text, so a difference shows where it lies.
std::string described(const probes::ProbeResult& result) {
  std::ostringstream out;
  out << probes::to_string(result.status) << " | " << result.reason << "\n";
  for (const auto& finding : result.findings) {
    out << finding.signal << " " << finding.strength << " " << finding.value.value_or(-1) << " "
        << finding.fleet_normal.value_or(-1) << " " << finding.unit << " [";
    for (const auto& entity : finding.entities) {
      out << entity << " ";
    }
    out << "] " << finding.summary << "\n";
  }
  for (const auto& line : result.checked) {
    out << "checked: " << line << "\n";
  }
  return out.str();
}

std::string run(const probes::Probe& probe, const model::Fabric& fabric) {
  probes::ProbeContext context{fabric, {}};
  context.options.thresholds = world().thresholds;
  return described(probe.run(context));
}

std::set<std::string> reads_of(const probes::Probe& probe) {
  return {probe.reads().begin(), probe.reads().end()};
}

class EveryProbeReads : public ::testing::TestWithParam<std::string> {};

bool observed_anywhere(const std::string& source) {
  const auto observed = [&source](const model::SourceMap& map) {
    const auto it = map.find(source);
    return it != map.end() && it->second.availability == model::Availability::Observed;
  };
  for (const auto& fixture : world().fixtures) {
    // Sweeps, like perftest files, belong to the fabric rather than to an entity.
    if (source == model::source::k_sweep && !fixture.full.sweeps.empty()) {
      return true;
    }
    // Perftest files are runs of the fabric rather than sources of an entity.
    for (const auto& run : fixture.full.perftests) {
      if (source ==
          (run.baseline ? model::source::k_perftest_baseline : model::source::k_perftest)) {
        return true;
      }
    }
    for (const auto& host : fixture.full.hosts) {
      if (observed(host.sources)) {
        return true;
      }
      for (const auto& nic : host.nics) {
        if (observed(nic.sources)) {
          return true;
        }
      }
    }
    for (const auto& sw : fixture.full.switches) {
      if (observed(sw.sources)) {
        return true;
      }
    }
    // The InfiniBand subnet's views, recorded for the fabric and for each node.
    if (observed(fixture.full.ib.sources)) {
      return true;
    }
    for (const auto& node : fixture.full.ib.nodes) {
      if (observed(node.sources)) {
        return true;
      }
    }
  }
  return false;
}

// One test per probe, so that the fixtures load once for both checks.
TEST_P(EveryProbeReads, NothingButWhatItDeclaresWhichTheLoadersProvide) {
  const probes::Probe* probe = world().registry.find(GetParam());
  ASSERT_NE(probe, nullptr);
  ASSERT_FALSE(world().fixtures.empty());
  for (const auto& fixture : world().fixtures) {
    const model::Fabric narrowed = load(*fixture.bundle, reads_of(*probe));
    EXPECT_EQ(run(*probe, narrowed), run(*probe, fixture.full))
        << probe->id() << " on " << fixture.name
        << " answers differently when only its declared reads are loaded: it reads a source "
           "its spec does not declare";
  }
  const auto& known = model::source::known_sources();
  for (const std::string& source : probe->reads()) {
    ASSERT_NE(std::find(known.begin(), known.end(), source), known.end())
        << probe->id() << " declares '" << source << "', which no loader reads";
    EXPECT_TRUE(observed_anywhere(source))
        << probe->id() << " declares '" << source << "', never observed in the fixtures";
  }
  // A probe that reads part of the inventory (never withheld) may find all it needs there.
  const bool reads_inventory =
      std::any_of(probe->reads().begin(), probe->reads().end(), [](const std::string& source) {
        return model::source::inventory_sources().count(source) > 0;
      });
  if (reads_inventory) {
    return;
  }
  bool matters = false;
  for (const auto& fixture : world().fixtures) {
    if (run(*probe, load(*fixture.bundle, std::set<std::string>{})) != run(*probe, fixture.full)) {
      matters = true;
      break;
    }
  }
  EXPECT_TRUE(matters) << probe->id()
                       << ": withholding everything it declares changes nothing on any fixture";
}

// Erases from `sample` the values whose key `drop` accepts.
void erase_values(model::CounterSample& sample,
                  const std::function<bool(const model::MetricKey&)>& drop) {
  std::vector<model::MetricKey> dropped;
  for (const auto& [key, value] : sample.values) {
    if (drop(key)) {
      dropped.push_back(key);
    }
  }
  for (const auto& key : dropped) {
    sample.values.erase(key);
  }
}

// A copy of `fabric` whose switch ports keep only the PFC counters of the priorities
// `keep_priority` accepts and the queue counters `keep_queue` accepts (by metric name).
model::Fabric keeping_switch_reads(const model::Fabric& fabric,
                                   const std::function<bool(int)>& keep_priority,
                                   const std::function<bool(const std::string&)>& keep_queue) {
  model::Fabric out = fabric;
  for (auto& sw : out.switches) {
    for (auto& port : sw.ports) {
      for (auto& sample : port.samples) {
        erase_values(sample, [&](const model::MetricKey& key) {
          if (key.name == probes::metric::k_sw_pfc_rx_pause_frames ||
              key.name == probes::metric::k_sw_pfc_tx_pause_frames) {
            return key.index >= 0 && !keep_priority(key.index);
          }
          return key.name.rfind("queue_", 0) == 0 && !keep_queue(key.name);
        });
      }
    }
  }
  return out;
}

// A copy of `fabric` whose NICs keep only the per-priority counters `keep` accepts.
model::Fabric keeping_priorities(const model::Fabric& fabric,
                                 const std::function<bool(const std::string&, int)>& keep) {
  model::Fabric out = fabric;
  for (auto& host : out.hosts) {
    for (auto& nic : host.nics) {
      for (auto& sample : nic.samples) {
        erase_values(sample, [&keep](const model::MetricKey& key) {
          return key.index >= 0 && !keep(key.name, key.index);
        });
      }
    }
  }
  return out;
}

// The values of every sample of the NICs (first) and of the switch ports (second).
std::pair<std::size_t, std::size_t> value_counts(const model::Fabric& fabric) {
  const auto count = [](const std::vector<model::CounterSample>& samples) {
    std::size_t values = 0;
    for (const auto& sample : samples) {
      values += sample.values.size();
    }
    return values;
  };
  std::pair<std::size_t, std::size_t> out;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      out.first += count(nic.samples);
    }
  }
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      out.second += count(port.samples);
    }
  }
  return out;
}

// What probes_read_queue_traffic is given for a switch port of the model: each queue's drop
// counter over the samples that hold it, and whether the port has a sending rate of its own.
probes::QueueTrafficReads queue_traffic_read(const model::SwitchPort& port) {
  std::map<int, std::vector<double>> drops;
  bool rate = false;
  for (const auto& sample : port.samples) {
    for (const auto& [key, value] : sample.values) {
      if (key.name == probes::metric::k_sw_queue_drop_packets) {
        drops[key.index].push_back(value);
      }
      rate = rate || ((key.name == probes::metric::k_sw_tx_bps ||
                       key.name == probes::metric::k_sw_tx_util_pct) &&
                      key.index < 0);
    }
  }
  std::vector<std::vector<double>> counters;
  for (auto& [queue, values] : drops) {
    counters.push_back(std::move(values));
  }
  return probes::probes_read_queue_traffic(counters, rate);
}

// A copy of `fabric` whose switch ports keep the queue traffic counters (sent packets, sent
// bytes) only where `keep` says a probe reads them.
model::Fabric keeping_queue_traffic(
    const model::Fabric& fabric,
    const std::function<probes::QueueTrafficReads(const model::SwitchPort&)>& keep) {
  model::Fabric out = fabric;
  for (auto& sw : out.switches) {
    for (auto& port : sw.ports) {
      const probes::QueueTrafficReads read = keep(port);
      for (auto& sample : port.samples) {
        erase_values(sample, [&read](const model::MetricKey& key) {
          return (key.name == probes::metric::k_sw_queue_tx_packets && !read.packets) ||
                 (key.name == probes::metric::k_sw_queue_tx_bytes && !read.bytes);
        });
      }
    }
  }
  return out;
}

// The NICs as Prometheus gives them: no QoS configuration, so PFC is inferred from pause.
model::Fabric without_qos_config(model::Fabric fabric) {
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.qos = model::QosConfig{};
    }
  }
  return fabric;
}

// diagnose --prometheus fetches only the per-priority stats probes_read_priority accepts, the
// switches' PFC where probes_read_switch_pfc_priority does and their queue counters
// probes_read_switch_queue_metric names: every probe must answer the same without the others,
// with and without a QoS configuration.
TEST(PriorityReads, EveryProbeAnswersTheSameWithoutThePrioritiesItDoesNotRead) {
  const int roce = probes::ProbeOptions{}.roce_priority;
  const auto read = [roce](const std::string& name, int priority) {
    return probes::probes_read_priority(name, priority, roce);
  };
  ASSERT_FALSE(world().fixtures.empty());
  std::size_t nic_dropped = 0;
  std::size_t switch_dropped = 0;
  for (const auto& fixture : world().fixtures) {
    for (const model::Fabric& variant : {fixture.full, without_qos_config(fixture.full)}) {
      const model::Fabric narrowed = keeping_switch_reads(
          keeping_priorities(variant, read),
          [roce](int priority) { return probes::probes_read_switch_pfc_priority(priority, roce); },
          [](const std::string& name) { return probes::probes_read_switch_queue_metric(name); });
      for (const auto& probe : world().registry.all()) {
        EXPECT_EQ(run(*probe, narrowed), run(*probe, variant))
            << probe->id() << " on " << fixture.name
            << " reads a counter probes/counters_read.h says no probe reads";
      }
      const auto [nics_before, switches_before] = value_counts(variant);
      const auto [nics_after, switches_after] = value_counts(narrowed);
      nic_dropped += nics_before - nics_after;
      switch_dropped += switches_before - switches_after;
    }
  }
  EXPECT_GT(nic_dropped, 0u) << "no fixture has NIC per-priority counters to leave out";
  EXPECT_GT(switch_dropped, 0u) << "no fixture has switch PFC counters to leave out";
}

// Every NIC's cells in the fabric picture (report/map_metrics.h), as text.
std::string nic_pictures(const model::Fabric& fabric) {
  std::ostringstream out;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      out << nic.nic_entity() << ":";
      for (const auto& figure : report::nic_figures(nic, probes::ProbeOptions{}.roce_priority)) {
        out << " " << (figure ? std::to_string(figure->value) + (figure->total ? "t" : "") : "-");
      }
      out << "\n";
    }
  }
  return out.str();
}

// diagnose --prometheus asks only for the NIC counters that become a metric some probe reads
// (probes_read_nic_metric): every probe must answer the same without the others, with and
// without a QoS configuration.
TEST(NicMetricReads, EveryProbeAnswersTheSameWithoutTheMetricsNoProbeReads) {
  ASSERT_FALSE(world().fixtures.empty());
  std::size_t dropped = 0;
  std::set<std::string> dropped_names;
  for (const auto& fixture : world().fixtures) {
    for (const model::Fabric& variant : {fixture.full, without_qos_config(fixture.full)}) {
      model::Fabric narrowed = variant;
      for (auto& host : narrowed.hosts) {
        for (auto& nic : host.nics) {
          for (auto& sample : nic.samples) {
            erase_values(sample, [&dropped_names](const model::MetricKey& key) {
              const bool drop = !probes::probes_read_nic_metric(key.name);
              if (drop) {
                dropped_names.insert(key.name);
              }
              return drop;
            });
          }
        }
      }
      for (const auto& probe : world().registry.all()) {
        EXPECT_EQ(run(*probe, narrowed), run(*probe, variant))
            << probe->id() << " on " << fixture.name
            << " reads a NIC metric probes_read_nic_metric leaves out";
      }
      EXPECT_EQ(nic_pictures(narrowed), nic_pictures(variant))
          << "the fabric picture of " << fixture.name
          << " shows a NIC metric probes_read_nic_metric leaves out";
      dropped += value_counts(variant).first - value_counts(narrowed).first;
    }
  }
  EXPECT_GT(dropped, 0u) << "no fixture has NIC metrics no probe reads";
  EXPECT_FALSE(dropped_names.empty());
}

// Every switch port's cells in the fabric picture, as text.
std::string switch_pictures(const model::Fabric& fabric) {
  std::ostringstream out;
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      out << sw.name << "/" << port.name << ":";
      for (const auto& figure :
           report::switch_port_figures(port, probes::ProbeOptions{}.roce_priority)) {
        out << " " << (figure ? std::to_string(figure->value) + (figure->total ? "t" : "") : "-");
      }
      out << "\n";
    }
  }
  return out.str();
}

// The metrics a switch port's `show interfaces counters` row becomes (model/switch_counters.cc).
bool is_interface_metric(const std::string& name) {
  static const std::set<std::string> k_names = {
      "rx_packets",  "tx_packets",  "rx_errors", "tx_errors", "rx_drops",    "tx_drops",
      "rx_overruns", "tx_overruns", "rx_bps",    "tx_bps",    "rx_util_pct", "tx_util_pct"};
  return k_names.count(name) != 0;
}

// diagnose --prometheus asks only for the IF-MIB counters whose metric something reads
// (probes_read_switch_interface_metric): every probe, and the picture's switch cells, must be
// the same without the others.
TEST(SwitchInterfaceReads, EveryProbeAnswersTheSameWithoutTheCountersNothingReads) {
  ASSERT_FALSE(world().fixtures.empty());
  std::size_t dropped = 0;
  for (const auto& fixture : world().fixtures) {
    model::Fabric narrowed = fixture.full;
    for (auto& sw : narrowed.switches) {
      for (auto& port : sw.ports) {
        for (auto& sample : port.samples) {
          erase_values(sample, [](const model::MetricKey& key) {
            return is_interface_metric(key.name) &&
                   !probes::probes_read_switch_interface_metric(key.name);
          });
        }
      }
    }
    for (const auto& probe : world().registry.all()) {
      EXPECT_EQ(run(*probe, narrowed), run(*probe, fixture.full))
          << probe->id() << " on " << fixture.name
          << " reads an interface counter probes_read_switch_interface_metric leaves out";
    }
    EXPECT_EQ(switch_pictures(narrowed), switch_pictures(fixture.full))
        << "the fabric picture of " << fixture.name
        << " shows an interface counter probes_read_switch_interface_metric leaves out";
    dropped += value_counts(fixture.full).second - value_counts(narrowed).second;
  }
  EXPECT_GT(dropped, 0u) << "no fixture has interface counters nothing reads";
}

// The list probes_read_nic_metric holds is every host NIC metric probes/metric_names.h names:
// a metric added there for a probe is fetched from Prometheus too, even where no fixture
// reaches it (the fallbacks of other vendors).
TEST(NicMetricReads, EveryHostMetricOfTheProbesVocabularyIsRead) {
  std::ifstream header(netdoctor::testing::source_dir() + "/probes/metric_names.h");
  ASSERT_TRUE(header.good());
  std::string line;
  std::size_t names = 0;
  while (std::getline(header, line)) {
    if (line.rfind("// Switch port", 0) == 0) {
      break;  // the host section ends here
    }
    const auto quote = line.find("= \"");
    if (line.find("inline constexpr const char*") == std::string::npos ||
        quote == std::string::npos) {
      continue;
    }
    const std::string name = line.substr(quote + 3, line.find('"', quote + 3) - quote - 3);
    ++names;
    EXPECT_TRUE(probes::probes_read_nic_metric(name)) << name << " is not fetched from Prometheus";
  }
  EXPECT_GT(names, 30u) << "no host metrics found in probes/metric_names.h";
}

// diagnose --prometheus asks for a switch's queue traffic counters after the rest, only where
// probes_read_queue_traffic says a port needs them: every probe must answer the same without
// the others.
TEST(QueueTrafficReads, EveryProbeAnswersTheSameWithoutTheQueueTrafficItDoesNotNeed) {
  ASSERT_FALSE(world().fixtures.empty());
  std::size_t dropped = 0;
  std::size_t kept = 0;
  for (const auto& fixture : world().fixtures) {
    const model::Fabric narrowed = keeping_queue_traffic(fixture.full, queue_traffic_read);
    for (const auto& probe : world().registry.all()) {
      EXPECT_EQ(run(*probe, narrowed), run(*probe, fixture.full))
          << probe->id() << " on " << fixture.name
          << " reads queue traffic probes_read_queue_traffic says it does not need";
    }
    const std::size_t before = value_counts(fixture.full).second;
    const std::size_t after = value_counts(narrowed).second;
    dropped += before - after;
    kept += after;
  }
  EXPECT_GT(dropped, 0u) << "no fixture has queue traffic counters to leave out";
  EXPECT_GT(kept, 0u);
}

// And they are needed where it says so: the sent packets beside a port's drops, the queues'
// sent bytes on ports without a rate of their own.
TEST(QueueTrafficReads, DropsAndPortsWithoutARateNeedTheirQueueTraffic) {
  const auto find = [](const std::string& name) {
    const auto it = std::find_if(world().fixtures.begin(), world().fixtures.end(),
                                 [&name](const Fixture& f) { return f.name == name; });
    return it == world().fixtures.end() ? nullptr : &*it;
  };
  const auto none = [](const model::SwitchPort&) { return probes::QueueTrafficReads{}; };
  const Fixture* drops = find("buffer-exhaustion");
  ASSERT_NE(drops, nullptr);
  const probes::Probe* drops_probe = world().registry.find("drops-buffers");
  ASSERT_NE(drops_probe, nullptr);
  EXPECT_NE(run(*drops_probe, keeping_queue_traffic(drops->full, none)),
            run(*drops_probe, drops->full))
      << "the sent packets beside the drops changed nothing";

  // Ports whose interface counters give no rate: the queues' bytes are their sending rate.
  const Fixture* ecmp = find("ecmp-imbalance");
  ASSERT_NE(ecmp, nullptr);
  model::Fabric no_rates = ecmp->full;
  for (auto& sw : no_rates.switches) {
    for (auto& port : sw.ports) {
      for (auto& sample : port.samples) {
        erase_values(sample, [](const model::MetricKey& key) {
          return key.name == probes::metric::k_sw_tx_bps ||
                 key.name == probes::metric::k_sw_tx_util_pct;
        });
      }
    }
  }
  bool bytes_matter = false;
  for (const auto& probe : world().registry.all()) {
    const std::string answer = run(*probe, no_rates);
    EXPECT_EQ(run(*probe, keeping_queue_traffic(no_rates, queue_traffic_read)), answer)
        << probe->id() << " without rates";
    bytes_matter = bytes_matter || run(*probe, keeping_queue_traffic(no_rates, none)) != answer;
  }
  EXPECT_TRUE(bytes_matter) << "the queues' sent bytes changed nothing on ports without a rate";
}

// The every-priority counters are needed: a NIC that pauses on priority 5 alone (PFC on the
// wrong priority) is seen, with no QoS configuration, only through them.
TEST(PriorityReads, PauseOnAnotherPriorityIsReadWhereNoConfigurationSaysWherePfcIs) {
  const int roce = probes::ProbeOptions{}.roce_priority;
  const int other = (roce + 2) % 8;
  const auto fixture =
      std::find_if(world().fixtures.begin(), world().fixtures.end(),
                   [](const Fixture& candidate) { return candidate.name == "healthy"; });
  ASSERT_NE(fixture, world().fixtures.end());
  model::Fabric moved = without_qos_config(fixture->full);
  ASSERT_FALSE(moved.hosts.empty());
  ASSERT_FALSE(moved.hosts.front().nics.empty());
  bool had_pause = false;
  for (auto& sample : moved.hosts.front().nics.front().samples) {
    for (const std::string name : {"pfc_tx_pause_frames", "pfc_rx_pause_frames"}) {
      const model::MetricKey at_roce{name, roce};
      if (auto value = sample.get(at_roce)) {
        had_pause = true;
        sample.values.erase(at_roce);
        sample.values.insert_or_assign(model::MetricKey{name, other}, *value);
      }
    }
  }
  ASSERT_TRUE(had_pause) << "the healthy fixture's first NIC has no pause counters";
  const probes::Probe* qos = world().registry.find("qos-config");
  ASSERT_NE(qos, nullptr);
  const std::string answer = run(*qos, moved);
  EXPECT_EQ(run(*qos, keeping_priorities(moved,
                                         [roce](const std::string& name, int priority) {
                                           return probes::probes_read_priority(name, priority,
                                                                               roce);
                                         })),
            answer);
  EXPECT_NE(run(*qos, keeping_priorities(moved, [roce](const std::string&,
                                                       int priority) { return priority == roce; })),
            answer)
      << "pause frames on other priorities changed nothing: " << answer;
}

std::vector<std::string> probe_ids() {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  std::vector<std::string> ids;
  for (const auto* probe : registry.all()) {
    ids.push_back(probe->id());
  }
  return ids;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryProbeReads, ::testing::ValuesIn(probe_ids()), test_name);

}  // namespace
}  // namespace netdoctor::engine
