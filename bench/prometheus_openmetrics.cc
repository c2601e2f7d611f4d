// bench/prometheus_bench.sh's data: a simulator fabric as the OpenMetrics its exporters would have
// had scraped (tests/remote/openmetrics_export.h, the real-Prometheus tests' exporter), written one
// machine at a time so that a cluster of thousands of hosts never sits in memory, for
// `promtool tsdb create-blocks-from openmetrics`.
//
//   prometheus_openmetrics --bundle DIR --end T [--prefix P] [--ethtool all|used] > FILE
//
// --prefix renames every host and switch "<P><name>" (their LLDP neighbours too): copies of one
// bundle so renamed ("p1-", "p2-", ...) are the pods of a larger cluster. Both samples of every
// host fall in the window printed ("start=S at=A"), which ends just before T. --ethtool used
// keeps only the node_ethtool_ stats model/counters.tsv names (what netdoctor asks for); all
// (default) keeps every one. The OpenMetrics goes to stdout; one line to stderr:
// start= at= series= hosts= switches=.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/counter_table.h"
#include "remote/node_exporter_names.h"
#include "tests/remote/openmetrics_export.h"
#include "tests/support/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace t = netdoctor::testing;

struct Options {
  fs::path bundle;
  std::string prefix;
  double end = 0.0;
  bool used_only = false;
};

using Samples = std::map<std::string, std::vector<fs::path>>;
using t::captured_at;
using t::samples_under;

// The last first-sample time and the last second-sample time of the hosts.
std::pair<double, double> sample_times(const Samples& hosts) {
  double first = 0.0;
  double second = 0.0;
  for (const auto& [host, dirs] : hosts) {
    if (dirs.size() >= 2) {
      first = std::max(first, captured_at(dirs[0]));
      second = std::max(second, captured_at(dirs[1]));
    }
  }
  return {first, second};
}

class Writer {
 public:
  Writer(std::ostream& out, std::set<std::string> ethtool_kept, bool used_only)
      : m_out(out), m_kept(std::move(ethtool_kept)), m_used_only(used_only) {}

  // Writes one machine's series (renamed for pod > 0) and forgets them.
  void flush(t::Exposition& exposition, const std::string& prefix) {
    for (auto it = exposition.begin(); it != exposition.end();) {
      const bool ethtool =
          it->first.rfind("node_ethtool_", 0) == 0 && it->first != "node_ethtool_info";
      if (m_used_only && ethtool && m_kept.count(it->first) == 0) {
        it = exposition.erase(it);
      } else {
        ++it;
      }
    }
    if (!prefix.empty()) {
      for (auto& [metric, series] : exposition) {
        if (metric.find("lldp_neighbor_info") == std::string::npos) {
          continue;
        }
        std::map<std::string, std::vector<t::Point>> renamed;
        for (auto& [labels, points] : series) {
          std::string text = labels;
          const std::string key = "remote_system_name=\"";
          if (auto at = text.find(key); at != std::string::npos) {
            text.insert(at + key.size(), prefix);
          }
          renamed[text] = std::move(points);
        }
        series = std::move(renamed);
      }
    }
    for (const auto& [metric, series] : exposition) {
      m_series += series.size();
    }
    std::string text = t::openmetrics(exposition);
    text.resize(text.size() - std::string_view("# EOF\n").size());
    m_out << text;
    exposition.clear();
  }
  void finish() { m_out << "# EOF\n"; }
  std::size_t series() const { return m_series; }

 private:
  std::ostream& m_out;
  std::set<std::string> m_kept;
  bool m_used_only;
  std::size_t m_series = 0;
};

std::set<std::string> used_ethtool_metrics() {
  std::set<std::string> out;
  auto table = netdoctor::model::CounterTable::builtin();
  if (!table.ok()) {
    return out;
  }
  for (const auto& stat : table->counter_names(netdoctor::model::CounterSource::Ethtool)) {
    if (auto metric = netdoctor::remote::ethtool_metric_from_stat(stat)) {
      out.insert(*metric);
    }
  }
  return out;
}

int run(const Options& options) {
  const Samples hosts = samples_under(options.bundle / "hosts");
  const Samples switches = samples_under(options.bundle / "switches");
  const auto [first, second] = sample_times(hosts);
  const double shift = std::floor(options.end - 0.5 - second);
  const double start = first + shift + 0.5;
  const double at = second + shift + 0.5;
  Writer writer(std::cout, used_ethtool_metrics(), options.used_only);
  t::Exposition exposition;
  for (const auto& [host, dirs] : hosts) {
    for (const auto& dir : dirs) {
      t::export_host_sample(dir, options.prefix + host, captured_at(dir) + shift, exposition);
    }
    writer.flush(exposition, options.prefix);
  }
  std::size_t index = 0;
  for (const auto& [name, dirs] : switches) {
    if (dirs.size() == 2) {
      // Scraped just before each instant the query reads (tests/remote/prometheus_fixture.cc).
      t::export_switch_samples(dirs, options.prefix + name, ++index, {start - 0.25, at - 0.25},
                               exposition);
      writer.flush(exposition, options.prefix);
    }
  }
  writer.finish();
  std::cerr << fmt::format("start={:.3f} at={:.3f} series={} hosts={} switches={}\n", start, at,
                           writer.series(), hosts.size(), switches.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--bundle") {
      options.bundle = value;
    } else if (flag == "--prefix") {
      options.prefix = value;
    } else if (flag == "--end") {
      options.end = std::stod(value);
    } else if (flag == "--ethtool") {
      options.used_only = value == "used";
    } else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  if (options.bundle.empty() || options.end <= 0.0) {
    std::cerr << "usage: prometheus_openmetrics --bundle DIR --end T [--prefix P] "
                 "[--ethtool all|used] > FILE\n";
    return 2;
  }
  return run(options);
}
