// Reads a fabric from Prometheus: a few batched range queries (one per collector family, never
// one per host, switch or port) over [at - window, at], run concurrently through the HttpClient,
// laid out as a bundle by prometheus_to_bundle. No switch series is a problem in the result
// ("switch data not available"), not a failure.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "remote/bundle_files.h"
#include "remote/http_client.h"

namespace netdoctor::remote {

struct PrometheusRequest {
  std::string url;             // server base URL: "http://prom:9090" (a path prefix is kept)
  double at = 0.0;             // Unix seconds: the end of the window
  double window = 300.0;       // seconds
  std::optional<double> step;  // seconds between samples; default: the window (two samples)
  std::string selector;        // extra label matchers for every query: job="node",cluster="a"
  std::string host_label = "instance";
  std::chrono::milliseconds timeout{30'000};
};

// The PromQL of the batched queries, selector included.
std::vector<std::string> prometheus_queries(const std::string& selector);

// InvalidArgument for a bad window/step; Io/Timeout/... (the first query's error) when no
// query was answered; NotFound when the server holds none of the series in the window. A query
// that failed while others answered is a problem in the result, which is still built.
Result<BundleFiles> read_prometheus(HttpClient& client, const PrometheusRequest& request);

}  // namespace netdoctor::remote
