// Every example scenario bundle loads completely: the hosts, NICs, switch ports and LLDP links it
// holds (counted here straight from its files), each NIC mapped to its switch port, no problems.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "base/bundle.h"
#include "base/strings.h"
#include "base/tree_writer.h"
#include "model/inventory.h"
#include "model/loader.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

namespace fs = std::filesystem;

struct Scenario {
  std::string name;
  std::string archive;
  std::size_t hosts = 0;
  std::size_t nics_per_host = 0;
};

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  const auto dir = testing::shared_dir() + "/scenarios";
  auto expected = nlohmann::json::parse(testing::read_text(dir + "/expected.json"));
  for (const auto& entry : expected) {
    out.push_back(Scenario{
        entry["scenario"].get<std::string>(), dir + "/" + entry["bundle"].get<std::string>(),
        entry["hosts"].get<std::size_t>(), entry["nics_per_host"].get<std::size_t>()});
  }
  return out;
}

// What the bundle's files hold, read with simple text rules independent of the parsers.
struct Expected {
  std::map<std::string, std::size_t> ports_per_switch;
  std::set<std::string> links;
};

std::string last_sample(const FileTree& tree, const std::string& machine_dir) {
  auto samples = tree.list(machine_dir);
  return samples.ok() && !samples->empty() ? samples->back().name : std::string();
}

Expected count_from_files(const Bundle& bundle) {
  Expected expected;
  std::set<std::string> switch_names;
  for (const auto& sw : bundle.switches) {
    switch_names.insert(sw.name);
  }
  for (const auto& sw : bundle.switches) {
    const std::string dir =
        "switches/" + sw.name + "/" + last_sample(*bundle.tree, "switches/" + sw.name);
    auto status = bundle.tree->read(dir + "/sos_commands/sonic/show_interfaces_status");
    auto lldp = bundle.tree->read(dir + "/sos_commands/sonic/show_lldp_table");
    std::size_t ports = 0;
    if (status.ok()) {
      for (auto line : split_lines(*status)) {
        auto fields = split_ws(line);
        if (!fields.empty() && starts_with(fields[0], "Ethernet")) {
          ++ports;
        }
      }
    }
    expected.ports_per_switch[sw.name] = ports;
    if (lldp.ok()) {
      for (auto line : split_lines(*lldp)) {
        auto fields = split_ws(line);
        if (fields.size() < 3 || !starts_with(fields[0], "Ethernet")) {
          continue;
        }
        const std::string peer(fields[1]);
        std::string a = "port:" + sw.name + "/" + std::string(fields[0]);
        std::string b =
            (switch_names.count(peer) ? "port:" : "netdev:") + peer + "/" + std::string(fields[2]);
        if (b < a) {
          std::swap(a, b);
        }
        expected.links.insert("link:" + a + "~" + b);
      }
    }
  }
  return expected;
}

