#include "remote/prometheus_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "remote/prometheus_api.h"
#include "remote/prometheus_bundle.h"
#include "remote/prometheus_switch_bundle.h"
#include "remote/redact.h"

namespace netdoctor::remote {
namespace {

// Prometheus refuses a range query of more than 11,000 points per series.
constexpr double k_max_points = 11'000.0;

// The node_network_ series the model uses; the family holds many more (per-queue, carrier...).
constexpr const char* k_network_names =
    "node_network_(receive|transmit)_(bytes|packets|drop|errs|frame|fifo)_total"
    "|node_network_(mtu_bytes|speed_bytes|info)";

}  // namespace

std::vector<std::string> prometheus_queries(const std::string& selector) {
  const std::string extra = selector.empty() ? std::string() : "," + selector;
  return {
      fmt::format("{{__name__=~\"node_infiniband_.+\"{}}}", extra),
      fmt::format("{{__name__=~\"node_ethtool_.+\"{}}}", extra),
      fmt::format("{{__name__=~\"{}\"{}}}", k_network_names, extra),
      fmt::format("{{__name__=~\"netdoctor_.+\"{}}}", extra),
      fmt::format("{{__name__=~\"{}\"{}}}", switch_query_pattern(), extra),
  };
}

Result<BundleFiles> read_prometheus(HttpClient& client, const PrometheusRequest& request) {
  const std::string shown = redact_url(request.url);
  const double step = request.step.value_or(request.window);
  if (!(request.window > 0.0) || !(step > 0.0) || !std::isfinite(request.at)) {
    return make_error(ErrorCode::InvalidArgument, "window and step must be positive", shown);
  }
  if (request.window / step > k_max_points) {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("window / step is over {} points; use a larger step", k_max_points), shown);
  }
  const auto queries = prometheus_queries(request.selector);
  std::vector<HttpRequest> http;
  for (const auto& promql : queries) {
    HttpRequest one;
    one.url = query_range_url(request.url,
                              RangeQuery{promql, request.at - request.window, request.at, step});
    one.timeout = request.timeout;
    http.push_back(std::move(one));
  }
  const auto outcomes = client.perform(http);

  std::vector<PromSeries> series;
  std::vector<Error> problems;
  std::size_t answered = 0;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& outcome = outcomes[i];
    Error error;
    if (!outcome.ok()) {
      error = outcome.error();
    } else {
      auto parsed = parse_query_range(outcome->body);
      if (parsed.ok() && outcome->status / 100 == 2) {
        ++answered;
        for (auto& one : *parsed) {
          series.push_back(std::move(one));
        }
        continue;
      }
      error = parsed.ok() ? make_error(ErrorCode::Io, fmt::format("HTTP {}", outcome->status))
                          : parsed.error();
      if (outcome->status / 100 != 2) {
        error.message = fmt::format("HTTP {}: {}", outcome->status, error.message);
      }
    }
    error.context = shown;
    error.message = fmt::format("query {} failed: {}", queries[i], error.message);
    problems.push_back(std::move(error));
  }
  if (answered == 0) {
    return problems.front();
  }
  if (series.empty()) {
    return make_error(
        ErrorCode::NotFound,
        fmt::format("no node_infiniband_, node_ethtool_, node_network_, netdoctor_ or switch "
                    "(IF-MIB, sonic_queue_) series between {:.3f} and {:.3f}{}",
                    request.at - request.window, request.at,
                    request.selector.empty() ? "" : " matching " + request.selector),
        shown);
  }
  PromLayoutOptions layout;
  layout.host_label = request.host_label;
  layout.source = "prometheus " + shown;
  BundleFiles files = prometheus_to_bundle(series, layout);
  files.problems.insert(files.problems.begin(), problems.begin(), problems.end());
  const bool any_switch = std::any_of(files.files.begin(), files.files.end(), [](const auto& file) {
    return file.first.rfind("switches/", 0) == 0;
  });
  if (!any_switch) {
    files.problems.push_back(make_error(
        ErrorCode::NotFound,
        fmt::format("switch data not available: no switch series between {:.3f} and {:.3f}{} "
                    "(snmp_exporter if_mib, netdoctor_switch_pfc_*, sonic_queue_*), so switch "
                    "ports, their PFC and queue counters are not in the diagnosis "
                    "(docs/prometheus.md)",
                    request.at - request.window, request.at,
                    request.selector.empty() ? "" : " matching " + request.selector),
        shown));
  }
  return files;
}

}  // namespace netdoctor::remote
