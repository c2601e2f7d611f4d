#include "engine/onset.h"

#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "engine/latest_interval.h"
#include "model/interval_view.h"

namespace netdoctor::engine {
namespace {

// The deciding signal of `cause` that can move inside a capture: of the evidence that supported
// it from counters, the item that weighed most. One signal, so the timeline reads one figure in
// one unit; a state the latest sample shows (a queue stormed now) would light every interval.
std::set<std::pair<std::string, std::string>> moving_support(
    const RankedCause& cause, const probes::ProbeRegistry& registry) {
  const EvidenceItem* deciding = nullptr;
  for (const EvidenceItem& item : cause.evidence) {
    if (item.weight <= 0.0 || (deciding != nullptr && item.weight <= deciding->weight)) {
      continue;
    }
    const probes::Probe* probe = registry.find(item.probe);
    if (probe != nullptr && reads_moving_figures(*probe)) {
      deciding = &item;
    }
  }
  if (deciding == nullptr) {
    return {};
  }
  return {{deciding->probe, deciding->signal}};
}

// What one interval's probe runs found, by probe id.
using IntervalFindings = std::map<std::string, std::vector<probes::Finding>>;

IntervalReading read_interval(const IntervalFindings& found,
                              const std::set<std::pair<std::string, std::string>>& support,
                              const RankedCause& cause) {
  IntervalReading reading;
  for (const auto& [probe_id, signal] : support) {
    const auto at = found.find(probe_id);
    if (at == found.end()) {
      continue;
    }
    for (const probes::Finding& finding : at->second) {
      if (finding.signal != signal || !share_a_place(finding.entities, cause.entities)) {
        continue;
      }
      reading.shows = true;
      if (finding.value && (!reading.value || *finding.value > *reading.value)) {
        reading.value = finding.value;
        reading.unit = finding.unit;
      }
    }
  }
  return reading;
}

std::vector<probes::Finding> run_quietly(const probes::Probe& probe,
                                         const probes::ProbeContext& context) {
  try {
    probes::ProbeResult result = probe.run(context);
    if (result.status == probes::ProbeStatus::Ran) {
      return std::move(result.findings);
    }
  } catch (const std::exception&) {
    // The whole-window run already reported this probe's failure; an interval adds nothing.
  }
  return {};
}

}  // namespace

void find_onsets(const model::IntervalViews& views, const probes::ProbeRegistry& registry,
                 const probes::ProbeOptions& options, std::vector<RankedCause>& causes) {
  if (views.count() < 2) {
    return;  // one interval is the whole window: nothing to place in time
  }
  std::vector<std::set<std::pair<std::string, std::string>>> support;
  std::set<std::string> probe_ids;
  for (const RankedCause& cause : causes) {
    support.push_back(moving_support(cause, registry));
    for (const auto& [probe_id, signal] : support.back()) {
      probe_ids.insert(probe_id);
    }
  }
  if (probe_ids.empty()) {
    return;
  }
  std::vector<std::vector<IntervalReading>> timelines(causes.size());
  for (std::size_t interval = 1; interval <= views.count(); ++interval) {
    const model::Fabric view = views.view(interval);
    const probes::ProbeContext context{view, options};
    IntervalFindings found;
    for (const std::string& id : probe_ids) {
      found[id] = run_quietly(*registry.find(id), context);
    }
    for (std::size_t c = 0; c < causes.size(); ++c) {
      if (support[c].empty()) {
        continue;
      }
      IntervalReading reading = read_interval(found, support[c], causes[c]);
      reading.interval = interval;
      reading.from = views.started_at(interval);
      reading.to = views.ended_at(interval);
      timelines[c].push_back(std::move(reading));
    }
  }
  for (std::size_t c = 0; c < causes.size(); ++c) {
    const auto& timeline = timelines[c];
    const auto first = std::find_if(timeline.begin(), timeline.end(),
                                    [](const IntervalReading& r) { return r.shows; });
    if (first == timeline.end()) {
      continue;  // the whole window shows it, no single interval does: no onset to claim
    }
    Onset onset;
    onset.interval = first->interval;
    onset.intervals = views.count();
    onset.from = first->from;
    onset.to = first->to;
    onset.timeline = timeline;
    causes[c].onset = std::move(onset);
  }
}

void find_onsets(const model::Fabric& fabric, const probes::ProbeRegistry& registry,
                 const probes::ProbeOptions& options, std::vector<RankedCause>& causes) {
  if (model::interval_count(fabric) >= 2) {
    find_onsets(model::IntervalViews(fabric), registry, options, causes);
  }
}

}  // namespace netdoctor::engine
