// Generated files follow the layouts of the shared example scenarios, read with the parsing
// rules of shared/reference/FORMATS.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "base/file_tree.h"
#include "sim_test_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::sim::testing {
namespace {

// A path with the machine, sample and device names replaced: the "kind" of a file.
std::string path_kind(std::string path, const std::set<std::string>& names) {
  std::vector<std::string> parts;
  for (const std::string_view part : split(path, '/')) {
    parts.emplace_back(part);
  }
  if (parts.size() > 2 && (parts[0] == "hosts" || parts[0] == "switches")) {
    parts[1] = "M";
    parts[2] = "S";
  }
  if (parts.size() > 1 && (parts[0] == "perftest" || parts[0] == "perftest-baseline")) {
    parts[1] = "PAIR";
    if (parts.size() > 2) {
      parts[2] = parts[2].substr(0, parts[2].find("_-d_"));
    }
  }
  std::string out;
  for (std::string& part : parts) {
    for (const std::string& name : names) {
      const size_t at = part.find(name);
      if (at != std::string::npos && part.size() - at == name.size()) {
        part = part.substr(0, at) + "X";
      }
    }
    out += "/" + part;
  }
  return out;
}

std::set<std::string> kinds_of(const std::map<std::string, std::string>& files,
                               const std::set<std::string>& names) {
  std::set<std::string> kinds;
  for (const auto& [path, content] : files) {
    kinds.insert(path_kind(path, names));
  }
  return kinds;
}

// Every file path of a tree, relative to `dir`.
void walk(const FileTree& tree, const std::string& dir, const std::string& relative,
          std::map<std::string, std::string>& files) {
  auto entries = tree.list(dir);
  ASSERT_TRUE(entries.ok()) << entries.error().describe();
  for (const DirEntry& entry : *entries) {
    const std::string path = dir.empty() ? entry.name : dir + "/" + entry.name;
    const std::string rel = relative.empty() ? entry.name : relative + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      walk(tree, path, rel, files);
    } else if (rel != "bundle.json") {
      files[rel] = "";
    }
  }
}

TEST(SimFormat, HealthyBundleHasTheSameFileKindsAsTheSharedHealthyScenario) {
  auto tree = open_tar_tree(netdoctor::testing::shared_dir() + "/scenarios/healthy.tar.gz");
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  auto top = (*tree)->list("");
  ASSERT_TRUE(top.ok());
  ASSERT_EQ(top->size(), 1U) << "the scenario archive holds one top directory";
  std::map<std::string, std::string> theirs;
  std::set<std::string> names;
  walk(**tree, top->front().name, "", theirs);
  ASSERT_FALSE(theirs.empty());
  for (const char* name :
       {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "ens1f0np0", "ens2f0np0", "ens3f0np0", "ens4f0np0",
        "rocep26s0f0", "rocep42s0f0", "rocep58s0f0", "rocep74s0f0", "enp26s0f0np0", "enp42s0f0np0",
        "enp58s0f0np0", "enp74s0f0np0"}) {
    names.insert(name);
  }
  Bundle ours = run(config_for(8, 4, {}, 11));
  // The RoCE GID table (spec/bundle.md 1.1) is newer than the shared scenarios.
  std::erase_if(ours.files, [](const auto& file) {
    return contains(file.first, "/gids/") || contains(file.first, "/gid_attrs/") ||
           ends_with(file.first, "/show_gids") ||
           starts_with(file.first, "nccl/");  // the NCCL job (1.1): logs and nccl-tests output
  });
  std::set<std::string> our_kinds = kinds_of(ours.files, names);
  // Bundle spec 1.1 files the shared scenario predates: the PCIe link (sysfs, lspci, dmesg),
  // the host RDMA tools and the switches' PFC watchdog.
  for (const char* newer :
       {"/switches/M/S/sos_commands/sonic/show_pfcwd_stats",
        "/switches/M/S/sos_commands/sonic/show_pfcwd_config",
        "/hosts/M/S/sys/class/net/X/device/current_link_width",
        "/hosts/M/S/sys/class/net/X/device/max_link_width",
        "/hosts/M/S/sys/class/net/X/device/current_link_speed",
        "/hosts/M/S/sys/class/net/X/device/max_link_speed",
        "/hosts/M/S/sos_commands/pci/lspci_-vvv", "/hosts/M/S/sos_commands/kernel/dmesg",
        "/hosts/M/S/sos_commands/infiniband/ibdev2netdev",
        "/hosts/M/S/sos_commands/infiniband/rdma_statistic_show",
        "/hosts/M/S/sos_commands/infiniband/rdma_resource_show"}) {
    EXPECT_EQ(our_kinds.erase(newer), 1U) << newer;
  }
  EXPECT_EQ(our_kinds, kinds_of(theirs, names));
}

