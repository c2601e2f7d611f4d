// parse_range_answer (remote/prometheus_api.h): a query_range answer read with simdjson's
// DOM API. A batch answer is tens of MB of JSON and hundreds of thousands of series;
// simdjson validates and indexes it at gigabytes a second, then the series are read off its tape
// (an event parser that copied every string was a third of the Prometheus path's time at 4,096
// hosts).
#include <fmt/format.h>
#include <simdjson.h>

#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/strings.h"
#include "remote/prometheus_api.h"

namespace netdoctor::remote {
namespace {

namespace dom = simdjson::dom;

// Prometheus sends sample values as strings: "1.2e+10", "NaN", "+Inf", "-Inf".
double parse_sample_value(std::string_view text) {
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

// What the answer says besides its series.
struct Envelope {
  std::string status;
  std::string error_type;
  std::string error;
  std::string result_type;
  bool result_seen = false;
  std::string shape_error;
  std::vector<std::string> warnings;
};

// Walks the parsed answer. Without `each` it only checks the shape (a well-formed answer of the
// wrong shape sets Envelope::shape_error); with it, it hands over every series in turn, one
// PromSeries reused, so a batch's series are never all held at once.
class MatrixReader {
 public:
  MatrixReader(Envelope& envelope, const SeriesVisitor* each)
      : m_envelope(envelope), m_each(each) {}

  void root(dom::object object) {
    for (const auto [key, value] : object) {
      if (key == "status") {
        read_string(value, m_envelope.status);
      } else if (key == "errorType") {
        read_string(value, m_envelope.error_type);
      } else if (key == "error") {
        read_string(value, m_envelope.error);
      } else if (key == "warnings" && value.is_array() && m_each == nullptr) {
        for (dom::element item : dom::array(value)) {
          if (item.is_string()) {
            m_envelope.warnings.emplace_back(std::string_view(item));
          }
        }
      } else if (key == "data" && value.is_object()) {
        data(dom::object(value));
      }
    }
  }

 private:
  static void read_string(dom::element value, std::string& into) {
    if (value.is_string()) {
      into.assign(std::string_view(value));
    }
  }

  void data(dom::object object) {
    for (const auto [key, value] : object) {
      if (key == "resultType") {
        read_string(value, m_envelope.result_type);
      } else if (key == "result" && value.is_array()) {
        m_envelope.result_seen = true;
        for (dom::element item : dom::array(value)) {
          if (item.is_object()) {
            series(dom::object(item));
          } else {
            m_envelope.shape_error = "a series is not an object";
          }
        }
      }
    }
  }

  void series(dom::object object) {
    m_series.labels.clear();
    m_series.points.clear();
    bool metric_seen = false;
    bool values_seen = false;
    for (const auto [key, value] : object) {
      if (key == "metric" && value.is_object()) {
        metric_seen = true;
        if (m_each == nullptr) {
          continue;
        }
        for (const auto [label, text] : dom::object(value)) {
          // Label values are strings; anything else is not a label.
          if (text.is_string()) {
            m_series.labels.add(label, std::string_view(text));
          }
        }
      } else if (key == "values" && value.is_array()) {
        values_seen = true;
        points(dom::array(value));
      }
    }
    if (!metric_seen || !values_seen) {
      m_envelope.shape_error = "a series lacks \"metric\" or \"values\"";
    } else if (m_each != nullptr) {
      (*m_each)(m_series);
    }
  }

  void points(dom::array array) {
    for (dom::element point : array) {
      const bool pair = point.is_array() && dom::array(point).size() == 2;
      if (!pair || !point.at(0).is_number() || !point.at(1).is_string()) {
        m_envelope.shape_error = "a point is not [time, \"value\"]";
      } else if (m_each != nullptr) {
        m_series.points.emplace_back(double(point.at(0)),
                                     parse_sample_value(std::string_view(point.at(1))));
      }
    }
  }

  Envelope& m_envelope;
  const SeriesVisitor* m_each;
  PromSeries m_series;
};

}  // namespace

// simdjson reads SIMDJSON_PADDING bytes past the end of what it parses.
static_assert(k_body_padding >= simdjson::SIMDJSON_PADDING);

struct AnswerParser::Impl {
  dom::parser parser;
};

AnswerParser::AnswerParser() : m_impl(std::make_unique<Impl>()) {}
AnswerParser::~AnswerParser() = default;

namespace {

// `body` with `padded` when the bytes past its end are readable, as simdjson needs.
Result<std::vector<std::string>> read_answer(dom::parser& parser, std::string_view body,
                                             bool padded, const SeriesVisitor& each) {
  // The DOM parser picks the CPU's fastest kernel at run time (On-Demand binds it at build).
  dom::element document;
  Envelope envelope;
  if (parser.parse(body.data(), body.size(), !padded).get(document) != simdjson::SUCCESS ||
      !document.is_object()) {
    return make_error(ErrorCode::Parse, "answer is not JSON (is this a Prometheus server?)");
  }
  MatrixReader(envelope, nullptr).root(dom::object(document));
  if (envelope.status.empty()) {
    return make_error(ErrorCode::Parse, "answer is not JSON (is this a Prometheus server?)");
  }
  if (envelope.status == "error") {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("Prometheus refused the query: {}: {}",
                    envelope.error_type.empty() ? "error" : envelope.error_type, envelope.error));
  }
  if (envelope.status != "success" || envelope.result_type.empty()) {
    return make_error(ErrorCode::Parse, "answer has no \"status\": \"success\" and \"data\"");
  }
  if (envelope.result_type != "matrix" || !envelope.result_seen) {
    return make_error(ErrorCode::Parse, "answer is not a matrix (resultType)");
  }
  if (!envelope.shape_error.empty()) {
    return make_error(ErrorCode::Parse, envelope.shape_error);
  }
  Envelope again;
  MatrixReader(again, &each).root(dom::object(document));
  return std::move(envelope.warnings);
}

}  // namespace

Result<std::vector<std::string>> AnswerParser::read(const std::string& body,
                                                    const SeriesVisitor& each) {
  return read_answer(m_impl->parser, body, body.capacity() - body.size() >= k_body_padding, each);
}

Result<std::vector<std::string>> read_range_answer(std::string_view body,
                                                   const SeriesVisitor& each) {
  dom::parser parser;
  return read_answer(parser, body, false, each);
}

Result<RangeAnswer> parse_range_answer(std::string_view body) {
  RangeAnswer out;
  ND_TRY_ASSIGN(out.warnings, read_range_answer(body, [&out](PromSeries& series) {
                  out.series.push_back(std::move(series));
                }));
  return out;
}

}  // namespace netdoctor::remote
