// Unit tests of the remote library's pure parts: Prometheus answers and their bundle layout,
// node_exporter name mapping, time options, redaction, credentials, switch lists, eAPI mapping.
#include <gtest/gtest.h>

#include <cmath>

#include "model/loader.h"
#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"
#include "remote/credentials.h"
#include "remote/eapi_mapping.h"
#include "remote/node_exporter_names.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_bundle.h"
#include "remote/prometheus_reader.h"
#include "remote/redact.h"
#include "remote/switch_list.h"
#include "remote/time_spec.h"
#include "tests/support/test_paths.h"

namespace netdoctor::remote {
namespace {

PromSeries series(std::map<std::string, std::string> labels,
                  std::vector<std::pair<double, double>> points) {
  PromSeries s;
  s.labels = std::move(labels);
  s.points = std::move(points);
  return s;
}

TEST(PrometheusApiTest, ParsesAMatrixAnswer) {
  auto parsed = parse_query_range(R"({"status":"success","data":{"resultType":"matrix","result":[
    {"metric":{"__name__":"node_infiniband_port_data_received_bytes_total","device":"mlx5_0",
               "port":"1","instance":"n1:9100"},
     "values":[[1796215000.5,"2.2031403016e+10"],[1796215030.5,"NaN"]]}]}})");
  ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].name(), "node_infiniband_port_data_received_bytes_total");
  EXPECT_EQ((*parsed)[0].label("instance"), "n1:9100");
  ASSERT_EQ((*parsed)[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ((*parsed)[0].points[0].second, 2.2031403016e10);
  EXPECT_TRUE(std::isnan((*parsed)[0].points[1].second));
}

TEST(PrometheusApiTest, LabelsKeepTheFirstValueAndForgetWhatWasCleared) {
  PromLabels labels;
  labels.add("__name__", "ifHCOutOctets");
  labels.add("ifName", "Ethernet0");
  labels.add("ifName", "Ethernet4");  // a repeated name keeps its first value
  ASSERT_NE(labels.find("ifName"), nullptr);
  EXPECT_EQ(*labels.find("ifName"), "Ethernet0");
  EXPECT_EQ(labels.size(), 2u);
  labels.clear();  // storage kept for the next series, labels gone
  EXPECT_EQ(labels.find("ifName"), nullptr);
  EXPECT_EQ(labels.begin(), labels.end());
  labels.add("device", "mlx5_0");
  EXPECT_EQ(labels.to_map(), (std::map<std::string, std::string>{{"device", "mlx5_0"}}));
  PromLabels moved = std::move(labels);
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(labels.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from set is empty
  EXPECT_EQ(labels.begin(), labels.end());
  PromSeries one;
  one.labels = moved;
  EXPECT_EQ(one.label("device"), "mlx5_0");
  EXPECT_EQ(one.label("port"), "");
}

TEST(PrometheusBundleTest, AStateNoEnumHasIsWrittenUnnamed) {
  // A server may send any number as a state id: only a whole one the enum has names a state
  // (1e79 once overflowed the cast to an index; the fuzzer found it).
  const auto state_of = [](double id) {
    const BundleFiles files =
        prometheus_to_bundle({series({{"__name__", "node_infiniband_state_id"},
                                      {"instance", "n1:9100"},
                                      {"device", "mlx5_0"},
                                      {"port", "1"}},
                                     {{100.0, id}})});
    const auto found = files.files.find("hosts/n1/000/sys/class/infiniband/mlx5_0/ports/1/state");
    return found == files.files.end() ? std::string("(none)") : found->second;
  };
  EXPECT_EQ(state_of(4.0), "4: ACTIVE\n");
  EXPECT_EQ(state_of(4.5), "5: ?\n");  // rounded as counters are, but named by no state
  EXPECT_EQ(state_of(9.0), "9: ?\n");
  EXPECT_EQ(state_of(1e79), "18446744073709551615: ?\n");
}

TEST(PrometheusApiTest, ReportsPrometheusErrorsAndJunk) {
  auto refused = parse_query_range(
      R"({"status":"error","errorType":"bad_data","error":"exceeded maximum resolution"})");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("exceeded maximum resolution"), std::string::npos);
  EXPECT_EQ(parse_query_range("<html>proxy login</html>").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_query_range(R"({"status":"success","data":{"resultType":"vector","result":[]}})")
                .error()
                .code,
            ErrorCode::Parse);
}

TEST(PrometheusApiTest, AsksOnlyForTheNamesTheCounterTableReads) {
  const auto pattern = host_metric_pattern({"rx_prio3_pause", "rx_bytes"});
  EXPECT_NE(pattern.find("|node_ethtool_received_prio3_pause|"), std::string::npos) << pattern;
  EXPECT_NE(pattern.find("|node_ethtool_received_bytes_total|"), std::string::npos) << pattern;
  EXPECT_NE(pattern.find("node_infiniband_port_transmit_wait_total"), std::string::npos);
  EXPECT_NE(pattern.find("netdoctor_rdma_link_info"), std::string::npos);
  EXPECT_EQ(pattern.find("node_ethtool_.+"), std::string::npos) << pattern;
  EXPECT_NE(host_metric_pattern({}).find("node_ethtool_.+"), std::string::npos);
  // Of the sysfs series, the counters only where their file is wanted; state, rate, MTU and the
  // info series always (the loader reads them, not the counter table).
  const auto counters = host_metric_pattern(
      {"rx_bytes"}, [](std::string_view file) { return file == "counters/port_xmit_wait"; });
  EXPECT_NE(counters.find("node_infiniband_port_transmit_wait_total"), std::string::npos);
  EXPECT_EQ(counters.find("node_infiniband_symbol_error_total"), std::string::npos) << counters;
  EXPECT_EQ(counters.find("node_network_receive_bytes_total"), std::string::npos) << counters;
  EXPECT_EQ(counters.find("node_infiniband_np_cnp_packets_sent_total"), std::string::npos);
  for (const char* kept : {"node_infiniband_state_id", "node_infiniband_rate_bytes_per_second",
                           "node_network_mtu_bytes", "node_network_info", "node_infiniband_info"}) {
    EXPECT_NE(counters.find(kept), std::string::npos) << kept;
  }
  EXPECT_NE(pattern.find("node_infiniband_symbol_error_total"), std::string::npos);
  EXPECT_EQ(query_range_form({"up", 100.0, 400.0, 300.0}),
            "query=up&start=100.000&end=400.000&step=300.000");
}

TEST(PrometheusApiTest, ReadsWarningsOfAPartialAnswer) {
  auto answer = parse_range_answer(R"({"status":"success","warnings":["shard 2 timed out"],
    "data":{"resultType":"matrix","result":[{"metric":{"__name__":"up","instance":"a:1"},
    "values":[[1,"1"],[2,"1"]]}]}})");
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  EXPECT_EQ(answer->warnings, std::vector<std::string>{"shard 2 timed out"});
  ASSERT_EQ(answer->series.size(), 1u);
  EXPECT_EQ(answer->series[0].points.size(), 2u);
  EXPECT_EQ(parse_range_answer(R"({"status":"success","data":{"resultType":"matrix",
    "result":[{"metric":{}}]}})")
                .error()
                .code,
            ErrorCode::Parse);
  EXPECT_EQ(parse_range_answer(R"({"status":"success","data":{"resultType":"matrix",
    "result":[{"metric":{},"values":[[1,2]]}]}})")
                .error()
                .code,
            ErrorCode::Parse);
  EXPECT_EQ(parse_range_answer(R"({"status":"success","data":{"resultType":"matrix","result":[)")
                .error()
                .code,
            ErrorCode::Parse);
}

