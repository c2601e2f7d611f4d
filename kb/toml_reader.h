// Strict reading of kb TOML files: every error names file:line, unknown keys are rejected
// (a typo in a weight's key must not silently drop evidence).
#pragma once

#include <toml++/toml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::kb {

// Parses `text`; a syntax error becomes an Error with context "file:line".
Result<toml::table> parse_toml(std::string_view text, const std::string& file);

Error toml_error(const std::string& file, const toml::source_region& where, std::string message);

int line_of(const toml::node& node);

// Rejects any key of `table` not in `allowed`, naming the key and its line.
Status check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed,
                  const std::string& file, std::string_view what);

// A required string / optional string / string list / number; errors name file:line.
Result<std::string> require_string(const toml::table& table, std::string_view key,
                                   const std::string& file);
Result<std::string> optional_string(const toml::table& table, std::string_view key,
                                    const std::string& file);
Result<std::vector<std::string>> string_list(const toml::table& table, std::string_view key,
                                             const std::string& file, bool required);
Result<std::optional<double>> optional_number(const toml::table& table, std::string_view key,
                                              const std::string& file);
Result<std::optional<bool>> optional_bool(const toml::table& table, std::string_view key,
                                          const std::string& file);

// The tables of an array-of-tables key ([[key]]); missing key -> empty.
Result<std::vector<const toml::table*>> table_array(const toml::table& table, std::string_view key,
                                                    const std::string& file);

}  // namespace netdoctor::kb
