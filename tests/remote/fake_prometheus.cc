#include "tests/remote/fake_prometheus.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace netdoctor::testing {
namespace {

std::string percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

// The values an instance=~"..." matcher lists: PromQL's string escapes, then the regex's, undone.
std::vector<std::string> instances_asked(const std::string& promql) {
  const std::string key = "instance=~\"";
  const auto begin = promql.find(key);
  if (begin == std::string::npos) {
    return {};
  }
  std::vector<std::string> out(1);
  bool escaped_literal = false;
  bool escaped_regex = false;
  for (std::size_t i = begin + key.size(); i < promql.size(); ++i) {
    char c = promql[i];
    if (!escaped_literal && c == '\\') {
      escaped_literal = true;
      continue;
    }
    if (!escaped_literal && c == '"') {
      break;
    }
    escaped_literal = false;
    if (!escaped_regex && c == '\\') {
      escaped_regex = true;
    } else if (!escaped_regex && c == '|') {
      out.emplace_back();
    } else {
      out.back() += c;
      escaped_regex = false;
    }
  }
  return out;
}

}  // namespace

FakePrometheus::FakePrometheus(std::size_t hosts) {
  for (std::size_t i = 1; i <= hosts; ++i) {
    m_instances.push_back(fmt::format("n{:03}:9100", i));
  }
}

std::vector<remote::HttpOutcome> FakePrometheus::perform(
    const std::vector<remote::HttpRequest>& requests) {
  std::vector<remote::HttpOutcome> out;
  for (const auto& request : requests) {
    const bool switch_series =
        percent_decode(request.url).find("ifHCInOctets") != std::string::npos;
    if (request.url.find("/api/v1/label/instance/values") != std::string::npos) {
      out.emplace_back(remote::HttpResponse{
          200,
          nlohmann::json{{"status", "success"}, {"data", switch_series ? switches : m_instances}}
              .dump(),
          {}});
    } else if (request.url.find("/api/v1/label/") != std::string::npos) {
      out.emplace_back(remote::HttpResponse{200, R"({"status":"success","data":[]})", {}});
    } else {
      out.push_back(range(request));
    }
  }
  return out;
}

void FakePrometheus::add_switch_series(const std::string& instance, const std::string& promql,
                                       nlohmann::json& result) const {
  const auto add = [&](const char* name, nlohmann::json labels, double from, double to) {
    if (promql.find(name) == std::string::npos) {
      return;  // not asked for
    }
    labels["__name__"] = name;
    labels["instance"] = instance;
    result.push_back({{"metric", labels},
                      {"values", {{100, fmt::format("{}", from)}, {130, fmt::format("{}", to)}}}});
  };
  const nlohmann::json queue = {{"device", "Ethernet0"}, {"queue", "3"}};
  add("ifHCOutOctets", {{"ifName", "Ethernet0"}}, 1e9, 4e9);
  add("ifHighSpeed", {{"ifName", "Ethernet0"}}, 400000, 400000);
  add("sonic_queue_dropped_packets_total", queue, 10, 910);
  add("sonic_queue_packets_total", queue, 1e6, 4e6);
  add("sonic_queue_bytes_total", queue, 1e9, 4e9);
}

remote::HttpOutcome FakePrometheus::range(const remote::HttpRequest& request) {
  const auto query = request.body.find("query=");
  const std::string promql =
      percent_decode(request.body.substr(query + 6, request.body.find('&') - query - 6));
  const auto asked = instances_asked(promql);
  batches.push_back(asked);
  queries.push_back(promql);
  const bool traffic = promql.find("sonic_queue_packets_total") != std::string::npos;
  if (traffic && time_out_queue_traffic) {
    return make_error(ErrorCode::Timeout, "timed out after 30000 ms", request.url);
  }
  nlohmann::json result = nlohmann::json::array();
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& instance : asked) {
    if (time_out_with.count(instance) != 0) {
      return make_error(ErrorCode::Timeout, "timed out after 30000 ms", request.url);
    }
    if (warn_with.count(instance) != 0) {
      warnings.push_back("remote read of shard 2 failed");
    }
    if (silent.count(instance) != 0) {
      continue;
    }
    if (std::find(switches.begin(), switches.end(), instance) != switches.end()) {
      add_switch_series(instance, promql, result);
      continue;
    }
    const nlohmann::json port = {{"instance", instance}, {"device", "mlx5_0"}, {"port", "1"}};
    nlohmann::json state = port;
    state["__name__"] = "node_infiniband_state_id";
    nlohmann::json data = port;
    data["__name__"] = "node_infiniband_port_data_received_bytes_total";
    result.push_back({{"metric", state}, {"values", {{100, "4"}, {130, "4"}}}});
    result.push_back({{"metric", data}, {"values", {{100, "4000"}, {130, "8000"}}}});
  }
  nlohmann::json body = {{"status", "success"},
                         {"data", {{"resultType", "matrix"}, {"result", result}}}};
  if (!warnings.empty()) {
    body["warnings"] = warnings;
  }
  return remote::HttpResponse{200, body.dump(), {}};
}

}  // namespace netdoctor::testing
