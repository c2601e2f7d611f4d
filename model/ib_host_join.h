// The InfiniBand subnet joined with the hosts' own view of their HCAs: an HCA node whose
// "<host>/<dev>" names a loaded host's NIC takes that NIC's firmware, and its ports the NIC's
// active MTU; each such NIC port's sysfs sm_lid (the SM its port was told of) is added to the
// fabric sample nearest the host sample in time, once per SM LID, as a manager of source
// "sysfs port" (only its LID is known there).
#pragma once

#include "base/bundle.h"
#include "model/fabric.h"
#include "model/source_reading.h"

namespace netdoctor::model {

// REQUIRES: fabric.hosts loaded and sorted; fabric.ib's nodes and samples built.
void join_ib_hosts(const Bundle& bundle, SourceLog& log, Fabric& fabric);

}  // namespace netdoctor::model
