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

namespace {

// The answer read event by event: where each value sits is known from the containers around it
// (root -> data -> result -> item -> metric | values -> point), so only the series are kept.
class RangeAnswerReader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit RangeAnswerReader(RangeAnswer& out) : m_out(out) {}

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t value) override {
    return number(static_cast<double>(value));
  }
  bool number_unsigned(number_unsigned_t value) override {
    return number(static_cast<double>(value));
  }
  bool number_float(number_float_t value, const string_t&) override { return number(value); }
  bool binary(binary_t&) override { return scalar(); }
  bool string(string_t& value) override {
    switch (here()) {
      case Where::Root:
        if (m_key == "status") {
          status = value;
        } else if (m_key == "errorType") {
          error_type = value;
        } else if (m_key == "error") {
          error = value;
        }
        break;
      case Where::Data:
        if (m_key == "resultType") {
          result_type = value;
        }
        break;
      case Where::Warnings:
        m_out.warnings.push_back(value);
        break;
      case Where::Metric:
        m_out.series.back().labels.emplace(m_key, value);
        break;
      case Where::Point:
        if (m_point_items++ == 1) {
          m_value = parse_sample_value(value);
          m_value_seen = true;
        }
        break;
      default:
        break;
    }
    return true;
  }
  bool start_object(std::size_t) override {
    Where where = Where::Other;
    if (m_stack.empty()) {
      where = Where::Root;
    } else if (here() == Where::Root && m_key == "data") {
      where = Where::Data;
    } else if (here() == Where::Result) {
      where = Where::Item;
      m_out.series.emplace_back();
      m_item_parts = 0;
    } else if (here() == Where::Item && m_key == "metric") {
      where = Where::Metric;
      m_item_parts |= 1;
    }
    m_stack.push_back(where);
    return true;
  }
  bool key(string_t& value) override {
    m_key = value;
    return true;
  }
  bool end_object() override {
    if (here() == Where::Item && m_item_parts != 3) {
      shape_error = "a series lacks \"metric\" or \"values\"";
    }
    return pop();
  }
  bool start_array(std::size_t) override {
    Where where = Where::Other;
    if (m_stack.empty()) {
      where = Where::Other;
    } else if (here() == Where::Root && m_key == "warnings") {
      where = Where::Warnings;
    } else if (here() == Where::Data && m_key == "result") {
      where = Where::Result;
      result_seen = true;
    } else if (here() == Where::Item && m_key == "values") {
      where = Where::Values;
      m_item_parts |= 2;
    } else if (here() == Where::Values) {
      where = Where::Point;
      m_point_items = 0;
      m_time_seen = false;
      m_value_seen = false;
    }
    m_stack.push_back(where);
    return true;
  }
  bool end_array() override {
    if (here() == Where::Point) {
      if (m_point_items != 2 || !m_time_seen || !m_value_seen) {
        shape_error = "a point is not [time, \"value\"]";
      } else {
        m_out.series.back().points.emplace_back(m_time, m_value);
      }
    }
    return pop();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  std::string status;
  std::string error_type;
  std::string error;
  std::string result_type;
  bool result_seen = false;
  std::string shape_error;

 private:
  enum class Where { Root, Warnings, Data, Result, Item, Metric, Values, Point, Other };
  Where here() const { return m_stack.empty() ? Where::Other : m_stack.back(); }
  bool pop() {
    if (!m_stack.empty()) {
      m_stack.pop_back();
    }
    return true;
  }
  bool scalar() {
    if (here() == Where::Point) {
      ++m_point_items;
    }
    return true;
  }
  bool number(double value) {
    if (here() == Where::Point && m_point_items++ == 0) {
      m_time = value;
      m_time_seen = true;
    }
    return true;
  }

  RangeAnswer& m_out;
  std::vector<Where> m_stack;
  std::string m_key;
  int m_item_parts = 0;  // 1: metric seen, 2: values seen
  int m_point_items = 0;
  bool m_time_seen = false;
  bool m_value_seen = false;
  double m_time = 0.0;
  double m_value = 0.0;
};

}  // namespace

Result<RangeAnswer> parse_range_answer(std::string_view body) {
  RangeAnswer out;
  RangeAnswerReader reader(out);
  const bool parsed = nlohmann::json::sax_parse(body.begin(), body.end(), &reader);
  if (!parsed || reader.status.empty()) {
    return make_error(ErrorCode::Parse, "answer is not JSON (is this a Prometheus server?)");
  }
  if (reader.status == "error") {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("Prometheus refused the query: {}: {}",
                    reader.error_type.empty() ? "error" : reader.error_type, reader.error));
  }
  if (reader.status != "success" || reader.result_type.empty()) {
    return make_error(ErrorCode::Parse, "answer has no \"status\": \"success\" and \"data\"");
  }
  if (reader.result_type != "matrix" || !reader.result_seen) {
    return make_error(ErrorCode::Parse, "answer is not a matrix (resultType)");
  }
  if (!reader.shape_error.empty()) {
    return make_error(ErrorCode::Parse, reader.shape_error);
  }
  return out;
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
