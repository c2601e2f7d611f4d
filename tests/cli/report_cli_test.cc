// The HTML report and the fabric map through the real binary: `diagnose --format html` of the
// PFC storm example draws the map with the culprit outlined; `incident export` writes the page
// with the change timeline (html), or the Markdown with the map as an SVG file beside it (md);
// an incident whose stored map is damaged still exports, saying the map is unreadable.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "store/database.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::read_text;
using netdoctor::testing::source_dir;

// The real binary, no shell; the store is only ever the one named by --db.
netdoctor::testing::RunOutput netdoctor(const std::vector<std::string>& args) {
  return netdoctor::testing::run_netdoctor(args, netdoctor::testing::RunOptions{});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string example(const std::string& name) {
  return source_dir() + "/examples/" + name + ".tar.gz";
}

// The example's expected culprits (any of them may lead).
std::vector<std::string> storm_culprits() {
  const auto expected =
      nlohmann::json::parse(read_text(source_dir() + "/examples/pfc-storm.expected.json"));
  return expected.at("culprits_any").get<std::vector<std::string>>();
}

// The class attribute of the cell rect of `entity`, "" when there is none.
std::string cell_class(const std::string& page, const std::string& entity) {
  const std::regex rect("<rect class=\"([^\"]*)\"[^>]*data-entity=\"" + entity + "\"");
  std::smatch match;
  return std::regex_search(page, match, rect) ? match[1].str() : std::string();
}

// Diagnoses the storm example into a fresh store; returns the store and the incident id.
std::pair<std::string, std::string> recorded_storm(const std::string& tag) {
  const std::string db = make_temp_dir(tag) + "/nd.db";
  netdoctor::testing::RunOutput run =
      netdoctor({"diagnose", "--symptom", "slowdown", "--bundle", example("pfc-storm"), "--db", db,
                 "--format", "json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::smatch match;
  const std::regex recorded("recorded as incident (\\d+)");
  EXPECT_TRUE(std::regex_search(run.err, match, recorded)) << run.err;
  return {db, match.size() > 1 ? match[1].str() : "0"};
}

TEST(ReportCli, DiagnoseHtmlDrawsTheMapWithTheCulprit) {
  const std::string db = make_temp_dir("report-cli-html") + "/nd.db";
  netdoctor::testing::RunOutput run =
      netdoctor({"diagnose", "--symptom", "slowdown", "--bundle", example("pfc-storm"), "--format",
                 "html", "--db", db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string& page = run.out;
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(has(page, "id=\"fabric-map\""));
  EXPECT_TRUE(has(page, "default-src 'none'"));
  EXPECT_FALSE(has(run.err, "no fabric map")) << run.err;
  std::size_t outlined = 0;
  for (const auto& culprit : storm_culprits()) {
    const std::string classes = cell_class(page, culprit);
    if (!classes.empty()) {
      EXPECT_TRUE(has(classes, "culprit")) << culprit << ": " << classes;
      ++outlined;
    }
  }
  EXPECT_GE(outlined, 1u) << "no culprit of the example is a cell";
  // The NICs nobody blamed are not outlined.
  EXPECT_TRUE(has(page, "<rect class=\"cell nic\""));
}

TEST(ReportCli, IncidentExportHtmlHasTheMapAndTheChangeTimeline) {
  const auto [db, incident] = recorded_storm("report-cli-export-html");
  netdoctor::testing::RunOutput change =
      netdoctor({"change", "record", "--db", db, "--incident", incident, "--entity",
                 "port:leaf2/Ethernet16", "--var", "pfc_watchdog", "--from", "off", "--to", "on",
                 "--why", "stop the storm <at> its origin"});
  ASSERT_EQ(change.exit_code, 0) << change.err;
  netdoctor::testing::RunOutput verify =
      netdoctor({"change", "verify", "1", "--db", db, "--bundle", example("healthy")});
  ASSERT_EQ(verify.exit_code, 0) << verify.err;

  const std::string file = make_temp_dir("report-cli-export-html-out") + "/incident.html";
  netdoctor::testing::RunOutput exported =
      netdoctor({"incident", "export", incident, "--db", db, "--format", "html", "-o", file});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_TRUE(has(exported.out, file)) << exported.out;
  const std::string page = read_text(file);
  EXPECT_TRUE(has(page, "id=\"fabric-map\""));
  EXPECT_TRUE(has(page, "Incident " + incident));
  const auto start = page.find("<ol class=\"timeline\">");
  ASSERT_NE(start, std::string::npos);
  const std::string timeline = page.substr(start, page.find("</ol>", start) - start);
  EXPECT_TRUE(has(timeline, "data-change=\"1\"")) << timeline;
  EXPECT_TRUE(has(timeline, "pfc_watchdog"));
  EXPECT_TRUE(has(timeline, "stop the storm &lt;at&gt; its origin")) << timeline;
  EXPECT_TRUE(has(timeline, "class=\"figures\"")) << timeline;  // verified: before and after
  bool outlined = false;
  for (const auto& culprit : storm_culprits()) {
    outlined = outlined || has(cell_class(page, culprit), "culprit");
  }
  EXPECT_TRUE(outlined);
}

TEST(ReportCli, IncidentExportMarkdownWritesTheMapBesideIt) {
  const auto [db, incident] = recorded_storm("report-cli-export-md");
  const std::string dir = make_temp_dir("report-cli-export-md-out") + "/post mortems";
  std::filesystem::create_directories(dir);
  netdoctor::testing::RunOutput exported = netdoctor(
      {"incident", "export", incident, "--db", db, "--format", "md", "-o", dir + "/pm.md"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string svg_path = dir + "/pm.fabric-map.svg";
  ASSERT_TRUE(std::filesystem::exists(svg_path)) << exported.out;
  EXPECT_TRUE(has(exported.out, svg_path)) << exported.out;
  const std::string svg = read_text(svg_path);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_TRUE(has(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(has(svg, "</svg>"));
  EXPECT_TRUE(has(svg, "<style>"));  // standalone: it styles itself
  EXPECT_TRUE(has(svg, "class=\"cell nic"));
  const std::string md = read_text(dir + "/pm.md");
  EXPECT_TRUE(has(md, "## Fabric map")) << md;
  EXPECT_TRUE(has(md, "](pm.fabric-map.svg)")) << md;
}

TEST(ReportCli, IncidentExportMarkdownToStdoutSaysHowToGetTheMap) {
  const auto [db, incident] = recorded_storm("report-cli-export-stdout");
  netdoctor::testing::RunOutput exported =
      netdoctor({"incident", "export", incident, "--db", db, "--format", "md"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_TRUE(has(exported.out, "## Fabric map")) << exported.out;
  EXPECT_TRUE(has(exported.out, "-o FILE.md")) << exported.out;
  EXPECT_FALSE(has(exported.out, "![Fabric map")) << "no link to a file that was not written";
}

// Replaces every stored map of the store with `text`.
void damage_maps(const std::string& db_path, const std::string& text) {
  auto db = store::Database::open(db_path);
  ASSERT_TRUE(db.ok()) << db.error().describe();
  auto stmt = db->prepare("UPDATE diagnosis_maps SET json = ?");
  ASSERT_TRUE(stmt.ok());
  stmt->bind(1, std::string_view(text));
  ASSERT_TRUE(stmt->run().ok());
  auto count = db->prepare("SELECT COUNT(*) FROM diagnosis_maps");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->step());
  ASSERT_GE(count->int64(0), 1);
}

TEST(ReportCli, ADamagedStoredMapStillExportsSayingItIsUnreadable) {
  const std::vector<std::string> damages = {
      "\x01garbage{not json",
      R"({"format":"netdoctor-map","version":"1"})",
      R"({"format":"netdoctor-map","version":1,"fabric":"roce","title":"t","metrics":[],)"
      R"("panels":[{"title":"p","role":"leaf","ports":[],"cells":[{"entity":"e","kind":"nic",)"
      R"("label":"l","values":[],"culprit":"yes"}]}]})",
  };
  const auto [db, incident] = recorded_storm("report-cli-damaged");
  const std::string out = make_temp_dir("report-cli-damaged-out");
  for (std::size_t i = 0; i < damages.size(); ++i) {
    damage_maps(db, damages[i]);
    netdoctor::testing::RunOutput html =
        netdoctor({"incident", "export", incident, "--db", db, "--format", "html"});
    EXPECT_EQ(html.exit_code, 0) << i << ": " << html.err;
    EXPECT_TRUE(has(html.out, "unreadable")) << i << ": " << html.out.substr(0, 300);
    EXPECT_FALSE(has(html.out, "id=\"fabric-map\"")) << i;
    EXPECT_TRUE(has(html.out, "Incident " + incident)) << i;

    const std::string md_path = out + "/pm" + std::to_string(i) + ".md";
    netdoctor::testing::RunOutput md =
        netdoctor({"incident", "export", incident, "--db", db, "--format", "md", "-o", md_path});
    EXPECT_EQ(md.exit_code, 0) << i << ": " << md.err;
    EXPECT_TRUE(has(read_text(md_path), "unreadable")) << i;
    EXPECT_FALSE(std::filesystem::exists(out + "/pm" + std::to_string(i) + ".fabric-map.svg"));
  }
}

}  // namespace
// A host directory whose name is not UTF-8 (a bundle written on another machine, or damaged):
// the diagnosis is still recorded with its map and exported, the bytes replaced, never a failure.
TEST(ReportCli, AHostNameThatIsNotUtf8IsRecordedAndExported) {
  const std::string dir = make_temp_dir("report-cli-bad-utf8");
  const std::string bundle = dir + "/bundle";
  auto sim =
      netdoctor({"sim", "--hosts", "4", "--nics", "2", "--fault", "pfc-storm", "--out", bundle});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const std::filesystem::path hosts = std::filesystem::path(bundle) / "hosts";
  const auto first = std::filesystem::directory_iterator(hosts)->path();
  std::filesystem::rename(first, first.string() + "\xff\xfe");
  const std::string db = dir + "/nd.db";
  auto diagnosed = netdoctor({"diagnose", "--symptom", "slowdown", "--bundle", bundle, "--db", db});
  ASSERT_EQ(diagnosed.exit_code, 0) << diagnosed.err;
  EXPECT_TRUE(has(diagnosed.err, "recorded as incident 1")) << diagnosed.err;
  EXPECT_FALSE(has(diagnosed.err, "no fabric map")) << diagnosed.err;
  auto json = netdoctor(
      {"diagnose", "--symptom", "slowdown", "--bundle", bundle, "--format", "json", "--no-record"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded());
  const std::string page = dir + "/incident.html";
  auto exported =
      netdoctor({"incident", "export", "1", "--db", db, "--format", "html", "-o", page});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string html = read_text(page);
  EXPECT_TRUE(has(html, "id=\"fabric-map\"")) << "the stored map was read back";
  EXPECT_FALSE(has(html, "No map:"));
  // The map was stored as JSON: the name's bad bytes came back as U+FFFD.
  EXPECT_TRUE(has(html, "\xef\xbf\xbd"));
}

}  // namespace netdoctor::cli