TEST(PrometheusBundleTest, UndoesNodeExporterEthtoolNames) {
  EXPECT_EQ(ethtool_stat_from_metric("node_ethtool_received_prio3_pause"), "rx_prio3_pause");
  EXPECT_EQ(ethtool_stat_from_metric("node_ethtool_transmitted_pause_ctrl_phy"),
            "tx_pause_ctrl_phy");
  EXPECT_EQ(ethtool_stat_from_metric("node_ethtool_received_bytes_total"), "rx_bytes");
  EXPECT_EQ(ethtool_stat_from_metric("node_ethtool_received_vport_rdma_unicast_bytes"),
            "rx_vport_rdma_unicast_bytes");
  EXPECT_EQ(ethtool_stat_from_metric("node_ethtool_info"), std::nullopt);
  EXPECT_EQ(ethtool_stat_from_metric("node_network_up"), std::nullopt);
  // And back: what netdoctor asks Prometheus for.
  for (const char* stat :
       {"rx_prio3_pause", "tx_pause_ctrl_phy", "rx_bytes", "rx_vport_rdma_unicast_bytes"}) {
    const auto metric = ethtool_metric_from_stat(stat);
    ASSERT_TRUE(metric.has_value()) << stat;
    EXPECT_EQ(ethtool_stat_from_metric(*metric), stat);
  }
  EXPECT_EQ(ethtool_metric_from_stat("rx_prio3_pause"), "node_ethtool_received_prio3_pause");
  EXPECT_EQ(ethtool_metric_from_stat("Rx-Pause"), std::nullopt);  // sanitised by the collector
}

