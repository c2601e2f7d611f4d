#include "kb/toml_reader.h"

#include <fmt/format.h>

#include <algorithm>

namespace netdoctor::kb {

Result<toml::table> parse_toml(std::string_view text, const std::string& file) {
  // toml++ reports syntax errors by exception; they stop here, as Errors.
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& error) {
    return toml_error(file, error.source(), std::string(error.description()));
  }
}

Error toml_error(const std::string& file, const toml::source_region& where, std::string message) {
  return make_error(ErrorCode::Parse, std::move(message),
                    fmt::format("{}:{}", file, where.begin.line));
}

int line_of(const toml::node& node) {
  return static_cast<int>(node.source().begin.line);
}

namespace {

Error missing_key(const toml::table& table, std::string_view key, const std::string& file,
                  std::string_view type) {
  return toml_error(file, table.source(), fmt::format("missing {} key '{}'", type, key));
}

Error wrong_type(const toml::node& node, std::string_view key, const std::string& file,
                 std::string_view type) {
  return toml_error(file, node.source(), fmt::format("key '{}' must be {}", key, type));
}

}  // namespace

Status check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed,
                  const std::string& file, std::string_view what) {
  for (const auto& [key, value] : table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end()) {
      return toml_error(file, key.source(), fmt::format("unknown key '{}' in {}", key.str(), what));
    }
  }
  return {};
}

Result<std::string> require_string(const toml::table& table, std::string_view key,
                                   const std::string& file) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    return missing_key(table, key, file, "string");
  }
  const auto* text = node->as_string();
  if (text == nullptr) {
    return wrong_type(*node, key, file, "a string");
  }
  if (text->get().empty()) {
    return toml_error(file, node->source(), fmt::format("key '{}' must not be empty", key));
  }
  return text->get();
}

Result<std::string> optional_string(const toml::table& table, std::string_view key,
                                    const std::string& file) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    return std::string();
  }
  const auto* text = node->as_string();
  if (text == nullptr) {
    return wrong_type(*node, key, file, "a string");
  }
  return text->get();
}

Result<std::vector<std::string>> string_list(const toml::table& table, std::string_view key,
                                             const std::string& file, bool required) {
  std::vector<std::string> out;
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    if (required) {
      return missing_key(table, key, file, "list");
    }
    return out;
  }
  const auto* array = node->as_array();
  if (array == nullptr) {
    return wrong_type(*node, key, file, "a list of strings");
  }
  for (const auto& item : *array) {
    const auto* text = item.as_string();
    if (text == nullptr) {
      return wrong_type(item, key, file, "a list of strings");
    }
    out.push_back(text->get());
  }
  if (required && out.empty()) {
    return toml_error(file, node->source(), fmt::format("list '{}' must not be empty", key));
  }
  return out;
}

Result<std::optional<double>> optional_number(const toml::table& table, std::string_view key,
                                              const std::string& file) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    return std::optional<double>();
  }
  if (const auto* real = node->as_floating_point()) {
    return std::optional<double>(real->get());
  }
  if (const auto* whole = node->as_integer()) {
    return std::optional<double>(static_cast<double>(whole->get()));
  }
  return wrong_type(*node, key, file, "a number");
}

Result<std::optional<bool>> optional_bool(const toml::table& table, std::string_view key,
                                          const std::string& file) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    return std::optional<bool>();
  }
  if (const auto* flag = node->as_boolean()) {
    return std::optional<bool>(flag->get());
  }
  return wrong_type(*node, key, file, "true or false");
}

Result<std::vector<const toml::table*>> table_array(const toml::table& table, std::string_view key,
                                                    const std::string& file) {
  std::vector<const toml::table*> out;
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    return out;
  }
  const auto* array = node->as_array();
  if (array == nullptr) {
    return wrong_type(*node, key, file, "an array of tables ([[" + std::string(key) + "]])");
  }
  for (const auto& item : *array) {
    const auto* entry = item.as_table();
    if (entry == nullptr) {
      return wrong_type(item, key, file, "an array of tables ([[" + std::string(key) + "]])");
    }
    out.push_back(entry);
  }
  return out;
}

}  // namespace netdoctor::kb
