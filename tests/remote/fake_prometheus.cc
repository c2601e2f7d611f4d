#include "tests/remote/fake_prometheus.h"

#include <fmt/format.h>

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
    if (request.url.find("/api/v1/label/instance/values") != std::string::npos &&
        percent_decode(request.url).find("ifHCInOctets") == std::string::npos) {
      out.emplace_back(remote::HttpResponse{
          200, nlohmann::json{{"status", "success"}, {"data", m_instances}}.dump(), {}});
    } else if (request.url.find("/api/v1/label/") != std::string::npos) {
      out.emplace_back(remote::HttpResponse{200, R"({"status":"success","data":[]})", {}});
    } else {
      out.push_back(range(request));
    }
  }
  return out;
}

remote::HttpOutcome FakePrometheus::range(const remote::HttpRequest& request) {
  const auto query = request.body.find("query=");
  const std::string promql =
      percent_decode(request.body.substr(query + 6, request.body.find('&') - query - 6));
  const auto asked = instances_asked(promql);
  batches.push_back(asked);
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
