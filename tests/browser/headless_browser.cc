#include "tests/browser/headless_browser.h"

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/command_runner.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

// "file://" + the absolute path, every byte but unreserved ones and '/' percent-encoded.
std::string file_url(const std::string& path) {
  const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  std::string url = "file://";
  constexpr const char* k_hex = "0123456789ABCDEF";
  for (char ch : absolute) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || ch == '/' || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      url += ch;
    } else {
      url += '%';
      url += k_hex[c >> 4];
      url += k_hex[c & 0xf];
    }
  }
  return url;
}

// The lines of the browser's stderr that come from the page: console messages (Chromium logs
// every level as INFO:CONSOLE) and uncaught exceptions.
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) {
      lines.push_back(line);
    }
  }
  return lines;
}

void collect_urls(const nlohmann::json& node, std::vector<std::string>& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it.key() == "url" && it.value().is_string()) {
        const std::string url = it.value().get<std::string>();
        if (url.rfind("file:", 0) != 0 && url.rfind("data:", 0) != 0) {
          out.push_back(url);
        }
      } else {
        collect_urls(it.value(), out);
      }
    }
  } else if (node.is_array()) {
    for (const auto& item : node) {
      collect_urls(item, out);
    }
  }
}

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

}  // namespace

std::string headless_chromium() {
  for (const char* name : {"chromium-headless-shell", "chromium"}) {
    if (std::string path = find_program(name); !path.empty()) {
      return path;
    }
  }
  return {};
}

LoadedPage load_page(const std::string& html_path, const PageLoad& options) {
  LoadedPage page;
  std::vector<std::string> argv = {headless_chromium(),
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--no-first-run",
                                   "--user-data-dir=" + make_temp_dir("chromium-profile"),
                                   "--enable-logging=stderr",
                                   "--v=0",
                                   "--dump-dom"};
  if (!options.screenshot_path.empty()) {
    argv.push_back("--screenshot=" + options.screenshot_path);
    argv.push_back("--window-size=1400,1600");
  }
  if (!options.net_log_path.empty()) {
    argv.push_back("--log-net-log=" + options.net_log_path);
  }
  argv.push_back(file_url(html_path) + options.fragment);
  CommandOptions run;
  run.timeout = std::chrono::seconds(options.timeout_s);
  LiveCommandRunner runner;
  auto output = runner.run(argv, run);
  if (!output.ok()) {
    ADD_FAILURE() << "cannot run " << argv.front() << " on " << argv.back() << ": "
                  << output.error().describe();
    return page;
  }
  page.log = output->err;
  page.console = console_lines(output->err);
  page.dom = std::move(output->out);
  EXPECT_EQ(output->exit_code, 0) << argv.front() << " on " << argv.back() << "\n" << page.log;
  EXPECT_FALSE(page.dom.empty()) << "no DOM dumped for " << argv.back() << "\n" << page.log;
  page.ran = output->exit_code == 0 && !page.dom.empty();
  return page;
}

std::vector<std::string> network_urls(const std::string& net_log_path) {
  std::vector<std::string> urls;
  const auto log = nlohmann::json::parse(read_text(net_log_path), nullptr, false);
  if (log.is_discarded() || !log.contains("events")) {
    ADD_FAILURE() << "the net log " << net_log_path << " is not a Chromium net log";
    return urls;
  }
  collect_urls(log["events"], urls);
  return urls;
}

void expect_screenshot(const std::string& path, unsigned width, unsigned height,
                       std::size_t min_bytes) {
  ASSERT_TRUE(std::filesystem::exists(path)) << "no screenshot written to " << path;
  const std::string png = read_text(path);
  ASSERT_GT(png.size(), 24u) << path;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << path << " is not a PNG";
  EXPECT_EQ(png.substr(12, 4), "IHDR") << path;
  EXPECT_EQ(big_endian(png, 16), width) << path;
  EXPECT_EQ(big_endian(png, 20), height) << path;
  EXPECT_GT(png.size(), min_bytes) << path << " looks blank";
}

}  // namespace netdoctor::testing
