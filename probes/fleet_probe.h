// The shape every probe shares, so that a probe's file reads as the paragraph of a runbook:
//   survey     what it reads: one pass over the fabric collecting the figures it judges;
//   coverage   how much of the fleet had them (none at all: Skipped, never "healthy");
//   judge      what each finding means, one judgement after another;
//   clearance  what a healthy fleet looks like, said with this fleet's figures.
// The sequence itself (skip without data, clear only when nothing was found) is written once,
// here, not in every probe.
#pragma once

#include <utility>
#include <vector>

#include "probes/judgement.h"
#include "probes/probe.h"

namespace netdoctor::probes {

template <typename Survey>
class FleetProbe : public Probe {
 public:
  explicit FleetProbe(ProbeSpec spec) : m_spec(std::move(spec)) {}

  const ProbeSpec& spec() const final { return m_spec; }

  ProbeResult run(const ProbeContext& context) const final {
    Judgement judgement(m_spec, context);
    const Survey fleet = survey(judgement);
    if (judgement.cover(coverage(fleet))) {
      judge(fleet, judgement);
      if (!judgement.found()) {
        judgement.clear(clearance(fleet, judgement));
      }
    }
    ProbeResult result = judgement.take();
    result.probe_id = m_spec.id;
    return result;
  }

 protected:
  // May note what it met on the way (counter resets).
  virtual Survey survey(Judgement& judgement) const = 0;
  virtual std::vector<Coverage> coverage(const Survey& fleet) const = 0;
  virtual void judge(const Survey& fleet, Judgement& judgement) const = 0;
  virtual Clearance clearance(const Survey& fleet, const Judgement& judgement) const = 0;

 private:
  ProbeSpec m_spec;
};

}  // namespace netdoctor::probes
