// ibdiagnet2.sm: ibdiagnet's subnet manager report, one block per SM it found.
//
//   ibdiagnet fabric SM report
//
//     SM - master
//       Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12
//     SM - standby
//       Port=1 lid=0x0001 guid=0x... dev=4123 priority:10
//
// between ibdiagnet's "# ..." header and trailer comments. A report with no block found no SM.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "parsers/ibdiagnet_log.h"

namespace netdoctor::parsers {

struct IbdiagSmReport {
  std::vector<IbdiagLogSm> managers;  // in file order; role "master" or "standby"
};

// Fails when the text holds neither the report's title nor an "SM - <role>" block.
Result<IbdiagSmReport> parse_ibdiagnet_sm(std::string_view text);
nlohmann::json to_json(const IbdiagSmReport& report);

}  // namespace netdoctor::parsers
