// The incident's part of the HTML page: the change log as a timeline, one item per change with
// its verdict as the item's class and its before/after figures, every stored text escaped.
#include <gtest/gtest.h>

#include "report/html_report.h"
#include "tests/report/report_test_util.h"

namespace netdoctor::testing {
namespace {

constexpr double k_at = 1'764'662'400.0;  // 2025-12-02T08:00:00Z

store::Change change(std::int64_t id, const std::string& variable, const std::string& why) {
  store::Change c;
  c.id = id;
  c.incident_id = 7;
  c.recorded_at = k_at + 600.0 * static_cast<double>(id);
  c.entity = "port:leaf2/Ethernet28";
  c.variable = variable;
  c.from = "150KB";
  c.to = "50KB";
  c.why = why;
  return c;
}

store::PostmortemData incident_with_two_changes() {
  store::PostmortemData data;
  data.incident.id = 7;
  data.incident.opened_at = k_at;
  data.incident.symptom = "slowdown";
  data.incident.scope = "bundle pfc-storm.tar.gz";

  store::Change first =
      change(1, "ecn_min_threshold", "senders should back off <script>alert(1)</script>");
  first.verified_at = k_at + 900.0;
  first.verdict = store::ChangeVerdict::Improved;
  first.verify_source = "bundle after.tar.gz";
  first.figures.push_back(
      {"pfc-pause/pfc-storm-origin nic:node01/mlx5_0", "frames/s", 41234.5, 12.25, true});
  first.figures.push_back({"perftest ib_write_bw", "Gb/s", 120.5, 388.75, false});

  store::Change second = change(2, "pfc_priorities \"3,4\" & <b>", "");
  second.verified_at = k_at + 1500.0;
  second.verdict = store::ChangeVerdict::NoEffect;
  second.figures.push_back({"cnp rate", "CNPs/s", 310.0, std::nullopt, true});
  second.rolled_back_at = k_at + 1800.0;

  data.changes = {first, second};
  return data;
}

// The text of the first element `open ... </close>` after `from`.
std::string element(const std::string& html, const std::string& open, const std::string& close,
                    std::size_t from = 0) {
  const auto start = html.find(open, from);
  if (start == std::string::npos) {
    return {};
  }
  const auto end = html.find(close, start);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(HtmlIncident, TheChangeLogIsATimelineWithEachChangesFigures) {
  const store::PostmortemData data = incident_with_two_changes();
  report::HtmlReport page;
  page.diagnosis = {{"symptom", "slowdown"}, {"verdict", "root-cause-found"}};
  page.incident = &data;
  const std::string html = report::render_html(page);

  const std::string timeline = element(html, "<ol class=\"timeline\">", "</ol>");
  ASSERT_FALSE(timeline.empty()) << html.substr(0, 400);
  EXPECT_EQ(count_of(timeline, "<li "), data.changes.size());
  EXPECT_EQ(count_of(timeline, "</li>"), data.changes.size());

  const std::string first = element(timeline, "<li ", "</li>");
  const std::string second = element(timeline, "<li ", "</li>", timeline.find("</li>"));
  EXPECT_TRUE(has(first, "class=\"improved\"")) << first;
  EXPECT_TRUE(has(first, "data-change=\"1\""));
  EXPECT_TRUE(has(second, "class=\"no-effect\"")) << second;
  EXPECT_TRUE(has(second, "data-change=\"2\""));
  // Oldest first, each with its own figures: before and after, unit, which way is better.
  EXPECT_TRUE(has(first, "ecn_min_threshold"));
  EXPECT_TRUE(has(first, "<td>41234.5</td><td>12.25</td><td>frames/s</td><td>lower</td>")) << first;
  EXPECT_TRUE(has(first, "<td>120.5</td><td>388.75</td><td>Gb/s</td><td>higher</td>")) << first;
  EXPECT_FALSE(has(first, "cnp rate"));
  EXPECT_TRUE(has(second, "cnp rate"));
  EXPECT_TRUE(has(second, "<td>310</td><td>- (no longer found)</td>")) << second;
  EXPECT_TRUE(has(second, "Rolled back")) << second;
  EXPECT_FALSE(has(first, "Rolled back"));
  EXPECT_TRUE(has(first, "150KB") && has(first, "50KB"));
  EXPECT_TRUE(has(first, "2025-12-02T08:10:00Z")) << first;  // recorded 600 s after opening

  // Stored text reads as text.
  EXPECT_FALSE(has(html, "<script>alert(1)"));
  EXPECT_TRUE(has(first, "&lt;script&gt;alert(1)&lt;/script&gt;")) << first;
  EXPECT_FALSE(has(html, "<b>"));
  EXPECT_TRUE(has(second, "pfc_priorities &quot;3,4&quot; &amp; &lt;b&gt;")) << second;
  EXPECT_EQ(count_of(html, "</script"), count_of(html, "<script"));

  EXPECT_TRUE(has(html, "<section id=\"incident\">"));
  EXPECT_TRUE(has(html, "Incident 7"));
}

TEST(HtmlIncident, AnIncidentWithoutChangesSaysSo) {
  store::PostmortemData data = incident_with_two_changes();
  data.changes.clear();
  report::HtmlReport page;
  page.diagnosis = {{"symptom", "slowdown"}, {"verdict", "inconclusive"}};
  page.incident = &data;
  const std::string html = report::render_html(page);
  EXPECT_FALSE(has(html, "class=\"timeline\""));
  EXPECT_TRUE(has(html, "No change was recorded."));
}

TEST(HtmlIncident, AnOpenChangeIsMarkedOpen) {
  store::PostmortemData data = incident_with_two_changes();
  data.changes.push_back(change(3, "mtu", "jumbo"));
  const std::string html = report::render_incident_sections(data);
  const std::string timeline = element(html, "<ol class=\"timeline\">", "</ol>");
  EXPECT_EQ(count_of(timeline, "<li "), 3u);
  EXPECT_TRUE(has(timeline, "<li class=\"open\" data-change=\"3\"")) << timeline;
}

}  // namespace
}  // namespace netdoctor::testing
