// Site configuration, layered as ccache layers its own: built-in defaults <
// /etc/netdoctor/netdoctor.toml < $XDG_CONFIG_HOME/netdoctor/netdoctor.toml (else
// ~/.config/...) < --config FILE < --set KEY=VALUE < a command's own flag (--roce-priority).
// The general keys are declared once in the table of settings.cc with their type, default and
// meaning; the probes' thresholds are declared by their kb entries (kb/probes/*.toml) and join
// the table through threshold_specs(). An unknown key or a bad value is an error naming the
// file and line (the CLI exits 2).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kb/probe_entry.h"

namespace netdoctor::cli {

enum class SettingType {
  Integer,   // whole number within [min, max]
  Number,    // any number within [min, max]
  Fraction,  // "5%", 5 (percent) or 0.05; stored as the fraction
  Seconds,   // a positive number of seconds
  Path,      // a file path (empty = the built-in rule)
  Choice,    // one of `choices`
};

struct SettingSpec {
  std::string key;  // "section.name", as written in the file's [section]
  SettingType type;
  std::string default_text;
  std::string meaning;  // one line for `config show`
  double min = 0.0;     // Integer and Number only
  double max = 0.0;
  std::vector<std::string> choices;  // Choice only
  std::string unit;                  // a threshold's unit ("frames/s"), else empty
  bool threshold = false;            // a probe's (or the fleet's) threshold from the kb
};

// The general settings netdoctor reads, in `config show` order (the thresholds follow them).
const std::vector<SettingSpec>& setting_specs();

// One setting per threshold of the kb's probe entries, keyed by the threshold's setting key,
// with the kb's value as default: the general table and these are what a site can tune.
std::vector<SettingSpec> threshold_specs(const kb::ProbeEntrySet& entries);
// The thresholds of the built-in probes' embedded entries.
Result<std::vector<SettingSpec>> builtin_threshold_specs();

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
  // Every key of the general table and of `thresholds` at its built-in default.
  explicit Settings(std::vector<SettingSpec> thresholds = {});
  static Result<Settings> load(const SettingSources& sources,
                               std::vector<SettingSpec> thresholds = {});

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
  // The thresholds set away from their kb default, by setting key: what the engine applies.
  std::map<std::string, double, std::less<>> tuned_thresholds() const;

 private:
  std::string unknown_key_message(std::string_view key) const;
  // Shared so that copies keep the specs their values point into.
  std::shared_ptr<const std::vector<SettingSpec>> m_specs;
  std::vector<SettingValue> m_values;  // one per spec, same order
};

}  // namespace netdoctor::cli
