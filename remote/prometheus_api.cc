#include "remote/prometheus_api.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/strings.h"

namespace netdoctor::remote {
namespace {

const std::string k_empty;

// Prometheus sends sample values as strings: "1.2e+10", "NaN", "+Inf", "-Inf".
double parse_sample_value(const std::string& text) {
  if (text == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (text == "+Inf" || text == "Inf") {
    return std::numeric_limits<double>::infinity();
  }
  if (text == "-Inf") {
    return -std::numeric_limits<double>::infinity();
  }
  return parse_double(text).value_or(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace

const std::string& PromSeries::name() const {
  return label("__name__");
}

const std::string& PromSeries::label(const std::string& key) const {
  auto it = labels.find(key);
  return it == labels.end() ? k_empty : it->second;
}

std::string percent_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

std::string query_range_url(std::string_view base_url, const RangeQuery& query) {
  while (!base_url.empty() && base_url.back() == '/') {
    base_url.remove_suffix(1);
  }
  return fmt::format("{}/api/v1/query_range?query={}&start={:.3f}&end={:.3f}&step={:.3f}", base_url,
                     percent_encode(query.promql), query.start, query.end, query.step);
}

Result<std::vector<PromSeries>> parse_query_range(std::string_view body) {
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return make_error(ErrorCode::Parse, "answer is not JSON (is this a Prometheus server?)");
  }
  const std::string status = json.value("status", "");
  if (status == "error") {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("Prometheus refused the query: {}: {}",
                                  json.value("errorType", "error"), json.value("error", "")));
  }
  if (status != "success" || !json.contains("data") || !json["data"].is_object()) {
    return make_error(ErrorCode::Parse, "answer has no \"status\": \"success\" and \"data\"");
  }
  const auto& data = json["data"];
  if (data.value("resultType", "") != "matrix" || !data.contains("result") ||
      !data["result"].is_array()) {
    return make_error(ErrorCode::Parse, "answer is not a matrix (resultType)");
  }
  std::vector<PromSeries> out;
  out.reserve(data["result"].size());
  for (const auto& item : data["result"]) {
    if (!item.is_object() || !item.contains("metric") || !item["metric"].is_object() ||
        !item.contains("values") || !item["values"].is_array()) {
      return make_error(ErrorCode::Parse, "a series lacks \"metric\" or \"values\"");
    }
    PromSeries series;
    for (const auto& [key, value] : item["metric"].items()) {
      if (value.is_string()) {
        series.labels.emplace(key, value.get<std::string>());
      }
    }
    for (const auto& point : item["values"]) {
      if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
          !point[1].is_string()) {
        return make_error(ErrorCode::Parse, "a point is not [time, \"value\"]");
      }
      series.points.emplace_back(point[0].get<double>(),
                                 parse_sample_value(point[1].get<std::string>()));
    }
    out.push_back(std::move(series));
  }
  return out;
}

}  // namespace netdoctor::remote
