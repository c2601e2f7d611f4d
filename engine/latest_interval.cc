#include "engine/latest_interval.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "base/time_format.h"
#include "model/interval_view.h"
#include "model/source_names.h"

namespace netdoctor::engine {
namespace {

bool same_observation(const probes::Finding& a, const probes::Finding& b) {
  return a.signal == b.signal && share_a_place(a.entities, b.entities);
}

// A latest-interval finding the whole window also has is added only when it is clearly stronger
// there (the window diluted it), not for the noise between two readings of a steady fault.
constexpr double k_clearly_stronger = 0.1;

}  // namespace

bool share_a_place(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() || b.empty()) {
    return true;
  }
  return std::any_of(a.begin(), a.end(), [&b](const std::string& entity) {
    return std::find(b.begin(), b.end(), entity) != b.end();
  });
}

bool reads_moving_figures(const probes::Probe& probe) {
  if (probe.cost() == probes::CostClass::Active) {
    return false;  // a test run now: it has no interval
  }
  const auto& moving = model::source::moving_sources();
  return std::any_of(probe.reads().begin(), probe.reads().end(),
                     [&moving](const std::string& source) { return moving.count(source) > 0; });
}

LatestInterval::LatestInterval(const model::IntervalViews& views) {
  const std::size_t intervals = views.count();
  if (intervals < 2) {
    return;
  }
  m_view = std::make_unique<const model::Fabric>(views.view(intervals));
  m_from = views.started_at(intervals);
  m_to = views.ended_at(intervals);
}

LatestInterval::LatestInterval(const model::Fabric& fabric) {
  if (model::interval_count(fabric) >= 2) {
    *this = LatestInterval(model::IntervalViews(fabric));
  }
}

void LatestInterval::fold_into(const probes::Probe& probe, const probes::ProbeOptions& options,
                               const kb::Catalog& catalog, probes::ProbeResult& whole) const {
  if (!has_view() || whole.status != probes::ProbeStatus::Ran || !reads_moving_figures(probe)) {
    return;
  }
  probes::ProbeResult latest;
  try {
    latest = probe.run(probes::ProbeContext{*m_view, options});
  } catch (const std::exception&) {
    return;  // the whole-window run stands; a failure here is the probe's, already reported
  }
  if (latest.status != probes::ProbeStatus::Ran) {
    return;
  }
  std::vector<probes::Finding> news;
  for (probes::Finding& finding : latest.findings) {
    if (!catalog.supports_any(probe.id(), finding.signal)) {
      continue;
    }
    double strongest_seen = -1.0;
    for (const probes::Finding& seen : whole.findings) {
      if (same_observation(finding, seen)) {
        strongest_seen = std::max(strongest_seen, seen.strength);
      }
    }
    if (finding.strength > strongest_seen + k_clearly_stronger) {
      news.push_back(std::move(finding));
    }
  }
  if (news.empty()) {
    return;
  }
  // The whole window's "quiet" for what storms now was an average: it no longer clears. (A signal
  // that also supports a cause is an observation in its own right and stays.)
  std::erase_if(whole.findings, [&](const probes::Finding& seen) {
    return catalog.clears_any(probe.id(), seen.signal) &&
           !catalog.supports_any(probe.id(), seen.signal) &&
           std::any_of(news.begin(), news.end(), [&seen](const probes::Finding& now) {
             return share_a_place(now.entities, seen.entities);
           });
  });
  const std::string when = fmt::format(
      "in the latest interval ({} to {}), diluted in the whole window: ", iso8601_utc(m_from),
      iso8601_utc(m_to));
  for (probes::Finding& finding : news) {
    finding.summary = when + finding.summary;
    whole.findings.push_back(std::move(finding));
  }
}

}  // namespace netdoctor::engine
