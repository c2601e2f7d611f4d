// load_switch: a SONiC switch's ports (status, LLDP peers, PFC watchdog config from the latest
// sample) and their counters in every sample.
#include "model/loader.h"
#include "model/sample_times.h"
#include "model/source_reading.h"
#include "model/switch_counters.h"
#include "model/switch_pfcwd.h"
#include "model/switch_ports.h"

namespace netdoctor::model {

Switch load_switch(const std::string& name, const std::vector<MachineSample>& samples,
                   std::vector<Problem>& problems, const SourceFilter& filter) {
  Switch sw;
  sw.name = name;
  SourceLog log(sw.entity(), problems, filter);
  if (samples.empty()) {
    return sw;
  }
  PortIndex ports(sw);
  read_switch_ports(log, *samples.back().source, ports, sw);
  read_pfcwd_config(log, *samples.back().source, ports, sw);
  for (const auto& timed : sample_times(log, samples, sw.sources)) {
    sw.captured_at.push_back(timed.at);
    // Ports first seen in this sample's tables are added; earlier samples stay absent there.
    read_switch_counters(log, *samples[timed.index].source, timed.at, ports, sw);
  }
  return sw;
}

}  // namespace netdoctor::model
