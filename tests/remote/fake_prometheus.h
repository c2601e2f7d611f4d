// An HttpClient that answers the slice of Prometheus' API read_prometheus uses, from series held
// in memory: label values (the instances of the host series, and of `switches`' own exporters)
// and query_range POSTs whose selector names machines by an instance=~"a|b" regex. A switch has
// one port, Ethernet0, with octets and queue 3's dropped, sent packets and sent bytes, whose drops
// grow. It records which machines each range query asked for, and can fail or warn the query
// that asks for a chosen one, or every query for the switches' queue traffic.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
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
  std::vector<std::string> switches;              // "leaf1:9101": a switch's own exporter
  bool time_out_queue_traffic = false;            // a query for sonic_queue_packets_total times out
  std::vector<std::string> queries;               // every range query's PromQL, in order

 private:
  remote::HttpOutcome range(const remote::HttpRequest& request);
  void add_switch_series(const std::string& instance, const std::string& promql,
                         nlohmann::json& result) const;
  std::vector<std::string> m_instances;
};

}  // namespace netdoctor::testing
