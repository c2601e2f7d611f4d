// The HTML reports in a real browser (issue 19): each report is written by the real binary (the
// 512-host one by the library the binary uses, from an in-memory fleet),
// loaded from disk by a headless Chromium and checked after its scripts ran
// (tests/browser/report_checks.h). One test per report, so each is made and loaded once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "report/fabric_map.h"
#include "report/html_report.h"
#include "tests/browser/headless_browser.h"
#include "tests/browser/report_checks.h"
#include "tests/probes/fabric_builder.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

namespace fs = std::filesystem;

// Each run of the ASan binary on a 512-host fabric takes a while; a small one is seconds.
constexpr int k_netdoctor_timeout_s = 600;

RunOptions long_run() {
  RunOptions options;
  options.timeout_s = k_netdoctor_timeout_s;
  return options;
}

// `netdoctor ARGS`, its standard output written to `path`; a failure unless it exits 0.
void netdoctor_to_file(const std::vector<std::string>& args, const std::string& path) {
  const RunOutput run = run_netdoctor(args, long_run());
  EXPECT_EQ(run.exit_code, 0) << args.front() << " " << args.at(1) << ":\n" << run.err;
  std::ofstream(path, std::ios::binary) << run.out;
}

// The HTML report of `diagnose` on the bundle, not recorded anywhere.
std::string diagnose_html(const std::string& bundle, const std::string& symptom,
                          const std::string& tag) {
  const std::string html = make_temp_dir("report-" + tag) + "/" + tag + ".html";
  netdoctor_to_file(
      {"diagnose", "--symptom", symptom, "--bundle", bundle, "--format", "html", "--no-record"},
      html);
  return html;
}

// `netdoctor sim ARGS --out <temp>/<tag>[.tar.gz]`: the bundle's path.
std::string simulate(const std::vector<std::string>& args, const std::string& tag, bool tarball) {
  const std::string out = make_temp_dir("sim-" + tag) + "/" + tag + (tarball ? ".tar.gz" : "");
  std::vector<std::string> argv = {"sim"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--out", out});
  const RunOutput run = run_netdoctor(argv, long_run());
  EXPECT_EQ(run.exit_code, 0) << "netdoctor sim: " << run.err;
  return out;
}

std::vector<std::string> strings_of(const nlohmann::json& list) {
  std::vector<std::string> out;
  for (const auto& item : list) {
    if (item.is_string()) {
      out.push_back(item.get<std::string>());
    }
  }
  return out;
}

nlohmann::json shared_expectations() {
  std::ifstream in(shared_dir() + "/scenarios/expected.json");
  return nlohmann::json::parse(in, nullptr, false);
}

std::vector<std::string> shared_scenarios() {
  std::vector<std::string> names;
  const auto expected = shared_expectations();
  if (expected.is_array()) {
    for (const auto& entry : expected) {
      names.push_back(entry.value("scenario", ""));
    }
  }
  return names;
}

class BrowserReport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (headless_chromium().empty()) {
      GTEST_SKIP() << "no headless Chromium: neither chromium-headless-shell nor chromium is on "
                      "PATH (scripts/setup installs chromium-headless-shell)";
    }
  }
};

class SharedScenarioInBrowser : public BrowserReport,
                                public ::testing::WithParamInterface<std::string> {};

TEST_P(SharedScenarioInBrowser, ReportRunsAndOutlinesTheCulprits) {
  nlohmann::json entry;
  for (const auto& candidate : shared_expectations()) {
    if (candidate.value("scenario", "") == GetParam()) {
      entry = candidate;
    }
  }
  ASSERT_TRUE(entry.is_object()) << GetParam();
  const std::string bundle = shared_dir() + "/scenarios/" + entry.value("bundle", "");
  ReportUnderTest report;
  report.name = "scenario-" + GetParam();
  report.html_path = diagnose_html(bundle, entry.value("symptom", ""), report.name);
  report.nics = entry.value("hosts", 0u) * entry.value("nics_per_host", 0u);
  report.culprits = strings_of(entry.value("culprits_any", nlohmann::json::array()));
  check_report_in_browser(report);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, SharedScenarioInBrowser,
                         ::testing::ValuesIn(shared_scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             c = std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
                           }
                           return name;
                         });

TEST_F(BrowserReport, InfinibandFabric) {
  const std::string bundle = source_dir() + "/examples/ib-congestion.tar.gz";
  const auto expected = nlohmann::json::parse(
      read_text(source_dir() + "/examples/ib-congestion.expected.json"), nullptr, false);
  ASSERT_FALSE(expected.is_discarded());
  ASSERT_EQ(expected.value("fabric", ""), "ib");
  ReportUnderTest report;
  report.name = "ib-congestion";
  report.html_path = diagnose_html(bundle, expected.value("symptom", ""), report.name);
  report.nics = expected.value("hosts", 0u) * expected.value("nics_per_host", 0u);
  report.culprits = strings_of(expected.value("culprits_any", nlohmann::json::array()));
  ASSERT_FALSE(map_entities(report.culprits).empty());
  check_report_in_browser(report);
}

