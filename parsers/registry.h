// The list of parser kinds (the `netdoctor parse KIND` names) and one dispatch to JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct ParserKind {
  std::string_view name;         // "ethtool-stats"
  std::string_view description;  // one line
};

const std::vector<ParserKind>& parser_kinds();

bool is_parser_kind(std::string_view kind);

// InvalidArgument for an unknown kind; the parser's Parse error otherwise.
Result<nlohmann::json> parse_to_json(std::string_view kind, std::string_view text);

}  // namespace netdoctor::parsers
