// The slice of Prometheus' HTTP API netdoctor uses: /api/v1/query_range, whose answer is a
// matrix of series, each with its labels and [time, "value"] points.
#pragma once

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

// The series of a query_range answer. Parse when the body is not JSON or not a matrix;
// InvalidArgument carrying Prometheus' own errorType and error when it refused the query.
Result<std::vector<PromSeries>> parse_query_range(std::string_view body);

}  // namespace netdoctor::remote