void check_fabric(const Scenario& scenario, const Bundle& bundle, const Fabric& fabric) {
  SCOPED_TRACE(scenario.name);
  for (const auto& problem : fabric.problems) {
    ADD_FAILURE() << problem.entity << " " << problem.source << ": " << problem.error.describe();
  }
  ASSERT_EQ(fabric.hosts.size(), scenario.hosts);
  for (const auto& host : fabric.hosts) {
    EXPECT_EQ(host.nics.size(), scenario.nics_per_host) << host.name;
    EXPECT_EQ(host.captured_at.size(), 2u) << host.name;
    EXPECT_TRUE(host.clock.offset_s.has_value()) << host.name;
    for (const auto& nic : host.nics) {
      EXPECT_FALSE(nic.netdev.empty()) << nic.nic_entity();
      EXPECT_EQ(nic.vendor, "mlx5") << nic.nic_entity();
      EXPECT_FALSE(nic.firmware.empty()) << nic.nic_entity();
      EXPECT_TRUE(nic.mtu && nic.active_mtu && nic.speed_gbps) << nic.nic_entity();
      EXPECT_FALSE(nic.ipv4.empty()) << nic.nic_entity();
      ASSERT_FALSE(nic.port_entity().empty()) << nic.nic_entity() << " has no switch port";
      const auto* sw = fabric.find_switch(nic.switch_name);
      ASSERT_NE(sw, nullptr) << nic.port_entity();
      const auto* port = sw->find_port(nic.switch_port);
      ASSERT_NE(port, nullptr) << nic.port_entity();
      EXPECT_EQ(port->peer_device, host.name);
      EXPECT_EQ(port->peer_port, nic.netdev);
      ASSERT_EQ(nic.samples.size(), 2u);
      EXPECT_TRUE(nic.samples[1].get({"port_rx_bytes", -1}).has_value()) << nic.nic_entity();
      EXPECT_TRUE(nic.samples[1].get({"ib_rx_bytes", -1}).has_value()) << nic.nic_entity();
      EXPECT_TRUE(nic.samples[1].get({"out_of_sequence", -1}).has_value()) << nic.nic_entity();
    }
  }
  const auto expected = count_from_files(bundle);
  ASSERT_EQ(fabric.switches.size(), expected.ports_per_switch.size());
  for (const auto& sw : fabric.switches) {
    EXPECT_EQ(sw.ports.size(), expected.ports_per_switch.at(sw.name)) << sw.name;
    EXPECT_EQ(sw.captured_at.size(), 2u) << sw.name;
    for (const auto& port : sw.ports) {
      ASSERT_EQ(port.samples.size(), 2u);
      EXPECT_TRUE(port.samples[1].get({"rx_packets", -1}).has_value()) << sw.name << port.name;
    }
  }
  const auto links = lldp_links(fabric);
  EXPECT_EQ(std::set<std::string>(links.begin(), links.end()), expected.links);
  EXPECT_FALSE(fabric.perftests.empty());
}

TEST(Scenarios, EveryScenarioTarballLoadsCompletely) {
  const auto list = scenarios();
  ASSERT_EQ(list.size(), 16u);
  for (const auto& scenario : list) {
    auto bundle = open_bundle(scenario.archive);
    ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
    LoadOptions options;
    options.threads = 2;
    auto fabric = load_fabric(*bundle, options);
    ASSERT_TRUE(fabric.ok());
    check_fabric(scenario, *bundle, *fabric);
  }
}

// Copies a tree to disk through the base writer, so the directory form is tested too.
void extract(const FileTree& tree, const std::string& path, TreeWriter& writer) {
  auto entries = tree.list(path);
  ASSERT_TRUE(entries.ok()) << path;
  for (const auto& entry : *entries) {
    const std::string child = path.empty() ? entry.name : path + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      extract(tree, child, writer);
    } else if (entry.kind == DirEntry::Kind::File) {
      auto text = tree.read(child);
      ASSERT_TRUE(text.ok()) << child;
      ASSERT_TRUE(writer.write_file(child, *text).ok()) << child;
    }
  }
}

// The extracted copy of a scenario: NETDOCTOR_SCENARIO_DIRS/<name>/<name> when given (copies
// extracted with tar), else extracted here through the base writer.
std::string scenario_dir(const Scenario& scenario, const FileTree& packed,
                         const std::string& scratch) {
  if (const char* copies = std::getenv("NETDOCTOR_SCENARIO_DIRS")) {
    const auto existing = std::string(copies) + "/" + scenario.name + "/" + scenario.name;
    if (fs::exists(existing + "/hosts")) {
      return existing;
    }
  }
  const auto dir = scratch + "/" + scenario.name;
  auto writer = open_dir_writer(dir);
  EXPECT_TRUE(writer.ok());
  if (writer.ok()) {
    extract(packed, "", **writer);
    EXPECT_TRUE((*writer)->finish().ok());
  }
  return dir;
}

TEST(Scenarios, ScenarioDirectoriesLoadLikeTheirTarballs) {
  const auto scratch = testing::make_temp_dir("scenario-dirs");
  for (const auto& scenario : scenarios()) {
    auto packed = open_bundle(scenario.archive);
    ASSERT_TRUE(packed.ok());
    auto bundle = open_bundle(scenario_dir(scenario, *packed->tree, scratch));
    ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
    auto fabric = load_fabric(*bundle);
    ASSERT_TRUE(fabric.ok());
    check_fabric(scenario, *bundle, *fabric);
    auto from_tar = load_fabric(*packed);
    ASSERT_TRUE(from_tar.ok());
    EXPECT_EQ(inventory_json(*fabric)["hosts"], inventory_json(*from_tar)["hosts"]);
  }
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace netdoctor::model
