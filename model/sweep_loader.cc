#include "model/sweep_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "model/source_names.h"

namespace netdoctor::model {
namespace {

constexpr std::string_view k_root = "sweep";

std::string text_of(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_of(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

Result<SweepResult> read_sweep(std::string_view text, const std::string& shown) {
  auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return make_error(ErrorCode::Parse, "not JSON", shown);
  }
  if (text_of(json, "format") != "netdoctor-sweep" || !json.contains("version") ||
      json["version"] != 1) {
    return make_error(ErrorCode::Unsupported, "not a netdoctor-sweep version 1 file", shown);
  }
  SweepResult sweep;
  sweep.file = shown;
  sweep.verdict = text_of(json, "verdict");
  if (sweep.verdict != "slow-found" && sweep.verdict != "all-healthy" &&
      sweep.verdict != "inconclusive") {
    return make_error(ErrorCode::Parse,
                      fmt::format("unknown verdict '{}'", printable(sweep.verdict)), shown);
  }
  sweep.summary = text_of(json, "summary");
  sweep.nics = static_cast<std::size_t>(number_of(json, "nics"));
  sweep.tested_nics = static_cast<std::size_t>(number_of(json, "tested_nics"));
  sweep.rounds = static_cast<int>(number_of(json, "rounds"));
  if (json.contains("runs") && json["runs"].is_array()) {
    sweep.runs = json["runs"].size();
  }
  if (json.contains("slow") && json["slow"].is_array()) {
    for (const auto& item : json["slow"]) {
      if (!item.is_object() || text_of(item, "entity").empty()) {
        continue;
      }
      SweepSlow slow;
      slow.entity = text_of(item, "entity");
      slow.measured_gbps = number_of(item, "measured_gbps");
      slow.expected_gbps = number_of(item, "expected_gbps");
      if (item.contains("evidence") && item["evidence"].is_array()) {
        for (const auto& line : item["evidence"]) {
          if (line.is_string()) {
            slow.evidence.push_back(line.get<std::string>());
          }
        }
      }
      slow.kind = text_of(item, "found_by") == "collective" ? "collective" : "perftest";
      sweep.slow.push_back(std::move(slow));
    }
  }
  if (json.contains("left_out") && json["left_out"].is_array()) {
    for (const auto& item : json["left_out"]) {
      if (item.is_object()) {
        sweep.left_out.push_back(
            fmt::format("{} ({})", text_of(item, "host"), text_of(item, "reason")));
      }
    }
  }
  return sweep;
}

}  // namespace

void load_sweeps(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric) {
  if (!bundle.tree || !filter.admits(source::k_sweep)) {
    return;
  }
  auto files = bundle.tree->list(std::string(k_root));
  if (!files.ok()) {
    return;  // no sweep/ folder: no active tests were recorded
  }
  for (const auto& entry : *files) {
    if (entry.kind != DirEntry::Kind::File || !ends_with(entry.name, ".json")) {
      continue;
    }
    const std::string path = std::string(k_root) + "/" + entry.name;
    const std::string shown = bundle.tree->display_path(path);
    auto text = bundle.tree->read(path);
    if (!text.ok()) {
      Error error = text.error();
      error.context = shown;
      fabric.problems.push_back(Problem{"", source::k_sweep, std::move(error)});
      continue;
    }
    auto sweep = read_sweep(*text, shown);
    if (!sweep.ok()) {
      fabric.problems.push_back(Problem{"", source::k_sweep, sweep.error()});
      continue;
    }
    fabric.sweeps.push_back(std::move(*sweep));
  }
  std::sort(fabric.sweeps.begin(), fabric.sweeps.end(),
            [](const SweepResult& a, const SweepResult& b) { return a.file < b.file; });
}

}  // namespace netdoctor::model
