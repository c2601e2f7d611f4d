// Diagnose from a real Prometheus server: a simulator bundle with a PFC storm is turned into
// node_exporter series (names and labels as node_exporter's infiniband, ethtool and netdev
// collectors export them), backfilled with `promtool tsdb create-blocks-from openmetrics`, served
// by `prometheus` on 127.0.0.1, and `diagnose --prometheus` must name the storm and its culprit.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "remote/http_client.h"
#include "tests/remote/remote_test_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::remote {
namespace {

namespace fs = std::filesystem;
namespace t = netdoctor::testing;

// sysfs counter file -> node_infiniband_<name>, as node_exporter's infiniband collector exports
// it (written independently of remote/prometheus_bundle.cc's table on purpose).
const std::map<std::string, std::pair<std::string, double>>& ib_names() {
  static const std::map<std::string, std::pair<std::string, double>> k_names = {
      {"port_rcv_data", {"port_data_received_bytes_total", 4.0}},
      {"port_xmit_data", {"port_data_transmitted_bytes_total", 4.0}},
      {"port_rcv_packets", {"port_packets_received_total", 1.0}},
      {"port_xmit_packets", {"port_packets_transmitted_total", 1.0}},
      {"port_xmit_wait", {"port_transmit_wait_total", 1.0}},
      {"symbol_error", {"symbol_error_total", 1.0}},
      {"link_downed", {"link_downed_total", 1.0}},
      {"link_error_recovery", {"link_error_recovery_total", 1.0}},
      {"port_rcv_errors", {"port_errors_received_total", 1.0}},
      {"port_xmit_discards", {"port_discards_transmitted_total", 1.0}},
      {"port_rcv_remote_physical_errors", {"port_receive_remote_physical_errors_total", 1.0}},
      {"excessive_buffer_overrun_errors", {"excessive_buffer_overrun_errors_total", 1.0}},
      {"local_link_integrity_errors", {"local_link_integrity_errors_total", 1.0}},
      {"np_cnp_sent", {"np_cnp_packets_sent_total", 1.0}},
      {"np_ecn_marked_roce_packets", {"np_ecn_marked_roce_packets_received_total", 1.0}},
      {"rp_cnp_handled", {"rp_cnp_packets_handled_total", 1.0}},
      {"rp_cnp_ignored", {"rp_cnp_ignored_packets_received_total", 1.0}},
      {"out_of_buffer", {"out_of_buffer_drops_total", 1.0}},
      {"out_of_sequence", {"out_of_sequence_packets_received_total", 1.0}},
      {"packet_seq_err", {"packet_sequence_errors_total", 1.0}},
      {"local_ack_timeout_err", {"local_ack_timeout_errors_total", 1.0}},
      {"roce_adp_retrans", {"roce_adp_retransmits_total", 1.0}},
      {"roce_adp_retrans_to", {"roce_adp_retransmits_timeout_total", 1.0}},
      {"roce_slow_restart", {"roce_slow_restart_total", 1.0}},
      {"rx_icrc_encapsulated", {"rx_icrc_encapsulated_errors_total", 1.0}},
      {"rnr_nak_retry_err", {"rnr_nak_retry_packets_received_total", 1.0}},
      {"req_cqe_error", {"req_cqes_errors_total", 1.0}},
      {"resp_cqe_error", {"resp_cqes_errors_total", 1.0}},
      {"duplicate_request", {"duplicate_requests_packets_total", 1.0}},
      {"implied_nak_seq_err", {"implied_nak_seq_errors_total", 1.0}},
  };
  return k_names;
}

const std::map<std::string, std::string>& netdev_names() {
  static const std::map<std::string, std::string> k_names = {
      {"rx_bytes", "receive_bytes_total"},     {"tx_bytes", "transmit_bytes_total"},
      {"rx_packets", "receive_packets_total"}, {"tx_packets", "transmit_packets_total"},
      {"rx_dropped", "receive_drop_total"},    {"tx_dropped", "transmit_drop_total"},
      {"rx_errors", "receive_errs_total"},     {"tx_errors", "transmit_errs_total"},
  };
  return k_names;
}

// node_exporter's buildEthtoolFQName: sanitise, lower-case, rx -> received, tx -> transmitted;
// seven stats carry the netdev-style names.
std::string ethtool_metric(const std::string& stat) {
  static const std::map<std::string, std::string> k_basics = {
      {"rx_bytes", "received_bytes_total"},       {"rx_dropped", "received_dropped_total"},
      {"rx_errors", "received_errors_total"},     {"rx_packets", "received_packets_total"},
      {"tx_bytes", "transmitted_bytes_total"},    {"tx_errors", "transmitted_errors_total"},
      {"tx_packets", "transmitted_packets_total"}};
  if (auto it = k_basics.find(stat); it != k_basics.end()) {
    return "node_ethtool_" + it->second;
  }
  std::string name = std::regex_replace(stat, std::regex("_*[^0-9A-Za-z_]+_*"), "_");
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  name.erase(0, name.find_first_not_of('_'));
  // Applied twice: adjacent words ("rx_tx") share an underscore the first pass consumed.
  for (int pass = 0; pass < 2; ++pass) {
    name = std::regex_replace(name, std::regex("(^|_)rx(_|$)"), "$1received$2");
    name = std::regex_replace(name, std::regex("(^|_)tx(_|$)"), "$1transmitted$2");
  }
  return "node_ethtool_" + name;
}

struct Point {
  double time;
  double value;
};
// metric name -> label text -> points
using Exposition = std::map<std::string, std::map<std::string, std::vector<Point>>>;

std::string labels(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    out += fmt::format("{}{}=\"{}\"", out.empty() ? "" : ",", key, value);
  }
  return "{" + out + "}";
}

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  const auto end = text.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

