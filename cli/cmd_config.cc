// `netdoctor config show [--format text|json] [--config FILE] [--set KEY=VALUE]...`: every
// setting in effect, its value and the layer it came from (cli/settings.h), so an operator sees
// what a site file or a --set changes before running anything with it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/json_text.h"
#include "base/strings.h"
#include "cli/command.h"

namespace netdoctor::cli {
namespace {

std::string shown(const SettingValue& value) {
  return value.text.empty() ? "(none)" : value.text;
}

// A threshold's value with its unit ("100 frames/s"); fractions already read "5%".
std::string shown_with_unit(const SettingValue& value) {
  const std::string& unit = value.spec->unit;
  if (unit.empty() || unit == "fraction" || unit == "count") {
    return shown(value);
  }
  return shown(value) + " " + unit;
}

void show_settings(const std::string& format, Context& context) {
  const auto& values = context.settings.all();
  if (format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const SettingValue& value : values) {
      nlohmann::json item = {{"key", value.spec->key},
                             {"value", value.text},
                             {"default", value.spec->default_text},
                             {"origin", value.origin},
                             {"meaning", value.spec->meaning}};
      if (!value.spec->unit.empty()) {
        item["unit"] = value.spec->unit;
      }
      out.push_back(std::move(item));
    }
    context.out << json_text(out, 2) << "\n";
    return;
  }
  std::size_t key_width = 0;
  std::size_t value_width = 0;
  for (const SettingValue& value : values) {
    key_width = std::max(key_width, value.spec->key.size());
    value_width = std::max(value_width, shown_with_unit(value).size());
  }
  for (const SettingValue& value : values) {
    // Values come from the operator's own files, but a path or origin may still carry
    // control bytes: they are shown, never sent raw to the terminal.
    context.out << fmt::format("{:<{}} = {:<{}}  ({})  {}\n", value.spec->key, key_width,
                               printable(shown_with_unit(value)), value_width,
                               printable(value.origin), value.spec->meaning);
  }
}

}  // namespace

void add_config_command(CLI::App& app, Context& context) {
  auto* config = app.add_subcommand("config", "The site configuration in effect");
  config->require_subcommand(1);
  auto format = std::make_shared<std::string>("text");
  auto* show = config->add_subcommand(
      "show",
      "Every setting and where its value came from: default < /etc/netdoctor/netdoctor.toml < "
      "$XDG_CONFIG_HOME/netdoctor/netdoctor.toml < --config FILE < --set KEY=VALUE");
  show->add_option("--format", *format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  show->callback([format, &context] { show_settings(*format, context); });
}

}  // namespace netdoctor::cli
