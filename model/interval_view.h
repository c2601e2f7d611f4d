// The fabric as one interval of a long capture saw it: every machine's counter series cut down to
// the two samples that bound the interval, all else as captured. Running a probe on each
// interval's view in turn says when its finding first showed (engine/onset.h) and what each
// interval's rate was, at the cost of one probe run per interval: linear in the samples.
#pragma once

#include <cstddef>

#include "model/fabric.h"

namespace netdoctor::model {

// The intervals of a capture: the most samples any machine (host, switch, fabric view) has, minus
// one; 0 for a capture of one sample. Cheap: reads sizes only.
std::size_t interval_count(const Fabric& fabric);

class IntervalViews {
 public:
  // Keeps a reference: `fabric` must outlive this object. Copies the fabric once, without its
  // counter samples, as the frame every view starts from.
  explicit IntervalViews(const Fabric& fabric);

  // interval_count(fabric).
  std::size_t count() const { return m_count; }

  // Interval `interval` (1-based: from sample interval-1 to sample interval of each machine).
  // A machine with fewer samples has none in it (its rates read Absent, as for a missing file).
  // REQUIRES: 1 <= interval <= count()
  Fabric view(std::size_t interval) const;

  // When interval `interval` began and ended: the median over the hosts (else the switches,
  // else the fabric views) of their clocks at its two samples, so a host with a skewed clock
  // does not move it. Seconds since the epoch; 0 when no machine has those samples.
  double started_at(std::size_t interval) const;
  double ended_at(std::size_t interval) const;

 private:
  double median_time(std::size_t sample) const;

  const Fabric& m_fabric;
  Fabric m_frame;
  std::size_t m_count = 0;
};

}  // namespace netdoctor::model
