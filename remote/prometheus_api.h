// The slice of Prometheus' HTTP API netdoctor uses: /api/v1/query_range, whose answer is a
// matrix of series, each with its labels and [time, "value"] points.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "remote/http_client.h"

namespace netdoctor::remote {

// A series' labels, name -> value. A series has a handful, looked up a few times each, and an
// answer hundreds of thousands of series: they are kept flat, and a cleared set keeps its
// strings' storage for the next series (a map allocated a node per label of every series).
class PromLabels {
 public:
  using Entry = std::pair<std::string, std::string>;
  PromLabels() = default;
  PromLabels(const std::map<std::string, std::string>& labels);  // NOLINT: a map is labels
  PromLabels(const PromLabels&) = default;
  PromLabels& operator=(const PromLabels&) = default;
  PromLabels(PromLabels&& other) noexcept
      : m_entries(std::move(other.m_entries)), m_used(std::exchange(other.m_used, 0)) {}
  PromLabels& operator=(PromLabels&& other) noexcept {
    m_entries = std::move(other.m_entries);
    m_used = std::exchange(other.m_used, 0);
    return *this;
  }
  ~PromLabels() = default;

  // Adds `name` = `value`; a name already there keeps its value (a JSON object's first).
  void add(std::string_view name, std::string_view value);
  // The value of `name`, or nullptr.
  const std::string* find(std::string_view name) const;
  // Empties the set, keeping its storage.
  void clear() { m_used = 0; }
  std::size_t size() const { return m_used; }
  auto begin() const { return m_entries.begin(); }
  auto end() const { return m_entries.begin() + static_cast<std::ptrdiff_t>(m_used); }
  std::map<std::string, std::string> to_map() const;

 private:
  std::vector<Entry> m_entries;  // [0, m_used) are the labels; the rest is storage kept
  std::size_t m_used = 0;
};

struct PromSeries {
  PromLabels labels;                              // includes __name__
  std::vector<std::pair<double, double>> points;  // (Unix time, value); NaN/Inf kept as sent
  const std::string& name() const;
  // The label's value, or "" when absent.
  const std::string& label(std::string_view key) const;
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

// What reading answers allocates (simdjson's index, as large as the largest answer read), kept
// for the next answer read with it: answers of tens of MB read one after another then reuse
// memory instead of faulting in fresh pages for each. One per thread reading answers.
class AnswerParser {
 public:
  AnswerParser();
  ~AnswerParser();
  AnswerParser(const AnswerParser&) = delete;
  AnswerParser& operator=(const AnswerParser&) = delete;

  // read_range_answer with this parser's memory. A body whose string has k_body_padding
  // (remote/http_client.h) bytes of capacity past its size is read in place, not copied.
  Result<std::vector<std::string>> read(const std::string& body, const SeriesVisitor& each);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

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