TEST(SimFormat, EthtoolStatsLinesAreNameColonValue) {
  SimConfig config = config_for(2, 2, {}, 3);
  config.vendors = {Vendor::Mlx5, Vendor::Bnxt};
  const Bundle bundle = run(config);
  const std::regex mlx5_line("^     [a-z0-9_]+: [0-9]+$");
  const std::regex bnxt_line("^\t\t(\\[[0-9]+\\]: )?[a-z0-9_]+: [0-9]+$");
  std::size_t checked = 0;
  for (const auto& [path, content] : bundle.files) {
    if (path.find("ethtool_-S_") == std::string::npos) {
      continue;
    }
    const bool bnxt = content.find("\t\t[0]: rx_ucast_packets") != std::string::npos;
    const auto lines = split_lines(content);
    ASSERT_EQ(lines.front(), "NIC statistics:");
    for (std::size_t i = 1; i < lines.size(); ++i) {
      ASSERT_TRUE(std::regex_match(std::string(lines[i]), bnxt ? bnxt_line : mlx5_line))
          << path << ": " << lines[i];
    }
    const auto stats = parse_ethtool_stats(content);
    if (bnxt) {
      EXPECT_TRUE(stats.count("rx_pfc_ena_frames_pri3"));
      EXPECT_TRUE(stats.count("[7]: rx_ucast_packets"));
    } else {
      EXPECT_TRUE(stats.count("tx_prio3_pause_duration"));
      EXPECT_EQ(stats.at("rx_bytes_phy") / 4,
                parse_u64(trim(bundle.file(
                              path.substr(0, path.find("sos_commands")) + "sys/class/infiniband/" +
                              (path.find("ens1f0np0") != std::string::npos
                                   ? bundle.simulation.fabric.hosts[0].nics[0].rdma_dev
                                   : bundle.simulation.fabric.hosts[0].nics[1].rdma_dev) +
                              "/ports/1/counters/port_rcv_data")))
                    .value_or(0))
          << "port_rcv_data counts 4-octet words of rx_bytes_phy (" << path << ")";
    }
    ++checked;
  }
  EXPECT_EQ(checked, 2u * 2u * 2u);
}

TEST(SimFormat, SysfsCounterFilesHoldOneInteger) {
  const Bundle bundle = run(config_for(2, 2, {"link-errors"}, 3));
  std::size_t counters = 0;
  for (const auto& [path, content] : bundle.files) {
    if (path.find("/counters/") != std::string::npos ||
        path.find("/hw_counters/") != std::string::npos ||
        path.find("/statistics/") != std::string::npos) {
      ASSERT_FALSE(content.empty());
      EXPECT_EQ(content.back(), '\n') << path;
      EXPECT_TRUE(parse_u64(trim(content)).has_value()) << path << ": " << content;
      ++counters;
    }
  }
  EXPECT_GT(counters, 200u);
}

TEST(SimFormat, SonicTablesUseTheScenarioHeadersAndThousandsSeparators) {
  const Bundle bundle = run(config_for(8, 4, {}, 3));
  const std::string dir = "switches/leaf1/" + bundle.sample(0) + "/sos_commands/sonic/";
  const std::string counters = bundle.file(dir + "show_interfaces_counters");
  EXPECT_EQ(split_ws(split_lines(counters)[0]),
            (std::vector<std::string_view>{"IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR",
                                           "RX_DRP", "RX_OVR", "TX_OK", "TX_BPS", "TX_UTIL",
                                           "TX_ERR", "TX_DRP", "TX_OVR"}));
  const auto rows = table_rows(counters);
  ASSERT_EQ(rows.size(), bundle.simulation.fabric.switches[0].ports.size());
  EXPECT_TRUE(parse_grouped_u64(rows[0][2]).has_value());
  EXPECT_NE(rows[0][2].find(','), std::string::npos);
  EXPECT_TRUE(ends_with(rows[0][3], "GB/s") || ends_with(rows[0][3], "MB/s"));
  EXPECT_TRUE(ends_with(rows[0][4], "%"));

  const std::string pfc = bundle.file(dir + "show_pfc_counters");
  EXPECT_TRUE(starts_with(trim(pfc), "Port Rx  PFC0"));
  EXPECT_NE(pfc.find("\n\n    Port Tx  PFC0"), std::string::npos);
  const std::string queues = bundle.file(dir + "show_queue_counters");
  EXPECT_NE(queues.find("  Ethernet0  UC3  "), std::string::npos);
  EXPECT_NE(queues.find("  Ethernet0  MC9  "), std::string::npos);
  const std::string lldp = bundle.file(dir + "show_lldp_table");
  EXPECT_TRUE(starts_with(lldp, "Capability codes: (R) Router, (B) Bridge, (O) Other\n"));
  EXPECT_NE(lldp.find("Total entries displayed:  24\n"), std::string::npos);
}