TEST(PrometheusBundleTest, NamesHostsFromTheInstanceLabel) {
  EXPECT_EQ(host_from_instance("gpu-a001:9100"), "gpu-a001");
  EXPECT_EQ(host_from_instance("gpu-a001.example.com"), "gpu-a001.example.com");
  EXPECT_EQ(host_from_instance("[fe80::1]:9100"), "fe80__1");
  EXPECT_EQ(host_from_instance(""), "");
}

TEST(PrometheusBundleTest, LaysOutSamplesTheLoaderReads) {
  const std::map<std::string, std::string> port = {
      {"instance", "n1:9100"}, {"device", "mlx5_0"}, {"port", "1"}};
  auto with = [&](std::string name) {
    auto labels = port;
    labels["__name__"] = std::move(name);
    return labels;
  };
  std::vector<PromSeries> input = {
      series(with("node_infiniband_port_data_received_bytes_total"),
             {{100.0, 4000.0}, {130.0, 8000.0}}),
      series(with("node_infiniband_np_cnp_packets_sent_total"), {{100.0, 5.0}, {130.0, 9.0}}),
      series(with("node_infiniband_state_id"), {{100.0, 4.0}, {130.0, 4.0}}),
      series(with("node_infiniband_rate_bytes_per_second"), {{130.0, 2.5e10}}),
      series({{"__name__", "node_ethtool_received_prio3_pause"},
              {"instance", "n1:9100"},
              {"device", "ens1f0np0"}},
             {{100.0, 10.0}, {130.0, 70.0}}),
      series({{"__name__", "node_ethtool_info"},
              {"instance", "n1:9100"},
              {"device", "ens1f0np0"},
              {"driver", "mlx5_core"},
              {"firmware_version", "28.41.1000 (MT_0000000838)"},
              {"bus_info", "0000:1a:00.0"},
              {"version", "24.10"}},
             {{130.0, 1.0}}),
      series({{"__name__", "netdoctor_rdma_link_info"},
              {"instance", "n1:9100"},
              {"device", "mlx5_0"},
              {"port", "1"},
              {"netdev", "ens1f0np0"}},
             {{100.0, 1.0}, {130.0, 1.0}}),
      series({{"__name__", "node_network_receive_bytes_total"},
              {"instance", "n1:9100"},
              {"device", "ens1f0np0"}},
             {{100.0, 1e6}, {130.0, 2e6}}),
  };
  const BundleFiles files = prometheus_to_bundle(input);
  EXPECT_TRUE(files.problems.empty()) << files.problems.front().describe();
  EXPECT_EQ(files.files.at("hosts/n1/000/captured_at"), "100.000\n");
  EXPECT_EQ(
      files.files.at("hosts/n1/001/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data"),
      "2000\n");  // node_exporter's x4 undone: counters.tsv applies it
  EXPECT_EQ(files.files.at("hosts/n1/001/sys/class/infiniband/mlx5_0/ports/1/state"),
            "4: ACTIVE\n");
  EXPECT_EQ(files.files.at("hosts/n1/001/sys/class/infiniband/mlx5_0/ports/1/rate"),
            "200 Gb/sec\n");
  EXPECT_EQ(files.files.at("hosts/n1/001/sos_commands/ethtool/ethtool_-S_ens1f0np0"),
            "NIC statistics:\n     rx_prio3_pause: 70\n");
  EXPECT_EQ(files.files.at("hosts/n1/000/sos_commands/infiniband/rdma_link_show"),
            "link mlx5_0/1 state ACTIVE netdev ens1f0np0\n");

  // The same model a capture gives: one NIC with its ethtool, sysfs and netdev counters.
  auto bundle = open_bundle_files(files, "prometheus test");
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  ASSERT_EQ(fabric->hosts.size(), 1u);
  ASSERT_EQ(fabric->hosts[0].nics.size(), 1u);
  const auto& nic = fabric->hosts[0].nics[0];
  EXPECT_EQ(nic.device, "mlx5_0");
  EXPECT_EQ(nic.netdev, "ens1f0np0");
  EXPECT_EQ(nic.vendor, "mlx5");
  EXPECT_EQ(nic.firmware, "28.41.1000");
  ASSERT_EQ(nic.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(nic.samples[1].values.at(model::MetricKey{"ib_rx_bytes", -1}), 8000.0);
  EXPECT_DOUBLE_EQ(nic.samples[1].values.at(model::MetricKey{"pfc_rx_pause_frames", 3}), 70.0);
  EXPECT_DOUBLE_EQ(nic.samples[1].values.at(model::MetricKey{"cnp_sent", -1}), 9.0);
  EXPECT_DOUBLE_EQ(nic.samples[1].values.at(model::MetricKey{"netdev_rx_bytes", -1}), 2e6);
}

TEST(PrometheusBundleTest, RefusesLabelsThatAreNotPlainNamesAndSaysWhatIsMissing) {
  std::vector<PromSeries> input = {
      series({{"__name__", "node_infiniband_symbol_error_total"},
              {"instance", "n1:9100"},
              {"device", "../../../etc"},
              {"port", "1"}},
             {{100.0, 1.0}}),
      series(
          {{"__name__", "node_infiniband_symbol_error_total"}, {"device", "mlx5_0"}, {"port", "1"}},
          {{100.0, 1.0}}),
      series({{"__name__", "node_infiniband_symbol_error_total"},
              {"instance", "n2:9100"},
              {"device", "mlx5_0"},
              {"port", "1"}},
             {{100.0, 3.0}}),
      series({{"__name__", "node_ethtool_received_prio3_pause"},
              {"instance", "n2:9100"},
              {"device", "ens1f0np0"}},
             {{100.0, 3.0}}),
  };
  const BundleFiles files = prometheus_to_bundle(input);
  for (const auto& [path, content] : files.files) {
    EXPECT_EQ(path.find(".."), std::string::npos) << path;
  }
  ASSERT_EQ(files.problems.size(), 3u);
  std::string all;
  for (const auto& problem : files.problems) {
    all += problem.describe() + "\n";
  }
  EXPECT_NE(all.find("not a plain name"), std::string::npos) << all;
  EXPECT_NE(all.find("'instance' label"), std::string::npos) << all;
  EXPECT_NE(all.find("host n2: no netdoctor_rdma_link_info"), std::string::npos) << all;
}

TEST(TimeSpecTest, ParsesDurationsAndInstants) {
  EXPECT_EQ(parse_duration("5m"), 300.0);
  EXPECT_EQ(parse_duration("1h30m"), 5400.0);
  EXPECT_EQ(parse_duration("29.75s"), 29.75);
  EXPECT_EQ(parse_duration("90"), 90.0);
  EXPECT_EQ(parse_duration("250ms"), 0.25);
  EXPECT_EQ(parse_duration("five"), std::nullopt);
  EXPECT_EQ(parse_duration("0s"), std::nullopt);
  EXPECT_EQ(parse_duration("-5m"), std::nullopt);
  EXPECT_EQ(parse_duration("5x"), std::nullopt);
  EXPECT_EQ(parse_instant("1796215000.5"), 1796215000.5);
  EXPECT_EQ(parse_instant("2026-12-02T09:02:57Z"), 1796202177.0);
  EXPECT_EQ(parse_instant("2026-12-02T09:02:57+01:00"), 1796198577.0);
  EXPECT_EQ(parse_instant("yesterday"), std::nullopt);
}

TEST(RedactTest, BlanksPasswordsAndTheirBasicTokens) {
  Redactor redactor;
  redactor.add_credentials(BasicAuth{"admin", "s3cr3t:x"});
  const std::string token = base64_encode("admin:s3cr3t:x");
  EXPECT_EQ(token, "YWRtaW46czNjcjN0Ong=");
  EXPECT_EQ(redactor.apply("got s3cr3t:x and Basic " + token + " and s3cr3t:x"),
            "got <redacted> and Basic <redacted> and <redacted>");
  EXPECT_EQ(redactor.apply("admin logged in"), "admin logged in");
  EXPECT_EQ(redact_url("https://u:p@sw1:443/command-api?token=abc"),
            "https://<redacted>@sw1:443/command-api?<query>");
  EXPECT_EQ(redact_url("http://prom:9090"), "http://prom:9090");
  EXPECT_EQ(base64_encode("a"), "YQ==");
  EXPECT_EQ(base64_encode("ab"), "YWI=");
}

TEST(CredentialsTest, ParsesUserColonPasswordWithoutQuotingIt) {
  auto auth = parse_credentials("# comment\n\n  netops:pa:ss word \n", "creds");
  ASSERT_TRUE(auth.ok());
  EXPECT_EQ(auth->user, "netops");
  EXPECT_EQ(auth->password, "pa:ss word");
  auto bad = parse_credentials("justapassword\n", "creds");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().describe().find("justapassword"), std::string::npos);
}

