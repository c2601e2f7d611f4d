// ibdiagnet's files of one fabric sample merged into the InfiniBand model (model/ib_fabric.h):
// `fabric/<sample>/var/tmp/ibdiagnet2/ibdiagnet2.{db_csv,pm,net_dump,log}` (spec/bundle.md,
// "InfiniBand fabric views"). model/ib_loader.cc reads and parses the files and calls
// apply_ibdiagnet once per sample, after the infiniband-diags views of that sample.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "model/ib_fabric.h"
#include "parsers/ibdiagnet_db_csv.h"
#include "parsers/ibdiagnet_log.h"
#include "parsers/ibdiagnet_net_dump.h"
#include "parsers/ibdiagnet_pm.h"
#include "parsers/ibdiagnet_sm.h"

namespace netdoctor::model {

// The parsed ibdiagnet files of one fabric sample; any may be absent (not captured, or the
// loader recorded its read or parse failure as a Problem itself).
struct IbDiagnetViews {
  std::optional<parsers::IbdiagDbCsv> db_csv;      // ibdiagnet2.db_csv
  std::optional<parsers::IbdiagPm> pm;             // ibdiagnet2.pm
  std::optional<parsers::IbdiagNetDump> net_dump;  // ibdiagnet2.net_dump
  std::optional<parsers::IbdiagLog> log;           // ibdiagnet2.log
  std::optional<parsers::IbdiagSmReport> sm;       // ibdiagnet2.sm
  // Where they were read ("fabric/0/var/tmp/ibdiagnet2"): the context of Problems and sources.
  std::string dir;

  bool empty() const { return !db_csv && !pm && !net_dump && !log && !sm; }
};

// Merges `views` of fabric sample `sample` into `ib`:
// - nodes (NODES, else the net_dump blocks and their neighbours) are created when the model does
//   not hold their GUID yet, named by name_ib_nodes (model/ib_naming.h); description, system
//   image GUID, LID, port count, vendor / device id, model (description suffix) and firmware
//   (NODES_INFO, GENERAL_INFO_SMP) fill what earlier views left empty;
// - ports (PORTS, else net_dump): state, physical state, width, speed, supported width / speed,
//   MTU, LID; peers from LINKS (else net_dump's neighbour columns). Fields already set by an
//   earlier view (ibnetdiscover, iblinkinfo) are kept;
// - PMA counters (PM_INFO, else ibdiagnet2.pm) into port.samples[sample] as the canonical ib_*
//   metrics: the 64-bit *Extended value where present, else the 32-bit one (left out and recorded
//   in port.saturated when at its all-ones maximum); data in octets (PortXmitData x 4). A value
//   already in the sample (perfquery) wins. Each port's samples are sized to ib.samples.size()
//   with captured_at set;
// - ib.samples[sample].managers: every SM of SM_INFO (else the log's Master/Standby SM lines),
//   source "ibdiagnet"; sm_answered when ibdiagnet found one; diagnet_errors / diagnet_warnings:
//   the log's -E- / -W- lines as printed ("-E- <text>").
// `sample` indexes ib.samples (grown with empty samples when it is past the end). Sources
// (source::k_ibdiagnet) are recorded on ib and on every node ibdiagnet described; a truncated
// db_csv adds a Problem (what it held is still merged). Nodes end sorted (switches, routers, then
// HCAs, each by name) and ib.reindex() is called when nodes were added.
void apply_ibdiagnet(const IbDiagnetViews& views, std::size_t sample, IbFabric& ib,
                     std::vector<Problem>& problems);

}  // namespace netdoctor::model
