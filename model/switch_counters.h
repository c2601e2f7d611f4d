// A SONiC switch's counters in one sample: `show interfaces counters`, `show pfc counters`,
// `show queue counters` and `show pfcwd stats`, as the port metrics listed at model::SwitchPort.
#pragma once

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "model/switch_ports.h"

namespace netdoctor::model {

// Appends one CounterSample at `at` to every port's series. A port first seen in this sample's
// tables is added, with empty (absent) readings for the samples before. Outcomes recorded into
// sw.sources. REQUIRES: sw.captured_at ends with `at` and every port's series holds one sample
// per earlier time of sw.captured_at (or fewer, for ports the earlier samples did not show).
void read_switch_counters(SourceLog& log, const SampleSource& sample, double at, PortIndex& ports,
                          Switch& sw);

}  // namespace netdoctor::model
