// An HttpClient that answers the slice of Prometheus' API read_prometheus uses, from series held
// in memory: label values (the instances of the host series; no switches) and query_range POSTs
// whose selector names hosts by an instance=~"a|b" regex. It records which hosts each range query
// asked for, and can fail or warn the query that asks for a chosen host.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "remote/http_client.h"

namespace netdoctor::testing {

class FakePrometheus final : public remote::HttpClient {
 public:
  // Series of `hosts` hosts "n001:9100", ...: each one NIC's state and a counter, two points.
  explicit FakePrometheus(std::size_t hosts);

  std::vector<remote::HttpOutcome> perform(
      const std::vector<remote::HttpRequest>& requests) override;

  std::vector<std::vector<std::string>> batches;  // the instances each range query asked for
  std::set<std::string> time_out_with;            // a query asking for one of these times out
  std::set<std::string> warn_with;                // ... answers with a warning
  std::set<std::string> silent;                   // instances listed but without series

 private:
  remote::HttpOutcome range(const remote::HttpRequest& request);
  std::vector<std::string> m_instances;
};

}  // namespace netdoctor::testing
