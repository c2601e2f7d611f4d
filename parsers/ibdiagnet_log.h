// ibdiagnet2.log (NVIDIA ibdiagnet): the run's log, stage by stage
//   ---------------------------------------------
//   Discovery
//   -W- Duplicated Node Description detection skipped
//   -E- Link: ... (errors), -I- ... (information)
//   ...
//   Master SM: Port=0 LID=180 GUID=0xb0cf0e0300d33fc0 devid=54002 Priority:12 Node_Type=SW ...
//   Standby SM : No Standby SM
//   ---------------------------------------------
//   Summary
//   -I- Stage                               Warnings   Errors     Comment
//   -I- Discovery                           11         0
// A stage is the line after a rule of dashes. Every -E- and -W- line is kept as printed (the
// text after the marker) with its stage and the indented lines under it; the summary table gives
// each stage's counts.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbdiagLogMessage {
  std::string stage;  // "Discovery" ("" before the first stage)
  std::string text;   // after "-E- " / "-W- "
  // The indented lines printed under it, trimmed ("symbol_error_counter : 12 (threshold=1)").
  std::vector<std::string> details;
};

struct IbdiagStageCount {
  std::string stage;  // "Subnet Manager"
  std::uint64_t warnings = 0;
  std::uint64_t errors = 0;
  std::string comment;  // "" or what the Comment column says (e.g. "skipped")
};

// "Master SM: Port=0 LID=180 GUID=0x... devid=54002 Priority:12 Node_Type=SW Node_Description=..."
struct IbdiagLogSm {
  std::string role;  // "master", "standby"
  std::optional<std::uint32_t> port;
  std::optional<std::uint32_t> lid;
  std::optional<std::uint64_t> guid;
  std::optional<std::uint32_t> device_id;
  std::optional<std::uint32_t> priority;
  std::string node_type;         // "SW", "CA"
  std::string node_description;  // as printed, to the end of the line
};

// The fields of one SM line as ibdiagnet prints them in the log and in ibdiagnet2.sm
// ("Port=0 lid=0x00b4 guid=0x... dev=54002 priority:12"): keys in any case, '=' or ':'.
IbdiagLogSm read_ibdiag_sm(std::string role, std::string_view fields);

struct IbdiagLog {
  std::string version;              // "Running version:" as printed
  std::string command;              // "Running command:"
  std::string timestamp;            // "Running timestamp:"
  std::vector<std::string> stages;  // in order
  std::vector<IbdiagLogMessage> errors;
  std::vector<IbdiagLogMessage> warnings;
  std::vector<IbdiagStageCount> summary;
  std::vector<IbdiagLogSm> managers;
  bool no_standby = false;  // "Standby SM : No Standby SM"
  // "Fabric Summary" counts ("Total Nodes" -> 272, "IB Switches" -> 9).
  std::map<std::string, std::uint64_t> fabric_summary;
};

// Fails when no line carries an ibdiagnet marker (-I-, -W-, -E-) nor "Running version".
Result<IbdiagLog> parse_ibdiagnet_log(std::string_view text);

nlohmann::json to_json(const IbdiagLogSm& sm);
nlohmann::json to_json(const IbdiagLog& log);

}  // namespace netdoctor::parsers
