// What every HTML report must show once a real browser has loaded it from disk: the script ran
// to its end, the map has a cell per NIC, the culprits are outlined and carry their figures,
// "#metric=<id>" recolours the map, the console stayed silent and nothing left the page.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tests/browser/dom_scan.h"

namespace netdoctor::testing {

struct ReportUnderTest {
  std::string name;       // the screenshot's name: <build>/test-artifacts/browser/<name>.png
  std::string html_path;  // the report as netdoctor wrote it
  std::size_t nics = 0;   // the fabric's NIC count: one "cell nic" each
  // The scenario's expected culprits (culprits_any): the map must outline one of them, and
  // every entity the page's causes name.
  std::vector<std::string> culprits;
  int timeout_s = 120;  // per browser run
};

// Loads the report twice (as written, with a screenshot and a net log; then on another metric)
// and checks both DOMs. Returns the elements of the first DOM for the caller's own checks
// (empty when the browser did not run; the failure is recorded).
std::vector<DomElement> check_report_in_browser(const ReportUnderTest& report);

// The elements with this id / this class token / this tag name.
const DomElement* find_id(const std::vector<DomElement>& dom, const std::string& id);
std::vector<const DomElement*> with_class(const std::vector<DomElement>& dom,
                                          std::string_view token);
std::size_t count_named(const std::vector<DomElement>& dom, const std::string& name);

// Failures for anything in the DOM that would run code other than the page's own: an <img>, a
// <script> beyond the page's two, an on* event attribute, a javascript: address.
void expect_no_injected_markup(const std::vector<DomElement>& dom);

// The names among `entities` the map has cells for: nic:, port:, netdev: (on its NIC's cell),
// host: and switch:.
std::vector<std::string> map_entities(const std::vector<std::string>& entities);

std::string artifact_dir();  // <build>/test-artifacts/browser, made if missing

}  // namespace netdoctor::testing
