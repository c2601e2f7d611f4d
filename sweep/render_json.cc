#include "sweep/render.h"

namespace netdoctor::sweep {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json run_json(const SweepRun& run) {
  return {{"round", run.round},
          {"test", run.test},
          {"client", run.client},
          {"server", run.server},
          {"device", run.device},
          {"server_device", run.server_device},
          {"hosts", run.hosts},
          {"gbps", optional_number(run.gbps)},
          {"lat_us", optional_number(run.lat_us)},
          {"busbw_gbyte_s", optional_number(run.busbw_gbyte_s)},
          {"expected_gbps", run.expected_gbps},
          {"expected_from", run.expected_from},
          {"result", to_string(run.result)},
          {"detail", run.detail},
          {"seconds", run.seconds},
          {"measured_at", run.measured_at}};
}

}  // namespace

nlohmann::json to_json(const SweepReport& report) {
  nlohmann::json slow = nlohmann::json::array();
  for (const auto& entity : report.slow) {
    slow.push_back({{"entity", entity.entity},
                    {"measured_gbps", entity.measured_gbps},
                    {"expected_gbps", entity.expected_gbps},
                    {"evidence", entity.evidence},
                    {"found_by", entity.found_by}});
  }
  nlohmann::json left_out = nlohmann::json::array();
  for (const auto& host : report.left_out) {
    left_out.push_back({{"host", host.host}, {"reason", host.reason}, {"detail", host.detail}});
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : report.runs) {
    runs.push_back(run_json(run));
  }
  return {{"format", "netdoctor-sweep"},
          {"version", 1},
          {"verdict", to_string(report.verdict)},
          {"summary", report.summary},
          {"hosts", report.hosts},
          {"nics", report.nics},
          {"tested_nics", report.tested_nics},
          {"slow", slow},
          {"left_out", left_out},
          {"rounds", report.rounds},
          {"runs", runs},
          {"wall_s", report.wall_s},
          {"budget_s", report.budget_s},
          {"budget_exhausted", report.budget_exhausted},
          {"interrupted", report.interrupted},
          {"created_at", report.started_at},
          {"notes", report.notes},
          {"thresholds",
           {{"rule_pct", report.thresholds.rule * 100.0},
            {"perftest_efficiency", report.thresholds.perftest_efficiency},
            {"nccl_efficiency", report.thresholds.nccl_efficiency},
            {"busy_gbps", report.thresholds.busy_gbps}}}};
}

}  // namespace netdoctor::sweep