TEST(SimFormat, LldpJsonNamesTheLeafPortOfEveryNic) {
  const Bundle bundle = run(config_for(2, 4, {}, 3));
  const Host& host = bundle.simulation.fabric.hosts[1];
  const auto json =
      nlohmann::json::parse(bundle.file("hosts/" + host.name + "/" + bundle.sample(0) +
                                        "/sos_commands/lldp/lldpcli_show_neighbors_-f_json"));
  const auto& interfaces = json.at("lldp").at("interface");
  ASSERT_EQ(interfaces.size(), 4u);
  for (std::size_t n = 0; n < 4; ++n) {
    const auto& entry = interfaces[n].at(host.nics[n].netdev);
    const Switch& leaf = bundle.simulation.fabric.switches[host.nics[n].leaf];
    EXPECT_TRUE(entry.at("chassis").contains(leaf.name));
    EXPECT_EQ(entry.at("port").at("id").at("value"), leaf.ports[host.nics[n].port].name);
  }
}

TEST(SimFormat, PerftestOutputsParseLikeTheScenarioOnes) {
  const Bundle bundle = run(config_for(4, 1, {}, 3));
  std::size_t runs = 0;
  for (const auto& [path, content] : bundle.files) {
    if (!starts_with(path, "perftest")) {
      continue;
    }
    ++runs;
    const auto lines = split_lines(content);
    EXPECT_EQ(lines.front().size(), 87u);
    bool row = false;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      if (starts_with(lines[i], " #bytes")) {
        const auto cells = split_ws(lines[i + 1]);
        EXPECT_EQ(cells.size(), path.find("ib_write_bw") != std::string::npos ? 5u : 9u) << path;
        for (const auto cell : cells) {
          EXPECT_TRUE(parse_double(cell).has_value()) << cell;
        }
        row = true;
      }
    }
    EXPECT_TRUE(row) << path;
  }
  EXPECT_EQ(runs, 2u * 2u * 2u);  // 2 pairs x 2 tests x (now, baseline)
}

TEST(SimFormat, ChronyAndMlnxQosAndIbvDevinfoKeepTheirKeyLines) {
  const Bundle bundle = run(config_for(2, 2, {}, 3));
  const Host& host = bundle.simulation.fabric.hosts[0];
  const std::string dir = "hosts/" + host.name + "/" + bundle.sample(0) + "/sos_commands/";
  const std::string chrony = bundle.file(dir + "chrony/chronyc_tracking");
  EXPECT_TRUE(std::regex_search(chrony, std::regex("System time     : [0-9]+\\.[0-9]{9} seconds "
                                                   "(slow|fast) of NTP time\n")));
  EXPECT_NE(chrony.find("Leap status     : "), std::string::npos);
  const std::string qos = bundle.file(dir + "mellanox/mlnx_qos_-i_" + host.nics[0].netdev);
  EXPECT_NE(qos.find("\tenabled     0   0   0   1   0   0   0   0   \n"), std::string::npos);
  EXPECT_NE(qos.find("\tprio:3 dscp:31,30,29,28,27,26,25,24,\n"), std::string::npos);
  const std::string ibv = bundle.file(dir + "infiniband/ibv_devinfo_-v");
  EXPECT_NE(ibv.find("hca_id:\t" + host.nics[1].rdma_dev + "\n"), std::string::npos);
  EXPECT_NE(ibv.find("\t\t\tactive_mtu:\t\t4096 (5)\n"), std::string::npos);
  EXPECT_NE(ibv.find("::ffff:" + host.nics[0].ip + ", RoCE v2"), std::string::npos);
}

}  // namespace
}  // namespace netdoctor::sim::testing
