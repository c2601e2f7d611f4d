#include "tests/remote/prometheus_fixture.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include "remote/http_client.h"
#include "tests/remote/openmetrics_export.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

namespace fs = std::filesystem;

bool wait_ready(const std::string& url, std::chrono::seconds timeout) {
  auto client = remote::make_curl_http_client();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    remote::HttpRequest request;
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

}  // namespace

bool prometheus_installed() {
  return program_exists("prometheus") && program_exists("promtool");
}

ServedFabric serve_simulated_fabric(const std::vector<std::string>& sim_args, bool with_switches) {
  ServedFabric fabric;
  fabric.dir = make_temp_dir("prometheus");
  std::vector<std::string> argv = {netdoctor_binary(), "sim"};
  argv.insert(argv.end(), sim_args.begin(), sim_args.end());
  argv.insert(argv.end(), {"--out", (fabric.dir / "bundle").string()});
  const auto sim = run_argv(argv);
  EXPECT_EQ(sim.status, 0) << sim.output;
  if (sim.status != 0) {
    return fabric;
  }
  fabric.expected =
      nlohmann::json::parse(read_text((fabric.dir / "bundle.expected.json").string()));

  // Shift the capture times to the last minutes, inside the server's retention; the window
  // starts after every host's first capture and ends after every second one.
  const auto hosts = samples_under(fabric.dir / "bundle/hosts");
  double first_max = 0.0;
  double second_min = 1e300;
  double second_max = 0.0;
  for (const auto& [host, dirs] : hosts) {
    EXPECT_EQ(dirs.size(), 2u) << host;
    if (dirs.size() != 2) {
      return fabric;
    }
    fabric.hosts.push_back(host);
    first_max = std::max(first_max, captured_at(dirs[0]));
    second_min = std::min(second_min, captured_at(dirs[1]));
    second_max = std::max(second_max, captured_at(dirs[1]));
  }
  EXPECT_LT(first_max, second_min);
  const double now = static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  const double shift = std::floor(now - 600.0 - second_max);
  fabric.start = first_max + shift + 0.5;
  fabric.at = second_max + shift + 0.5;

  Exposition exposition;
  for (const auto& [host, dirs] : hosts) {
    for (const auto& dir : dirs) {
      export_host_sample(dir, host, captured_at(dir) + shift, exposition);
    }
  }
  if (with_switches) {
    std::size_t index = 0;
    // Switches are scraped just before each instant the query reads (see export_switch_samples).
    const std::vector<double> times = {fabric.start - 0.25, fabric.at - 0.25};
    for (const auto& [name, dirs] : samples_under(fabric.dir / "bundle/switches")) {
      EXPECT_EQ(dirs.size(), 2u) << name;
      if (dirs.size() == 2) {
        export_switch_samples(dirs, name, ++index, times, exposition);
      }
    }
  }
  write_file((fabric.dir / "fabric.om").string(), openmetrics(exposition));
  const auto backfill =
      run_argv({"promtool", "tsdb", "create-blocks-from", "openmetrics",
                (fabric.dir / "fabric.om").string(), (fabric.dir / "tsdb").string()});
  EXPECT_EQ(backfill.status, 0) << backfill.output;
  if (backfill.status != 0) {
    return fabric;
  }
  write_file((fabric.dir / "prometheus.yml").string(), "global:\n  scrape_interval: 15s\n");
  const int port = unused_loopback_port();
  fabric.url = fmt::format("http://127.0.0.1:{}", port);
  fabric.server = ChildProcess::start(
      {"prometheus", "--config.file=" + (fabric.dir / "prometheus.yml").string(),
       "--storage.tsdb.path=" + (fabric.dir / "tsdb").string(), "--storage.tsdb.retention.time=10y",
       fmt::format("--web.listen-address=127.0.0.1:{}", port)},
      (fabric.dir / "prometheus.log").string());
  if (fabric.server != nullptr && !wait_ready(fabric.url, std::chrono::seconds(90))) {
    ADD_FAILURE() << "prometheus did not become ready; log: "
                  << read_text((fabric.dir / "prometheus.log").string());
    fabric.server.reset();
  }
  return fabric;
}

}  // namespace netdoctor::testing
