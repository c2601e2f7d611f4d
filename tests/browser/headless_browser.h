// A real browser for the report tests: Debian's chromium-headless-shell (or chromium) run by
// argument vector through LiveCommandRunner (no shell, its process group killed at the
// timeout), a fresh profile each time, loading a page from disk and dumping its DOM after the
// page's scripts ran, with the console on stderr and optionally a screenshot and a net log.
#pragma once

#include <string>
#include <vector>

namespace netdoctor::testing {

// The headless Chromium found on PATH (chromium-headless-shell first, then chromium); empty
// when there is none.
std::string headless_chromium();

struct PageLoad {
  std::string fragment;         // appended to the file:// address: "#metric=pause-tx"
  std::string screenshot_path;  // --screenshot=<path> --window-size=1400,1600 when set
  std::string net_log_path;     // --log-net-log=<path> when set
  int timeout_s = 120;
};

struct LoadedPage {
  bool ran = false;                  // the browser ran and exited 0 (else a failure was added)
  std::string dom;                   // --dump-dom: the document after its scripts ran
  std::vector<std::string> console;  // stderr lines the page's console or an Uncaught error wrote
  std::string log;                   // the whole stderr, for failure messages
};

LoadedPage load_page(const std::string& html_path, const PageLoad& options = {});

// The "url" values of a Chromium net log (--log-net-log JSON) that are neither file: nor data:
// (a failure is added when the log cannot be read as JSON).
std::vector<std::string> network_urls(const std::string& net_log_path);

// A failure unless `path` is a PNG of width x height holding more than `min_bytes`.
void expect_screenshot(const std::string& path, unsigned width, unsigned height,
                       std::size_t min_bytes);

}  // namespace netdoctor::testing
