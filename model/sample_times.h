// When each sample of a machine was taken, and so which samples enter its counter series.
// Shared by the host and switch loaders, so both treat a missing time the same way.
#pragma once

#include <cstddef>
#include <vector>

#include "base/bundle.h"
#include "model/fabric.h"
#include "model/source_reading.h"

namespace netdoctor::model {

struct TimedSample {
  std::size_t index = 0;  // into the machine's samples
  double at = 0.0;        // its captured_at; 0 when no sample has one
};

// The samples of the counter series, in sample order. A sample without a usable time cannot
// anchor a rate and is left out, recorded into `sources` as Malformed and logged as a problem;
// unless no sample has a time: then all stay, at time 0, and rates say BadWindow.
std::vector<TimedSample> sample_times(SourceLog& log, const std::vector<MachineSample>& samples,
                                      SourceMap& sources);

}  // namespace netdoctor::model