// One host sample of a bundle as node_exporter would have exported it at `time`.
void export_sample(const fs::path& dir, const std::string& host, double time, Exposition& out) {
  const std::string instance = host + ":9100";
  auto add = [&](const std::string& metric, std::vector<std::pair<std::string, std::string>> l,
                 double value) {
    l.insert(l.begin(), {{"instance", instance}, {"job", "node"}});
    out[metric][labels(l)].push_back({time, value});
  };
  const fs::path ib = dir / "sys/class/infiniband";
  if (fs::exists(ib)) {
    for (const auto& device : fs::directory_iterator(ib)) {
      const std::string dev = device.path().filename().string();
      if (fs::exists(device.path() / "fw_ver")) {
        add("node_infiniband_info",
            {{"device", dev},
             {"firmware_version", trimmed(t::read_text((device.path() / "fw_ver").string()))}},
            1.0);
      }
      for (const auto& port : fs::directory_iterator(device.path() / "ports")) {
        const std::string p = port.path().filename().string();
        for (const char* group : {"counters", "hw_counters"}) {
          if (!fs::exists(port.path() / group)) {
            continue;
          }
          for (const auto& file : fs::directory_iterator(port.path() / group)) {
            auto it = ib_names().find(file.path().filename().string());
            if (it != ib_names().end()) {
              add("node_infiniband_" + it->second.first, {{"device", dev}, {"port", p}},
                  std::stod(t::read_text(file.path().string())) * it->second.second);
            }
          }
        }
        if (fs::exists(port.path() / "state")) {
          add("node_infiniband_state_id", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "state").string())));
        }
        if (fs::exists(port.path() / "phys_state")) {
          add("node_infiniband_physical_state_id", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "phys_state").string())));
        }
        if (fs::exists(port.path() / "rate")) {
          add("node_infiniband_rate_bytes_per_second", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "rate").string())) * 1e9 / 8.0);
        }
      }
    }
  }
  const fs::path net = dir / "sys/class/net";
  if (fs::exists(net)) {
    for (const auto& netdev : fs::directory_iterator(net)) {
      const std::string name = netdev.path().filename().string();
      if (fs::exists(netdev.path() / "statistics")) {
        for (const auto& file : fs::directory_iterator(netdev.path() / "statistics")) {
          auto it = netdev_names().find(file.path().filename().string());
          if (it != netdev_names().end()) {
            add("node_network_" + it->second, {{"device", name}},
                std::stod(t::read_text(file.path().string())));
          }
        }
      }
      if (fs::exists(netdev.path() / "mtu")) {
        add("node_network_mtu_bytes", {{"device", name}},
            std::stod(t::read_text((netdev.path() / "mtu").string())));
      }
      if (fs::exists(netdev.path() / "operstate")) {
        add("node_network_info",
            {{"address", trimmed(t::read_text((netdev.path() / "address").string()))},
             {"device", name},
             {"operstate", trimmed(t::read_text((netdev.path() / "operstate").string()))}},
            1.0);
      }
    }
  }
  for (const auto& file : fs::recursive_directory_iterator(dir / "sos_commands")) {
    const std::string name = file.path().filename().string();
    if (name.rfind("ethtool_-S_", 0) == 0) {
      const std::string netdev = name.substr(11);
      std::istringstream text(t::read_text(file.path().string()));
      for (std::string line; std::getline(text, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos || trimmed(line.substr(colon + 1)).empty()) {
          continue;
        }
        add(ethtool_metric(trimmed(line.substr(0, colon))), {{"device", netdev}},
            std::stod(line.substr(colon + 1)));
      }
    } else if (name.rfind("ethtool_-i_", 0) == 0) {
      std::map<std::string, std::string> fields;
      std::istringstream text(t::read_text(file.path().string()));
      for (std::string line; std::getline(text, line);) {
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
          fields[line.substr(0, colon)] = trimmed(line.substr(colon + 1));
        }
      }
      add("node_ethtool_info",
          {{"bus_info", fields["bus-info"]},
           {"device", name.substr(11)},
           {"driver", fields["driver"]},
           {"expansion_rom_version", fields["expansion-rom-version"]},
           {"firmware_version", fields["firmware-version"]},
           {"version", fields["version"]}},
          1.0);
    } else if (name == "rdma_link_show") {
      // What a textfile-collector script exports from `rdma link show` (docs/prometheus.md).
      std::istringstream text(t::read_text(file.path().string()));
      std::smatch m;
      for (std::string line; std::getline(text, line);) {
        if (std::regex_search(line, m, std::regex(R"(^link (\S+)/(\d+) .*netdev (\S+))"))) {
          add("netdoctor_rdma_link_info",
              {{"device", m[1].str()}, {"netdev", m[3].str()}, {"port", m[2].str()}}, 1.0);
        }
      }
    }
  }
}