TEST(SwitchListTest, ParsesKindsAndRefusesBadLines) {
  auto list = parse_switch_list(
      "# name url kind\nleaf1 https://10.0.0.1/netdoctor sonic\n"
      "spine1 https://10.0.0.9/command-api eapi  # Arista\n",
      "switches.txt");
  ASSERT_TRUE(list.ok()) << list.error().describe();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[1].api, SwitchApi::Eapi);
  auto error_of = [](const char* text) {
    auto r = parse_switch_list(text, "switches.txt");
    return r.ok() ? std::string() : r.error().describe();
  };
  EXPECT_NE(error_of("leaf1 https://x junos\n").find("switches.txt:1: unknown kind"),
            std::string::npos);
  EXPECT_NE(error_of("a https://x sonic\na https://y sonic\n").find("listed twice"),
            std::string::npos);
  EXPECT_NE(error_of("../x https://x sonic\n").find("cannot name a directory"), std::string::npos);
  const std::string with_password = error_of("a https://admin:hunter2@x/ eapi\n");
  EXPECT_NE(with_password.find("credentials in the URL"), std::string::npos);
  EXPECT_EQ(with_password.find("hunter2"), std::string::npos) << with_password;
  EXPECT_NE(error_of("a ftp://x sonic\n").find("not an http(s) URL"), std::string::npos);
}

