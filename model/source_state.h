// What became of each data source of an entity: observed, absent, unreadable or malformed.
#pragma once

#include <map>
#include <string>

namespace netdoctor::model {

// What became of one data source (a file or command output) for one entity. "Absent" (not
// captured / feature missing), "Unreadable" and "Malformed" are never folded into "zero".
enum class Availability { Observed, Absent, Unreadable, Malformed };
const char* to_string(Availability availability);

struct SourceState {
  Availability availability = Availability::Absent;
  std::string detail;  // the file and the reason, when not Observed
};

// Sources are named by what they are ("ethtool -S", "sysfs net", "show lldp table"): the names
// of model/source_names.h.
using SourceMap = std::map<std::string, SourceState>;

}  // namespace netdoctor::model
