// One fabric sample's views (fabric/<sample>/, spec/bundle.md 1.1) read and parsed: every file
// under sos_commands/<any group>/ by its mangled name, perfquery files by their `perfquery`
// prefix. What became of each view is recorded into the fabric's SourceMap; an unreadable or
// unparsable file is a Problem naming it, and the rest of the sample still loads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "model/ib_diagnet.h"
#include "model/source_reading.h"
#include "parsers/iblinkinfo.h"
#include "parsers/ibnetdiscover.h"
#include "parsers/ibnodes.h"
#include "parsers/ibqueryerrors.h"
#include "parsers/perfquery.h"
#include "parsers/sminfo.h"

namespace netdoctor::model {

struct IbSampleViews {
  std::string name;  // the sample directory
  double captured_at = 0.0;
  std::vector<parsers::IbNetDiscover> discovered;  // ibnetdiscover, ibnetdiscover -p
  std::optional<parsers::IbLinkInfo> links;
  std::vector<parsers::IbNode> nodes;         // ibswitches, ibhosts, ibnodes together
  std::vector<parsers::Perfquery> perfquery;  // one per perfquery file
  std::optional<parsers::IbQueryErrors> errors;
  std::optional<parsers::SmInfo> sminfo;  // nullopt: absent, withheld or no SM answered
  bool sminfo_ran = false;  // this sample's sminfo was read: it answered or said no SM did
  IbDiagnetViews diagnet;   // var/tmp/ibdiagnet2/ibdiagnet2.*, where copied in
};

// Reads every view of `sample` that `log` admits, recording each into `sources`.
IbSampleViews read_ib_views(const MachineSample& sample, SourceLog& log, SourceMap& sources);

}  // namespace netdoctor::model
