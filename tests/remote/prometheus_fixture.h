// A simulator fabric served by a real Prometheus on 127.0.0.1: the bundle's samples shifted into
// the last minutes, exported as its exporters' series (tests/remote/openmetrics_export.h),
// backfilled with `promtool tsdb create-blocks-from openmetrics`, and `prometheus` started on
// that TSDB. The query window [start, at] holds exactly two samples of every machine.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/remote/remote_test_support.h"

namespace netdoctor::testing {

struct ServedFabric {
  std::filesystem::path dir;
  nlohmann::json expected;  // the simulator's expected.json
  std::string url;          // http://127.0.0.1:<port>
  double start = 0.0;       // the window: both samples of every host and switch in it
  double at = 0.0;
  std::vector<std::string> hosts;
  std::unique_ptr<ChildProcess> server;
};

bool prometheus_installed();

// Simulates `sim_args` (after `netdoctor sim`), exports hosts and, when `with_switches`, switches,
// and serves them. Test failures (and a null server) on any step that fails.
ServedFabric serve_simulated_fabric(const std::vector<std::string>& sim_args, bool with_switches);

}  // namespace netdoctor::testing
