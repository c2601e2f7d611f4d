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
      : m_findings(std::move(findings)),
        m_runs(runs),
        m_status(status),
        m_reason(std::move(reason)) {
    m_spec.id = std::move(id);
    m_spec.description = "fake " + m_spec.id;
    m_spec.cost = cost;
    // The last signal is the clearing one, as in every real probe.
    m_spec.clearing = signals.back();
    signals.pop_back();
    m_spec.findings = std::move(signals);
  }

  const probes::ProbeSpec& spec() const override { return m_spec; }
  probes::ProbeResult run(const probes::ProbeContext&) const override {
    if (m_runs != nullptr) {
      ++*m_runs;
    }
    probes::ProbeResult result;
    result.probe_id = m_spec.id;
    result.status = m_status;
    result.reason = m_reason;
    if (m_status == probes::ProbeStatus::Ran) {
      result.findings = m_findings;
    }
    return result;
  }

 private:
  probes::ProbeSpec m_spec;
  std::vector<probes::Finding> m_findings;
  int* m_runs;
  probes::ProbeStatus m_status;
  std::string m_reason;
};

}  // namespace netdoctor::engine::testing
