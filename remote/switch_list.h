// The switch list `collect --switches FILE` reads: one switch a line, "NAME URL KIND", blank
// lines and '#' comments ignored.
//   KIND sonic  GET URL/<command's sos name> for each SONiC `show` command netdoctor reads
//               (URL/show_interfaces_counters, ...): SONiC text served over HTTPS
//   KIND eapi   Arista EOS eAPI: one JSON-RPC runCmds POST to URL (https://sw/command-api)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::remote {

enum class SwitchApi { Sonic, Eapi };
const char* to_string(SwitchApi api);

struct SwitchTarget {
  std::string name;  // the directory name under switches/
  std::string url;
  SwitchApi api = SwitchApi::Sonic;
};

// InvalidArgument "<source>:<line>: why" for a malformed line, an unknown kind, a name that
// cannot be a directory, a repeated name, or a URL with credentials in it.
Result<std::vector<SwitchTarget>> parse_switch_list(std::string_view text, std::string_view source);

}  // namespace netdoctor::remote
