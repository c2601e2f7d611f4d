// Site configuration, layered as ccache layers its own: built-in defaults <
// /etc/netdoctor/netdoctor.toml < $XDG_CONFIG_HOME/netdoctor/netdoctor.toml (else
// ~/.config/...) < --config FILE < --set KEY=VALUE < a command's own flag (--roce-priority).
// Every key is declared once in the table of settings.cc with its type, default and meaning;
// an unknown key or a bad value is an error naming the file and line (the CLI exits 2).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::cli {

enum class SettingType {
  Integer,   // whole number within [min, max]
  Fraction,  // "5%", 5 (percent) or 0.05; stored as the fraction
  Seconds,   // a positive number of seconds
  Path,      // a file path (empty = the built-in rule)
  Choice,    // one of `choices`
};

struct SettingSpec {
  std::string_view key;  // "section.name", as written in the file's [section]
  SettingType type;
  std::string_view default_text;
  std::string_view meaning;  // one line for `config show`
  double min = 0.0;          // Integer only
  double max = 0.0;
  std::vector<std::string_view> choices;  // Choice only
};

// Every setting netdoctor reads, in `config show` order.
const std::vector<SettingSpec>& setting_specs();

struct SettingValue {
  const SettingSpec* spec = nullptr;
  std::string text;     // canonical form, as `config show` prints it
  double number = 0.0;  // Integer, Fraction, Seconds
  std::string origin;   // "default", "/etc/netdoctor/netdoctor.toml:4", "--set", "--threshold"
  bool is_default() const { return origin == "default"; }
};

// Where the layers come from; empty paths are skipped. A missing site or user file is normal;
// a missing --config file is an error.
struct SettingSources {
  std::string system_file;  // /etc/netdoctor/netdoctor.toml unless $NETDOCTOR_SYSTEM_CONFIG
  std::string user_file;    // $XDG_CONFIG_HOME/netdoctor/netdoctor.toml or ~/.config/...
  std::string config_file;  // --config
  std::vector<std::string> set_values;  // --set KEY=VALUE, in order
  static SettingSources from_environment();
};

// The environment variable `name`, or "" when it is not set.
std::string env_or_empty(const char* name);

class Settings {
 public:
  // Every key at its built-in default.
  Settings();
  static Result<Settings> load(const SettingSources& sources);

  const SettingValue& get(std::string_view key) const;  // REQUIRES: a declared key
  double number(std::string_view key) const { return get(key).number; }
  const std::string& text(std::string_view key) const { return get(key).text; }

  // Applies one value on top of the current ones; `origin` names where it came from.
  Status set(std::string_view key, std::string_view value, const std::string& origin);
  // A TOML file's keys ([section] tables of key = value); errors name file:line.
  Status apply_file_text(std::string_view text, const std::string& file);

  const std::vector<SettingValue>& all() const { return m_values; }
  // The values that differ from the built-in defaults' origin: what a result needs to be
  // reproduced with.
  std::vector<const SettingValue*> non_defaults() const;

 private:
  std::vector<SettingValue> m_values;  // one per spec, same order
};

}  // namespace netdoctor::cli
