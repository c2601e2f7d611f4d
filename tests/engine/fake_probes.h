// Fake probes for engine tests: each returns canned findings and counts its runs.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "probes/probe.h"

namespace netdoctor::engine::testing {

inline probes::Finding finding(std::string signal, std::vector<std::string> entities,
                               double strength = 1.0, std::string summary = "") {
  probes::Finding out;
  out.signal = std::move(signal);
  out.entities = std::move(entities);
  out.strength = strength;
  out.summary = summary.empty() ? out.signal + " observed" : std::move(summary);
  return out;
}

class FakeProbe final : public probes::Probe {
 public:
  FakeProbe(std::string id, probes::CostClass cost, std::vector<std::string> signals,
            std::vector<probes::Finding> findings, int* runs = nullptr,
            probes::ProbeStatus status = probes::ProbeStatus::Ran, std::string reason = "")
      : m_id(std::move(id)),
        m_cost(cost),
        m_signals(std::move(signals)),
        m_findings(std::move(findings)),
        m_runs(runs),
        m_status(status),
        m_reason(std::move(reason)) {}

  std::string id() const override { return m_id; }
  std::string description() const override { return "fake " + m_id; }
  probes::CostClass cost() const override { return m_cost; }
  std::vector<std::string> reads() const override { return {}; }
  std::vector<std::string> signals() const override { return m_signals; }
  probes::ProbeResult run(const probes::ProbeContext&) const override {
    if (m_runs != nullptr) {
      ++*m_runs;
    }
    probes::ProbeResult result;
    result.probe_id = m_id;
    result.status = m_status;
    result.reason = m_reason;
    if (m_status == probes::ProbeStatus::Ran) {
      result.findings = m_findings;
    }
    return result;
  }

 private:
  std::string m_id;
  probes::CostClass m_cost;
  std::vector<std::string> m_signals;
  std::vector<probes::Finding> m_findings;
  int* m_runs;
  probes::ProbeStatus m_status;
  std::string m_reason;
};

}  // namespace netdoctor::engine::testing
