#include "cli/live_capture.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/tree_writer.h"
#include "cli/fanout_report.h"
#include "collect/host_collector.h"

namespace netdoctor::cli {
namespace {

Result<std::string> new_temp_dir() {
  std::error_code error;
  const auto base = std::filesystem::temp_directory_path(error);
  if (error) {
    return make_error(ErrorCode::Io, "no temporary directory: " + error.message());
  }
  std::string pattern = (base / "netdoctor-capture-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return make_error(ErrorCode::Io, "cannot create a capture directory", pattern);
  }
  return pattern;
}

}  // namespace

Result<LiveCapture> capture_hosts(const std::vector<std::string>& hosts, collect::Launcher launcher,
                                  const std::string& pdsh_rcmd, std::string out,
                                  const Settings& settings, std::ostream& progress) {
  const std::string program = collect::launcher_program(launcher);
  if (find_program(program).empty()) {
    return make_error(ErrorCode::NotFound, program + " is not installed on this machine");
  }
  if (out.empty()) {
    ND_TRY_ASSIGN(out, new_temp_dir());
  }
  ND_TRY_ASSIGN(auto writer, open_dir_writer(out));
  collect::FanoutOptions options;
  options.launcher = launcher;
  options.pdsh_rcmd = pdsh_rcmd;
  options.parallel = static_cast<int>(settings.number("collect.parallel"));
  options.timeout =
      std::chrono::milliseconds(std::llround(settings.number("collect.host_timeout") * 1000.0));
  options.fabric_host = hosts.front();  // the subnet is swept once, from the first host
  prepare_fanout(options, progress, "netdoctor diagnose");
  LiveCommandRunner runner;
  progress << fmt::format(
      "netdoctor diagnose: capturing {} host(s) via {}, {} at a time, into {}\n", hosts.size(),
      program, options.parallel, out);
  FanoutReport report(progress, "netdoctor diagnose", hosts.size());
  const auto outcomes = collect::fan_out(hosts, options, runner, *writer, report.sink());
  report.finish();
  LiveCapture capture;
  capture.bundle = out;
  std::string log;
  for (const auto& outcome : outcomes) {
    log += fmt::format("{}: {}\n", outcome.host, outcome.ok ? "ok" : "FAILED: " + outcome.error);
    if (outcome.ok) {
      ++capture.merged;
    } else {
      capture.failed.push_back(outcome.host);
    }
  }
  const SystemClock clock;
  ND_TRY(writer->write_file(collect::k_collect_log, log));
  ND_TRY(
      collect::write_manifest(*writer, clock.now_unix(),
                              fmt::format("netdoctor diagnose --hosts ({} hosts)", hosts.size())));
  ND_TRY(writer->finish());
  return capture;
}

}  // namespace netdoctor::cli
