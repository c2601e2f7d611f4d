// A long capture is judged over its latest interval as well as over its whole window. A rate
// averaged over twenty samples hides a storm that began in the last one: the job is slow now,
// and the whole-window figure is a twentieth of what the fabric does now. So each probe that
// reads counters (model::source::moving_sources) runs a second time on the view of the latest
// interval (model/interval_view.h), and what that run finds beyond the whole-window run (a
// finding it lacks, or one clearly stronger now) joins the evidence, its summary saying it is the
// latest interval's figure. A clearing finding of the whole window that the latest interval
// contradicts (the queue was quiet on average, it storms now) is dropped: an average cannot clear
// what the fabric does now.
//
// Only positive findings are added: a fault the whole window shows and the latest interval does
// not (it stopped) stays in the diagnosis, its onset placing it in time (engine/onset.h).
// Cost: one more run of each counter probe, whatever the number of samples; none for a capture of
// two samples (its one interval is the whole window).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kb/catalog.h"
#include "model/fabric.h"
#include "model/interval_view.h"
#include "probes/probe.h"

namespace netdoctor::engine {

// True when `probe` reads figures that move inside a capture and is not an active test: what it
// finds can begin, or be diluted, inside the capture window.
bool reads_moving_figures(const probes::Probe& probe);

// Two lists of entities concern the same place when they share one; an empty list (fabric-wide)
// concerns every place.
bool share_a_place(const std::vector<std::string>& a, const std::vector<std::string>& b);

class LatestInterval {
 public:
  // Keeps its own copy of the latest interval, no reference to `fabric` or `views`. Without a view
  // (has_view() false) for a capture of fewer than three samples.
  explicit LatestInterval(const model::IntervalViews& views);
  // The same from a fabric, its interval views built here.
  explicit LatestInterval(const model::Fabric& fabric);

  bool has_view() const { return m_view != nullptr; }

  // Runs `probe` on the latest interval and folds into `whole` (its whole-window result) what that
  // run found beyond it. No effect without a view, for a probe that does not read moving figures,
  // or when `whole` did not run.
  void fold_into(const probes::Probe& probe, const probes::ProbeOptions& options,
                 const kb::Catalog& catalog, probes::ProbeResult& whole) const;

 private:
  std::unique_ptr<const model::Fabric> m_view;
  double m_from = 0.0;
  double m_to = 0.0;
};

}  // namespace netdoctor::engine