TEST(EapiMappingTest, RendersTablesTheSonicParsersRead) {
  const std::string body = netdoctor::testing::read_text(
      netdoctor::testing::source_dir() + "/tests/remote/data/eapi_runcmds_answer.json");
  auto answer = map_eapi_answer(body);
  ASSERT_TRUE(answer.ok()) << answer.error().describe();
  auto counters = parsers::parse_sonic_interfaces_counters(
      answer->sonic_outputs.at("show interfaces counters"));
  ASSERT_TRUE(counters.ok()) << answer->sonic_outputs.at("show interfaces counters");
  ASSERT_EQ(counters->interfaces.size(), 3u);
  EXPECT_EQ(counters->interfaces[0].iface, "Ethernet1");
  EXPECT_EQ(counters->interfaces[1].iface, "Ethernet2");  // natural order, not Ethernet10
  EXPECT_EQ(counters->interfaces[0].rx_ok, 101234567u + 1200u + 3u);
  EXPECT_EQ(counters->interfaces[0].tx_err, 1u);
  EXPECT_EQ(counters->interfaces[0].rx_drp, 17u);
  EXPECT_FALSE(counters->interfaces[0].rx_ovr.has_value());
  EXPECT_EQ(counters->interfaces[2].state, "X");
  auto status =
      parsers::parse_sonic_interfaces_status(answer->sonic_outputs.at("show interfaces status"));
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->interfaces[0].speed_mbps, 400000u);
  EXPECT_EQ(status->interfaces[1].oper, "down");
  EXPECT_EQ(status->interfaces[2].admin, "down");
  auto lldp = parsers::parse_sonic_lldp_table(answer->sonic_outputs.at("show lldp table"));
  ASSERT_TRUE(lldp.ok());
  ASSERT_EQ(lldp->entries.size(), 2u);
  EXPECT_EQ(lldp->entries[1].remote_device, "spine1");
  EXPECT_EQ(lldp->entries[1].remote_port_id, "Ethernet7/1");
}

TEST(EapiMappingTest, ReportsJsonRpcErrorsAndShortAnswers) {
  auto error = map_eapi_answer(
      R"({"jsonrpc":"2.0","id":"netdoctor","error":{"code":1002,"message":"CLI command 4 of 4 'show lldp neighbors' failed: invalid command"}})");
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.error().message.find("1002"), std::string::npos);
  EXPECT_EQ(map_eapi_answer(R"({"jsonrpc":"2.0","result":[{}]})").error().code, ErrorCode::Parse);
  EXPECT_EQ(map_eapi_answer("not json").error().code, ErrorCode::Parse);
}

}  // namespace
}  // namespace netdoctor::remote
