// A SONiC switch's ports: found by name in any table that lists them, described by
// `show interfaces status` and `show lldp table` of the latest sample.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"

namespace netdoctor::model {

// The ports of one switch by name; a name not seen before appends a new port to sw.ports.
// REQUIRES: `sw` outlives the index, and its ports are added only through it.
class PortIndex {
 public:
  explicit PortIndex(Switch& sw);
  // The port's position in sw.ports, appending the port when new.
  std::size_t position(const std::string& name);
  SwitchPort& get(const std::string& name) { return m_switch.ports[position(name)]; }

 private:
  Switch& m_switch;
  std::unordered_map<std::string, std::size_t> m_index;
};

// Alias, speed, MTU, oper and admin state from `show interfaces status`; LLDP peers from `show
// lldp table`. Outcomes recorded into sw.sources.
void read_switch_ports(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw);

}  // namespace netdoctor::model
