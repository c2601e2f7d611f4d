// Arista EOS eAPI: the JSON-RPC runCmds request netdoctor sends and the mapping of its JSON
// answer onto the switch model, by rendering the SONiC command outputs the switch loader reads
// (model/switch_loader.cc):
//   show interfaces counters (+ errors) -> show interfaces counters: RX_OK = in unicast +
//       multicast + broadcast packets, RX_ERR = inErrors, RX_DRP = inDiscards (TX alike);
//       rates and utilization are N/A (the loader takes rates from two samples)
//   show interfaces status -> show interfaces status: speed from bandwidth, Oper up when
//       linkStatus is "connected", Admin down when "disabled"
//   show lldp neighbors -> show lldp table
// PFC counters are not mapped: no recorded eAPI answer of `show priority-flow-control counters`
// was found to map from (docs/switch-apis.md says what was searched and found).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::remote {

// The eAPI commands, in the order sent.
const std::vector<std::string>& eapi_commands();
// The runCmds request body (JSON, format "json").
std::string eapi_request_body();

struct EapiAnswer {
  std::map<std::string, std::string> sonic_outputs;  // SONiC command line -> text
};

// Parse for a body that is not JSON or lacks one result per command; InvalidArgument with
// eAPI's own message for a JSON-RPC error answer.
Result<EapiAnswer> map_eapi_answer(std::string_view body);

}  // namespace netdoctor::remote
