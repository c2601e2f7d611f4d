// Helpers for the simulator tests: run a simulation into memory and read counters back with the
// same rules the parsers use (trim, split on the last ": ", thousands separators).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "base/strings.h"
#include "base/tree_writer.h"
#include "model/loader.h"
#include "sim/simulator.h"

namespace netdoctor::sim::testing {

class MemoryWriter final : public TreeWriter {
 public:
  Status write_file(std::string_view path, std::string_view content) override {
    files[std::string(path)] = std::string(content);
    return {};
  }
  Status finish() override { return {}; }
  std::string describe() const override { return "memory"; }
  std::map<std::string, std::string> files;
};

struct Bundle {
  Simulation simulation;
  std::map<std::string, std::string> files;
  std::string sample(std::size_t k) const { return sample_name(simulation.fabric, k); }
  const std::string& file(const std::string& path) const {
    static const std::string k_empty;
    const auto it = files.find(path);
    EXPECT_NE(it, files.end()) << "missing " << path;
    return it == files.end() ? k_empty : it->second;
  }
};

inline SimConfig config_for(std::size_t hosts, std::size_t nics, std::vector<std::string> faults,
                            std::uint64_t seed = 7) {
  SimConfig config;
  config.hosts = hosts;
  config.nics_per_host = nics;
  config.seed = seed;
  for (const std::string& fault : faults) {
    config.faults.push_back(parse_fault_request(fault));
  }
  return config;
}

inline Bundle run(const SimConfig& config) {
  auto simulation = simulate(config);
  EXPECT_TRUE(simulation.ok()) << (simulation.ok() ? "" : simulation.error().describe());
  Bundle bundle{std::move(simulation).value(), {}};
  MemoryWriter writer;
  auto written = write_bundle(bundle.simulation, writer);
  EXPECT_TRUE(written.ok());
  bundle.files = std::move(writer.files);
  return bundle;
}

// `ethtool -S` text -> name/value, parsed as FORMATS.md says: trim, split on the last ": ".
inline std::map<std::string, std::uint64_t> parse_ethtool_stats(const std::string& text) {
  std::map<std::string, std::uint64_t> stats;
  for (const std::string_view raw : split_lines(text)) {
    const std::string_view line = trim(raw);
    const size_t colon = line.rfind(": ");
    if (colon == std::string_view::npos) {
      continue;
    }
    const auto value = parse_u64(line.substr(colon + 2));
    if (value) {
      stats[std::string(line.substr(0, colon))] = *value;
    }
  }
  return stats;
}

// A SONiC table -> rows of cells (split on runs of whitespace, separators removed).
inline std::vector<std::vector<std::string>> table_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  bool past_rule = false;
  for (const std::string_view line : split_lines(text)) {
    if (starts_with(trim(line), "---")) {
      past_rule = true;
      continue;
    }
    if (!past_rule || trim(line).empty()) {
      if (trim(line).empty()) {
        past_rule = false;
      }
      continue;
    }
    std::vector<std::string> cells;
    for (const std::string_view cell : split_wide(line)) {
      cells.emplace_back(trim(cell));
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

inline double captured_at(const Bundle& bundle, const std::string& machine_dir, std::size_t k) {
  return parse_double(trim(bundle.file(machine_dir + "/" + bundle.sample(k) + "/captured_at")))
      .value_or(0.0);
}

// Rate of an ethtool counter of host/netdev between samples 0 and 1.
inline double ethtool_rate(const Bundle& bundle, const std::string& host, const std::string& netdev,
                           const std::string& counter) {
  const std::string dir = "hosts/" + host;
  const auto a = parse_ethtool_stats(
      bundle.file(dir + "/" + bundle.sample(0) + "/sos_commands/networking/ethtool_-S_" + netdev));
  const auto b = parse_ethtool_stats(
      bundle.file(dir + "/" + bundle.sample(1) + "/sos_commands/networking/ethtool_-S_" + netdev));
  const double dt = captured_at(bundle, dir, 1) - captured_at(bundle, dir, 0);
  EXPECT_TRUE(a.count(counter) && b.count(counter)) << counter;
  return (static_cast<double>(b.at(counter)) - static_cast<double>(a.at(counter))) / dt;
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

// The bundle read back as `inventory` and `diagnose` read one: capture layer, parsers, model.
inline model::Fabric load_model(const Bundle& bundle) {
  auto tree = std::make_shared<MemTree>("sim");
  tree->set_track_reads(false);
  for (const auto& [path, content] : bundle.files) {
    tree->add_file(path, content);
  }
  auto opened = open_bundle_tree(tree, "sim");
  EXPECT_TRUE(opened.ok()) << opened.error().describe();
  auto fabric = model::load_fabric(*opened);
  EXPECT_TRUE(fabric.ok()) << fabric.error().describe();
  return std::move(fabric).value();
}

}  // namespace netdoctor::sim::testing
