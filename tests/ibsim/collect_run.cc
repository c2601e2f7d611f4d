#include "tests/ibsim/collect_run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;

// Each collect of these small fabrics takes a second or two; generous for a loaded CI machine.
constexpr int k_collect_timeout_s = 90;

RunOptions collect_options(const IbsimFabric& fabric) {
  RunOptions options;
  options.sandbox = fabric.dir();
  options.env = fabric.env();
  options.timeout_s = k_collect_timeout_s;
  return options;
}

std::vector<std::string> collect_args(const IbsimFabric& fabric, const std::string& bundle,
                                      const std::vector<std::string>& extra) {
  const std::string root = fabric.dir() + "/root";
  fs::create_directories(root);
  std::vector<std::string> args = {"collect", "--root", root, "--host", "h1", "--out", bundle};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

Collected collect(const IbsimFabric& fabric, const std::vector<std::string>& extra) {
  Collected result;
  result.bundle = fabric.dir() + "/bundle";
  result.run = run_netdoctor(collect_args(fabric, result.bundle, extra), collect_options(fabric));
  return result;
}

Collected collect_with_change(const IbsimFabric& fabric, double interval_s,
                              const std::function<void()>& between,
                              const std::vector<std::string>& extra) {
  Collected result;
  result.bundle = fabric.dir() + "/bundle";
  std::vector<std::string> args = extra;
  args.insert(args.end(), {"--samples", "2", "--interval", fmt::format("{}", interval_s)});
  auto running = std::async(std::launch::async, [&] {
    return run_netdoctor(collect_args(fabric, result.bundle, args), collect_options(fabric));
  });
  const std::string first_log = fabric_sample_dir(result.bundle, "0") + "/netdoctor_collect.log";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(first_log) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(fs::exists(first_log)) << "sample 0 did not complete";
  between();
  result.run = running.get();
  return result;
}

std::string fabric_sample_dir(const std::string& bundle, const std::string& sample) {
  return bundle + "/fabric/" + sample;
}

std::string fabric_view(const std::string& bundle, const std::string& sample,
                        const std::string& name) {
  const std::string path = fabric_sample_dir(bundle, sample) + "/sos_commands/infiniband/" + name;
  if (!fs::exists(path)) {
    ADD_FAILURE() << "not captured: " << path;
    return {};
  }
  return read_text(path);
}

}  // namespace netdoctor::testing
