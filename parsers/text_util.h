// Line-level helpers shared by the parsers (not part of the public parser API).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers::detail {

// Parse error unless the text is non-empty, non-blank and free of NUL / control bytes that
// never occur in tool output. `kind` names the expected output in the message.
Status check_text(std::string_view text);

// A shell prompt or an echoed command line: "[user@host dir]$ cmd", "user@host:~$ cmd",
// "root@sonic:~# cmd", "$ cmd", "# cmd".
bool is_prompt_line(std::string_view line);

// Drops a leading "> " (or ">") quote prefix, repeatedly (nested quotes).
std::string_view strip_quote(std::string_view line);

// "key: value" split on the first ':' (both sides trimmed); nullopt when there is no ':'.
struct KeyValue {
  std::string_view key;
  std::string_view value;
};
std::optional<KeyValue> split_key_value(std::string_view line);

// Leading unsigned integer of `s` ("4096 (5)" -> 4096); nullopt when `s` does not start with one.
std::optional<std::uint64_t> leading_u64(std::string_view s);
// Number in parentheses ("PORT_ACTIVE (4)" -> 4).
std::optional<std::uint64_t> paren_u64(std::string_view s);
// Text before " (" ("PORT_ACTIVE (4)" -> "PORT_ACTIVE"), trimmed.
std::string_view before_paren(std::string_view s);

// JSON helpers: null for nullopt.
template <typename T>
nlohmann::json opt(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

Error parse_error(std::string message);

}  // namespace netdoctor::parsers::detail
