// The slice of Prometheus' HTTP API netdoctor uses: /api/v1/query_range, whose answer is a
// matrix of series, each with its labels and [time, "value"] points.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace netdoctor::remote {

struct PromSeries {
  std::map<std::string, std::string> labels;      // includes __name__
  std::vector<std::pair<double, double>> points;  // (Unix time, value); NaN/Inf kept as sent
  const std::string& name() const;
  // The label's value, or "" when absent.
  const std::string& label(const std::string& key) const;
};

struct RangeQuery {
  std::string promql;
  double start = 0.0;  // Unix seconds
  double end = 0.0;
  double step = 0.0;  // seconds
};

// "<base>/api/v1/query_range?query=...&start=...&end=...&step=..." (base without a trailing '/').
std::string query_range_url(std::string_view base_url, const RangeQuery& query);

// RFC 3986: everything but unreserved characters as %XX.
std::string percent_encode(std::string_view text);

// A query_range answer: its series and the warnings Prometheus sent with them (a partial answer:
// a remote read or a shard that did not answer).
struct RangeAnswer {
  std::vector<PromSeries> series;
  std::vector<std::string> warnings;
};

// Reads the answer off simdjson's index of it (remote/prometheus_matrix.cc). Parse when the body
// is not JSON or not a matrix; InvalidArgument carrying Prometheus' own errorType and error when
// it refused the query.
Result<RangeAnswer> parse_range_answer(std::string_view body);

// The same, handing each series to `each` in turn instead of holding them (a batch answer holds
// hundreds of thousands): the answer is checked whole first, so `each` sees nothing of one that
// is refused. The series passed may be moved from; it is reused for the next. Returns the
// warnings.
using SeriesVisitor = std::function<void(PromSeries&)>;
Result<std::vector<std::string>> read_range_answer(std::string_view body,
                                                   const SeriesVisitor& each);

// The series of a query_range answer (parse_range_answer without its warnings).
Result<std::vector<PromSeries>> parse_query_range(std::string_view body);

// The form body of a query_range POST: "query=...&start=...&end=...&step=..." (a selector that
// lists hundreds of hosts does not fit a URL).
std::string query_range_form(const RangeQuery& query);

// "<base>/api/v1/label/<label>/values?match[]=<selector>&start=...&end=...".
std::string label_values_url(std::string_view base_url, std::string_view label,
                             std::string_view selector, double start, double end);

// The values of a label values answer ({"status":"success","data":[...]}).
Result<std::vector<std::string>> parse_label_values(std::string_view body);

}  // namespace netdoctor::remote