std::string openmetrics(const Exposition& exposition) {
  std::string out;
  for (const auto& [metric, series] : exposition) {
    for (const auto& [label_text, points] : series) {
      for (const auto& point : points) {
        out += fmt::format("{}{} {:.17g} {:.3f}\n", metric, label_text, point.value, point.time);
      }
    }
  }
  return out + "# EOF\n";
}

bool wait_ready(const std::string& url, std::chrono::seconds timeout) {
  auto client = make_curl_http_client();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    HttpRequest request;
    request.url = url + "/-/ready";
    request.timeout = std::chrono::seconds(2);
    auto outcome = client->perform({request});
    if (outcome[0].ok() && outcome[0]->status == 200) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

TEST(PrometheusServerTest, DiagnosesPfcStormFromNodeExporterSeries) {
  if (!t::program_exists("prometheus") || !t::program_exists("promtool")) {
    GTEST_SKIP() << "prometheus/promtool not installed (Debian package prometheus; scripts/setup)";
  }
  const fs::path dir = t::make_temp_dir("prometheus");
  const auto sim =
      t::run_argv({t::netdoctor_binary(), "sim", "--hosts", "8", "--nics", "4", "--fault",
                   "pfc-storm", "--seed", "11", "--out", (dir / "bundle").string()});
  ASSERT_EQ(sim.status, 0) << sim.output;
  const auto expected =
      nlohmann::json::parse(t::read_text((dir / "bundle.expected.json").string()));

  // Shift the capture times to the last minutes, so that they sit inside the server's retention
  // and the query window arithmetic below is plain.
  double first_max = 0.0;
  double second_min = 1e300;
  double second_max = 0.0;
  std::map<std::string, std::vector<std::pair<fs::path, double>>> samples;
  for (const auto& host : fs::directory_iterator(dir / "bundle/hosts")) {
    std::vector<fs::path> dirs;
    for (const auto& sample : fs::directory_iterator(host.path())) {
      dirs.push_back(sample.path());
    }
    std::sort(dirs.begin(), dirs.end());
    ASSERT_EQ(dirs.size(), 2u);
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      const double at = std::stod(t::read_text((dirs[i] / "captured_at").string()));
      samples[host.path().filename().string()].emplace_back(dirs[i], at);
      if (i == 0) {
        first_max = std::max(first_max, at);
      } else {
        second_min = std::min(second_min, at);
        second_max = std::max(second_max, at);
      }
    }
  }
  ASSERT_LT(first_max, second_min);
  const double now = static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  const double shift = std::floor(now - 600.0 - second_max);
  Exposition exposition;
  for (const auto& [host, host_samples] : samples) {
    for (const auto& [sample_dir, at] : host_samples) {
      export_sample(sample_dir, host, at + shift, exposition);
    }
  }
  t::write_file((dir / "node.om").string(), openmetrics(exposition));
  const auto backfill = t::run_argv({"promtool", "tsdb", "create-blocks-from", "openmetrics",
                                     (dir / "node.om").string(), (dir / "tsdb").string()});
  ASSERT_EQ(backfill.status, 0) << backfill.output;

  t::write_file((dir / "prometheus.yml").string(), "global:\n  scrape_interval: 15s\n");
  const int port = netdoctor::testing::unused_loopback_port();
  const std::string url = fmt::format("http://127.0.0.1:{}", port);
  auto server = t::ChildProcess::start(
      {"prometheus", "--config.file=" + (dir / "prometheus.yml").string(),
       "--storage.tsdb.path=" + (dir / "tsdb").string(), "--storage.tsdb.retention.time=10y",
       fmt::format("--web.listen-address=127.0.0.1:{}", port)},
      (dir / "prometheus.log").string());
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(wait_ready(url, std::chrono::seconds(90)))
      << "prometheus did not become ready; log: "
      << t::read_text((dir / "prometheus.log").string());

  // Two samples per host: the window starts after every first capture and ends after every
  // second one.
  const double start = first_max + shift + 0.5;
  const double at = second_max + shift + 0.5;
  ASSERT_LT(start, second_min + shift);
  const auto result = t::run_netdoctor(
      {"diagnose", "--prometheus", url, "--at", fmt::format("{:.3f}", at), "--window",
       fmt::format("{:.3f}s", at - start), "--symptom", expected.at("symptom").get<std::string>(),
       "--format", "json", "--no-record", "--save-bundle", (dir / "from-prometheus").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto diagnosis = nlohmann::json::parse(result.out);
  ASSERT_FALSE(diagnosis.at("causes").empty()) << result.out;
  const auto& top = diagnosis.at("causes").at(0);
  EXPECT_EQ(top.at("id"), expected.at("cause")) << result.out;
  bool culprit = false;
  for (const auto& entity : top.at("entities")) {
    for (const auto& candidate : expected.at("culprits_any")) {
      culprit = culprit || entity == candidate;
    }
  }
  EXPECT_TRUE(culprit) << "entities " << top.at("entities").dump() << " name none of "
                       << expected.at("culprits_any").dump();
  // The bundle read from Prometheus has both samples of every host.
  const fs::path saved = dir / "from-prometheus/hosts" / samples.begin()->first;
  EXPECT_TRUE(fs::exists(saved / "001/captured_at"));
  EXPECT_TRUE(fs::exists(saved / "001/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data"));
  EXPECT_FALSE(fs::exists(saved / "002"));
}

TEST(PrometheusServerTest, AnUnreachableServerIsAFailureNamingIt) {
  const std::string url =
      fmt::format("http://127.0.0.1:{}", netdoctor::testing::unused_loopback_port());
  const auto result = t::run_netdoctor({"diagnose", "--prometheus", url, "--symptom", "slowdown",
                                        "--no-record", "--prometheus-timeout", "2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find(url), std::string::npos) << result.err;
}

TEST(PrometheusServerTest, BadOptionsAreUsageErrors) {
  auto result = t::run_netdoctor({"diagnose", "--prometheus", "http://127.0.0.1:1", "--window",
                                  "five minutes", "--no-record"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--window"), std::string::npos) << result.err;
  result = t::run_netdoctor(
      {"diagnose", "--prometheus", "http://127.0.0.1:1", "--bundle", "x", "--no-record"});
  EXPECT_EQ(result.exit_code, 2);
  result = t::run_netdoctor({"diagnose", "--no-record"});
  EXPECT_EQ(result.exit_code, 2);
}

}  // namespace
}  // namespace netdoctor::remote