// The one large fabric: 512 hosts x 8 NICs (4,096 NIC cells) behind 32 leaves and 4 spines,
// with a PFC storm. Built in memory (tests/probes/fabric_builder.h) and diagnosed by the engine,
// then mapped and rendered as `diagnose --format html` does: under ASan the simulator's
// 800,000-file bundle alone takes minutes, and the command-line path is what every shared
// scenario above goes through. bench/report_bench.sh renders the simulator's 512-host bundle.
TEST_F(BrowserReport, FabricOf512HostsWith8NicsEach) {
  FleetSpec spec;
  spec.hosts = 512;
  spec.nics_per_host = 8;
  spec.leaves = 32;
  spec.uplinks_per_leaf = 16;
  model::Fabric fabric = healthy_fleet(spec);
  inject_pfc_storm(fabric);
  engine::DiagnoseOptions options;
  options.symptom = "slowdown";
  auto diagnosis = engine::diagnose_fabric(fabric, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  ASSERT_FALSE(diagnosis->causes.empty());
  EXPECT_EQ(diagnosis->causes.front().id, "pfc-storm");
  auto map = report::map_for_diagnosis(fabric, *diagnosis, options);
  ASSERT_TRUE(map.ok()) << map.error().describe();
  report::HtmlReport page;
  page.diagnosis = engine::to_json(*diagnosis);
  page.map = std::move(*map);
  page.source = "in-memory fleet of 512 hosts";
  ReportUnderTest report;
  report.name = "fleet-512x8-pfc-storm";
  report.html_path = make_temp_dir("report-fleet512") + "/fleet512.html";
  std::ofstream(report.html_path, std::ios::binary) << report::render_html(page);
  report.nics = 512 * 8;
  report.culprits = {nic_at(fabric, 0, 0).nic_entity()};
  report.timeout_s = 300;
  check_report_in_browser(report);
}

// diagnose (records the incident) -> change record -> change verify on a healthy capture ->
// incident export --format html: the timeline shows the change with its before/after figures.
TEST_F(BrowserReport, IncidentExportWithAVerifiedChange) {
  const std::vector<std::string> fabric = {"--hosts", "8",  "--nics", "2", "--hosts-per-leaf", "4",
                                           "--seed",  "17", "--fault"};
  auto with_fault = [&](const char* fault) {
    std::vector<std::string> args = fabric;
    args.push_back(fault);
    return args;
  };
  const std::string storm = simulate(with_fault("pfc-storm"), "storm", true);
  const std::string healthy = simulate(with_fault("healthy"), "healthy", true);
  const std::string dir = make_temp_dir("incident");
  const std::string db = dir + "/nd.db";
  const RunOptions options = long_run();
  const RunOutput diagnosed =
      run_netdoctor({"diagnose", "--symptom", "slowdown", "--bundle", storm, "--db", db}, options);
  ASSERT_EQ(diagnosed.exit_code, 0) << diagnosed.err;
  ASSERT_NE(diagnosed.err.find("recorded as incident 1"), std::string::npos) << diagnosed.err;
  const RunOutput recorded = run_netdoctor(
      {"change", "record", "--db", db, "--incident", "1", "--entity", "nic:node01/mlx5_0", "--var",
       "pfc_watchdog", "--from", "off", "--to", "on", "--why", "stop the storm"},
      options);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  const RunOutput verified =
      run_netdoctor({"change", "verify", "1", "--db", db, "--bundle", healthy}, options);
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  ASSERT_NE(verified.out.find("improved"), std::string::npos) << verified.out;

  ReportUnderTest report;
  report.name = "incident-verified-change";
  report.html_path = dir + "/incident-1.html";
  const RunOutput exported = run_netdoctor(
      {"incident", "export", "1", "--db", db, "--format", "html", "-o", report.html_path}, options);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  report.nics = 16;
  const auto dom = check_report_in_browser(report);
  ASSERT_FALSE(dom.empty());
  const DomElement* change = nullptr;
  for (const DomElement& element : dom) {
    change = element.get("data-change") == "1" ? &element : change;
  }
  ASSERT_NE(change, nullptr) << "no change #1 in the timeline";
  EXPECT_EQ(change->name, "li");
  EXPECT_TRUE(change->has_class("improved")) << change->get("class");
  ASSERT_EQ(with_class(dom, "figures").size(), 1u) << "no before/after table";
  // The figures' rows: figure, before, after, unit, better; before is a number.
  std::vector<std::string> cells;
  for (auto it = std::find_if(dom.begin(), dom.end(),
                              [](const DomElement& e) { return e.has_class("figures"); });
       it != dom.end() && std::next(it) != dom.end(); ++it) {
    const std::string& name = std::next(it)->name;
    if (name != "thead" && name != "tbody" && name != "tr" && name != "th" && name != "td") {
      break;
    }
    if (name == "td") {
      cells.push_back(std::next(it)->text);
    }
  }
  ASSERT_GE(cells.size(), 5u) << "the figures table has no row";
  EXPECT_EQ(cells.size() % 5, 0u);
  for (std::size_t row = 0; row + 4 < cells.size(); row += 5) {
    EXPECT_FALSE(cells[row].empty());
    EXPECT_TRUE(std::regex_match(cells[row + 1], std::regex("-?[0-9][0-9.e+-]*")))
        << cells[row + 1];
    EXPECT_FALSE(cells[row + 2].empty());
  }
  EXPECT_NE(find_id(dom, "change-log"), nullptr);
}

// Makes the first NIC of every LLDP capture under `host_dir` cabled to a port named `port`.
void rename_lldp_port(const std::string& host_dir, const std::string& port) {
  std::size_t edited = 0;
  for (const auto& entry : fs::recursive_directory_iterator(host_dir)) {
    if (entry.path().filename() != "lldpcli_show_neighbors_-f_json") {
      continue;
    }
    auto lldp = nlohmann::json::parse(read_text(entry.path().string()), nullptr, false);
    ASSERT_TRUE(lldp.contains("lldp")) << entry.path();
    auto& first = lldp["lldp"]["interface"][0];
    ASSERT_TRUE(first.is_object() && !first.empty()) << entry.path();
    first.begin().value()["port"]["id"]["value"] = port;
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << lldp.dump(2);
    ++edited;
  }
  EXPECT_GT(edited, 0u) << "no LLDP capture under " << host_dir;
}

// Names from a bundle are text: a host directory named like markup with an attribute break-out
// and terminal escapes, and an LLDP neighbour port closing the script, stay text in attributes
// and cells; the page's own two scripts are its only ones and still run. (A switch port cannot
// be renamed so: SONiC's tables are fixed-width, and '/' cannot be in a directory name.)
TEST_F(BrowserReport, HostileNamesRenderAsText) {
  const std::string bundle = simulate({"--hosts", "4", "--nics", "2", "--hosts-per-leaf", "2",
                                       "--seed", "9", "--fault", "pfc-storm"},
                                      "hostile", false);
  const std::string host =
      std::string("gpu<img src=x onerror=alert(1)>\"onmouseover=\"x") + "\x1b[31m\x1b]0;owned\x07";
  std::string first_host;
  for (const auto& entry : fs::directory_iterator(bundle + "/hosts")) {
    if (first_host.empty() || entry.path().filename().string() < first_host) {
      first_host = entry.path().filename().string();
    }
  }
  ASSERT_FALSE(first_host.empty());
  fs::rename(bundle + "/hosts/" + first_host, bundle + "/hosts/" + host);
  const std::string port = "Ethernet0</script><script>alert(2)</script>";
  rename_lldp_port(bundle + "/hosts/" + host, port);
  ReportUnderTest report;
  report.name = "hostile-names";
  report.html_path = diagnose_html(bundle, "slowdown", report.name);
  report.nics = 4 * 2;  // the simulated fleet's, whatever the names
  const auto dom = check_report_in_browser(report);
  ASSERT_FALSE(dom.empty());
  expect_no_injected_markup(dom);
  const std::string shown_host = std::string("gpu<img src=x onerror=alert(1)>\"onmouseover=\"x") +
                                 "\\x1b[31m\\x1b]0;owned\\x07";
  bool host_as_text = false;
  bool port_as_text = false;
  for (const DomElement& element : dom) {
    const std::string& entity = element.get("data-entity");
    host_as_text = host_as_text || entity == "host:" + shown_host ||
                   entity.rfind("nic:" + shown_host + "/", 0) == 0;
    port_as_text = port_as_text || element.get("data-detail").find("/" + port) != std::string::npos;
  }
  EXPECT_TRUE(host_as_text) << "the hostile host name is no cell's data-entity";
  EXPECT_TRUE(port_as_text) << "the hostile LLDP port name is in no cell's data-detail";
  const std::string page = read_text(report.html_path);
  EXPECT_EQ(page.find('\x1b'), std::string::npos) << "a raw terminal escape in the page";
  EXPECT_EQ(page.find('\x07'), std::string::npos) << "a raw BEL in the page";
}

// The checks themselves can fail: a page that fetches and throws is seen doing both.
TEST_F(BrowserReport, ChecksSeeARequestAndAConsoleError) {
  const std::string dir = make_temp_dir("control");
  const std::string html = dir + "/control.html";
  std::ofstream(html) << "<!DOCTYPE html><html><body><p id=x>x</p><script>"
                         "fetch('http://127.0.0.1:9/leak').catch(function () {});"
                         "console.error('control error'); undefined_function();"
                         "</script></body></html>\n";
  PageLoad load;
  load.net_log_path = dir + "/net-log.json";
  const LoadedPage page = load_page(html, load);
  ASSERT_TRUE(page.ran);
  const auto requests = network_urls(load.net_log_path);
  EXPECT_NE(std::find(requests.begin(), requests.end(), "http://127.0.0.1:9/leak"), requests.end())
      << "the net log does not show the page's request";
  std::string console;
  for (const auto& line : page.console) {
    console += line + "\n";
  }
  EXPECT_NE(console.find("control error"), std::string::npos) << page.log;
  EXPECT_NE(console.find("Uncaught"), std::string::npos) << page.log;
}

}  // namespace
}  // namespace netdoctor::testing
