// JSON as text for output and storage. Strings from captured files may hold bytes that are
// not UTF-8 (garbage, truncation); nlohmann's default dump throws on them, which would turn
// one bad file into a failed command. Invalid bytes become U+FFFD instead.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace netdoctor {

inline std::string json_text(const nlohmann::json& value, int indent = -1) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace netdoctor
