#include "remote/prometheus_api.h"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"

namespace netdoctor::remote {
namespace {

const std::string k_empty;

}  // namespace

const std::string& PromSeries::name() const {
  return label("__name__");
}

PromLabels::PromLabels(const std::map<std::string, std::string>& labels) {
  for (const auto& [name, value] : labels) {
    add(name, value);
  }
}

void PromLabels::add(std::string_view name, std::string_view value) {
  if (find(name) != nullptr) {
    return;
  }
  if (m_used == m_entries.size()) {
    m_entries.emplace_back();
  }
  m_entries[m_used].first.assign(name);
  m_entries[m_used].second.assign(value);
  ++m_used;
}

const std::string* PromLabels::find(std::string_view name) const {
  for (std::size_t i = 0; i < m_used; ++i) {
    if (m_entries[i].first == name) {
      return &m_entries[i].second;
    }
  }
  return nullptr;
}

std::map<std::string, std::string> PromLabels::to_map() const {
  return {begin(), end()};
}

const std::string& PromSeries::label(std::string_view key) const {
  const std::string* value = labels.find(key);
  return value == nullptr ? k_empty : *value;
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
  ND_TRY_ASSIGN(RangeAnswer answer, parse_range_answer(body));
  return std::move(answer.series);
}

std::string query_range_form(const RangeQuery& query) {
  return fmt::format("query={}&start={:.3f}&end={:.3f}&step={:.3f}", percent_encode(query.promql),
                     query.start, query.end, query.step);
}

std::string label_values_url(std::string_view base_url, std::string_view label,
                             std::string_view selector, double start, double end) {
  while (!base_url.empty() && base_url.back() == '/') {
    base_url.remove_suffix(1);
  }
  return fmt::format("{}/api/v1/label/{}/values?match%5B%5D={}&start={:.3f}&end={:.3f}", base_url,
                     percent_encode(label), percent_encode(selector), start, end);
}

Result<std::vector<std::string>> parse_label_values(std::string_view body) {
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return make_error(ErrorCode::Parse, "answer is not JSON (is this a Prometheus server?)");
  }
  if (json.value("status", "") == "error") {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("Prometheus refused the query: {}: {}",
                                  json.value("errorType", "error"), json.value("error", "")));
  }
  if (json.value("status", "") != "success" || !json.contains("data") || !json["data"].is_array()) {
    return make_error(ErrorCode::Parse, "answer has no \"status\": \"success\" and \"data\"");
  }
  std::vector<std::string> out;
  for (const auto& value : json["data"]) {
    if (value.is_string()) {
      out.push_back(value.get<std::string>());
    }
  }
  return out;
}

}  // namespace netdoctor::remote
