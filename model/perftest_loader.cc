#include "model/perftest_loader.h"

#include "base/strings.h"
#include "model/loader.h"
#include "model/source_names.h"
#include "model/source_reading.h"
#include "parsers/perftest.h"

namespace netdoctor::model {
namespace {

// "ib_write_bw_-d_mlx5_0_--report_gbits_node02" -> "ib_write_bw".
std::string test_from_name(std::string_view name) {
  std::size_t end = 0;
  for (auto token : split(name, '_')) {
    end += token.size();
    if (token == "bw" || token == "lat") {
      return std::string(name.substr(0, end));
    }
    ++end;  // the '_'
  }
  auto dash = name.find("_-");
  return std::string(name.substr(0, dash));
}

// The "-d <dev>" / "--ib-dev=<dev>" argument of a mangled command line.
std::string device_from_name(std::string_view name, std::string_view server) {
  for (std::string_view flag : {"_-d_", "_--ib-dev_"}) {
    auto pos = name.find(flag);
    if (pos == std::string_view::npos) {
      continue;
    }
    auto rest = name.substr(pos + flag.size());
    rest = rest.substr(0, rest.find("_-"));
    if (!server.empty() && ends_with(rest, server) && rest.size() > server.size() &&
        rest[rest.size() - server.size() - 1] == '_') {
      rest.remove_suffix(server.size() + 1);
    }
    return std::string(rest);
  }
  return {};
}

}  // namespace

const std::string& perftest_source(const PerftestFile& file) {
  return file.baseline ? source::k_perftest_baseline : source::k_perftest;
}

PerftestResult load_perftest(const PerftestFile& file, std::vector<Problem>& problems) {
  PerftestResult result;
  result.client = file.client;
  result.server = file.server;
  result.baseline = file.baseline;
  result.file = file.display_path;
  result.test = test_from_name(file.name);
  result.device = device_from_name(file.name, file.server);
  auto parsed = parsers::parse_perftest(file.text);
  if (!parsed.ok()) {
    result.error = "output not understood: " + parsed.error().message;
    problems.push_back(
        Problem{host_entity(file.client), perftest_source(file),
                make_error(ErrorCode::Parse, parsed.error().message, file.display_path)});
    return result;
  }
  const auto& run = *parsed;
  if (!run.device.empty()) {
    result.device = run.device;
  }
  if (!run.errors.empty()) {
    result.error = run.errors.front().message;
  }
  if (!run.bw_rows.empty()) {
    const auto& row = run.bw_rows.back();  // the largest message size, where bandwidth peaks
    result.ok = true;
    result.msg_bytes = row.bytes;
    result.bw_avg_gbps = row.bw_average_gbps;
    result.bw_peak_gbps = row.bw_peak_gbps.value_or(0.0);
    result.msg_rate_mpps = row.msg_rate_mpps;
  }
  if (!run.lat_rows.empty()) {
    const auto& row = run.lat_rows.front();  // the smallest message size: the latency figure
    result.ok = true;
    result.msg_bytes = row.bytes;
    result.lat_typical_us = row.t_typical_us;
    result.lat_avg_us = row.t_avg_us;
    result.lat_p99_us = row.p99_us;
  }
  return result;
}

void load_perftests(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric) {
  for (const auto& file : bundle.perftests) {
    const std::string& source = perftest_source(file);
    if (!filter.admits(source)) {
      if (Host* client = fabric.find_host(file.client)) {
        record_source(client->sources, source, Availability::Absent, k_withheld);
      }
      continue;
    }
    fabric.perftests.push_back(load_perftest(file, fabric.problems));
  }
}

}  // namespace netdoctor::model
