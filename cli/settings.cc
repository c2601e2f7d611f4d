#include "cli/settings.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/strings.h"
#include "store/baseline_check.h"

namespace netdoctor::cli {

const std::vector<SettingSpec>& setting_specs() {
  // The defaults are the ones the flags had before site configuration existed; their reasons
  // are in the commands' help. The thresholds (baseline.threshold among them) come from the kb.
  static const std::vector<SettingSpec> k_specs = {
      {"roce.priority",
       SettingType::Integer,
       "3",
       "the lossless priority RoCE rides (PFC, ECN and queue counters are read there)",
       0,
       7,
       {},
       "",
       false},
      {"store.database",
       SettingType::Path,
       "",
       "the incident database (--db and $NETDOCTOR_DB override it; empty: "
       "$XDG_DATA_HOME/netdoctor/netdoctor.db)",
       0,
       0,
       {},
       "",
       false},
      {"collect.launcher",
       SettingType::Choice,
       "",
       "launcher for collect --hosts when --via is not given (empty: --via is required)",
       0,
       0,
       {"", "ssh", "pdsh", "srun"},
       "",
       false},
      {"collect.parallel",
       SettingType::Integer,
       "16",
       "hosts collected at once",
       1,
       65536,
       {},
       "",
       false},
      {"collect.command_timeout",
       SettingType::Seconds,
       "10",
       "seconds allowed each command",
       0,
       0,
       {},
       "",
       false},
      {"collect.host_timeout",
       SettingType::Seconds,
       "300",
       "seconds allowed each host",
       0,
       0,
       {},
       "",
       false},
      {"prometheus.timeout",
       SettingType::Seconds,
       "30",
       "seconds allowed each Prometheus query",
       0,
       0,
       {},
       "",
       false},
      {"switches.timeout",
       SettingType::Seconds,
       "5",
       "seconds allowed each switch API request",
       0,
       0,
       {},
       "",
       false},
  };
  return k_specs;
}

namespace {

std::string format_number(double value) {
  return fmt::format("{:g}", value);
}

// Reads `value` as the spec's type into `out`; the message says what a good value looks like.
Status convert(const SettingSpec& spec, std::string_view value, SettingValue& out) {
  const std::string shown(value);
  switch (spec.type) {
    case SettingType::Integer: {
      auto number = parse_double(trim(value));
      if (!number || std::floor(*number) != *number || *number < spec.min || *number > spec.max) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{} must be a whole number from {} to {} (got '{}')",
                                      spec.key, spec.min, spec.max, shown));
      }
      out.number = *number;
      out.text = format_number(*number);
      return {};
    }
    case SettingType::Number: {
      auto number = parse_double(trim(value));
      if (!number || !std::isfinite(*number) || *number < spec.min || *number > spec.max) {
        return make_error(
            ErrorCode::InvalidArgument,
            fmt::format("{} must be a number from {:g} to {:g}{} (got '{}')", spec.key, spec.min,
                        spec.max, spec.unit.empty() ? "" : ", in " + spec.unit, shown));
      }
      out.number = *number;
      out.text = format_number(*number);
      return {};
    }
    case SettingType::Fraction: {
      // Read as every --threshold flag reads it: "5%", "5" (percent) or "0.05" (fraction).
      auto fraction = store::parse_threshold(std::string(value));
      if (!fraction) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{} must be a percentage between 0 and 100, like 5% (got "
                                      "'{}')",
                                      spec.key, shown));
      }
      out.number = *fraction;
      out.text = format_number(*fraction * 100.0) + "%";
      return {};
    }
    case SettingType::Seconds: {
      std::string_view body = trim(value);
      if (ends_with(body, "s")) {
        body.remove_suffix(1);
      }
      auto number = parse_double(trim(body));
      if (!number || *number <= 0.0) {
        return make_error(
            ErrorCode::InvalidArgument,
            fmt::format("{} must be a positive number of seconds (got '{}')", spec.key, shown));
      }
      out.number = *number;
      out.text = format_number(*number) + "s";
      return {};
    }
    case SettingType::Path:
      out.text = shown;
      return {};
    case SettingType::Choice:
      for (const std::string& choice : spec.choices) {
        if (choice == value) {
          out.text = shown;
          return {};
        }
      }
      return make_error(
          ErrorCode::InvalidArgument,
          fmt::format(
              "{} must be one of {} (got '{}')", spec.key,
              join(std::vector<std::string>(spec.choices.begin() + 1, spec.choices.end()), ", "),
              shown));
  }
  return make_error(ErrorCode::Internal, "unhandled setting type");
}

// A TOML scalar as the text a --set would carry.
std::optional<std::string> scalar_text(const toml::node& node) {
  if (auto text = node.value<std::string>()) {
    return *text;
  }
  if (node.is_integer()) {
    return std::to_string(*node.value<std::int64_t>());
  }
  if (node.is_floating_point()) {
    return format_number(*node.value<double>());
  }
  return std::nullopt;
}

}  // namespace

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

SettingSources SettingSources::from_environment() {
  SettingSources sources;
  const std::string system = env_or_empty("NETDOCTOR_SYSTEM_CONFIG");
  sources.system_file = system.empty() ? "/etc/netdoctor/netdoctor.toml" : system;
  // XDG: a relative XDG_CONFIG_HOME is invalid and ignored, as for the database's XDG_DATA_HOME.
  const std::string xdg = env_or_empty("XDG_CONFIG_HOME");
  const std::string home = env_or_empty("HOME");
  if (!xdg.empty() && xdg.front() == '/') {
    sources.user_file = xdg + "/netdoctor/netdoctor.toml";
  } else if (!home.empty()) {
    sources.user_file = home + "/.config/netdoctor/netdoctor.toml";
  }
  return sources;
}

Settings::Settings(std::vector<SettingSpec> thresholds) {
  auto specs = std::make_shared<std::vector<SettingSpec>>(setting_specs());
  for (SettingSpec& spec : thresholds) {
    specs->push_back(std::move(spec));
  }
  m_specs = std::move(specs);
  for (const SettingSpec& spec : *m_specs) {
    SettingValue value;
    value.spec = &spec;
    Status converted = convert(spec, spec.default_text, value);
    (void)converted;  // the table's defaults are valid (tests/cli/settings_test.cc)
    value.origin = "default";
    m_values.push_back(std::move(value));
  }
}

const SettingValue& Settings::get(std::string_view key) const {
  for (const SettingValue& value : m_values) {
    if (value.spec->key == key) {
      return value;
    }
  }
  std::abort();  // a key missing from the table is a bug in the caller, not user input
}

Status Settings::set(std::string_view key, std::string_view value, const std::string& origin) {
  for (SettingValue& current : m_values) {
    if (current.spec->key != key) {
      continue;
    }
    SettingValue next = current;
    if (Status converted = convert(*current.spec, value, next); !converted.ok()) {
      return make_error(ErrorCode::InvalidArgument, converted.error().message, origin);
    }
    next.origin = origin;
    current = std::move(next);
    return {};
  }
  return make_error(ErrorCode::InvalidArgument, unknown_key_message(key), origin);
}

Status Settings::apply_file_text(std::string_view text, const std::string& file) {
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    return make_error(ErrorCode::InvalidArgument, std::string(e.description()),
                      fmt::format("{}:{}", file, e.source().begin.line));
  }
  for (const auto& [section, node] : root) {
    const std::string where = fmt::format("{}:{}", file, node.source().begin.line);
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("'{}' must be a [section] holding keys, e.g. [roce] "
                                    "priority = 3",
                                    section.str()),
                        where);
    }
    for (const auto& [name, value] : *table) {
      const std::string key = fmt::format("{}.{}", section.str(), name.str());
      const std::string at = fmt::format("{}:{}", file, value.source().begin.line);
      auto scalar = scalar_text(value);
      if (!scalar) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{} must be a string or a number", key), at);
      }
      ND_TRY(set(key, *scalar, at));
    }
  }
  return {};
}

std::map<std::string, double, std::less<>> Settings::tuned_thresholds() const {
  std::map<std::string, double, std::less<>> out;
  for (const SettingValue& value : m_values) {
    if (value.spec->threshold && !value.is_default()) {
      out[value.spec->key] = value.number;
    }
  }
  return out;
}

std::string Settings::unknown_key_message(std::string_view key) const {
  // The table is long (every probe's thresholds): name the nearest keys, not all of them.
  const std::string wanted(key);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const SettingSpec& spec : *m_specs) {
    const std::size_t distance = edit_distance(wanted, spec.key);
    const bool same_section =
        spec.key.substr(0, spec.key.find('.') + 1) == wanted.substr(0, wanted.find('.') + 1);
    if (distance <= std::max<std::size_t>(2, wanted.size() / 4) || same_section) {
      near.emplace_back(distance, spec.key);
    }
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < near.size() && i < 8; ++i) {
    names.push_back(near[i].second);
  }
  return names.empty()
             ? fmt::format("unknown key '{}' (`netdoctor config show` lists every key)", key)
             : fmt::format(
                   "unknown key '{}'; known keys near it: {} (`netdoctor config show` "
                   "lists every key)",
                   key, join(names, ", "));
}

std::vector<const SettingValue*> Settings::non_defaults() const {
  std::vector<const SettingValue*> out;
  for (const SettingValue& value : m_values) {
    if (!value.is_default()) {
      out.push_back(&value);
    }
  }
  return out;
}

Result<Settings> Settings::load(const SettingSources& sources,
                                std::vector<SettingSpec> thresholds) {
  Settings settings(std::move(thresholds));
  auto apply_path = [&settings](const std::string& path, bool required) -> Status {
    if (path.empty()) {
      return {};
    }
    std::error_code error;
    if (!required && !std::filesystem::exists(path, error)) {
      return {};  // no site or user file: the defaults hold
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      return make_error(ErrorCode::InvalidArgument, "cannot read the configuration file", path);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return settings.apply_file_text(text.str(), path);
  };
  ND_TRY(apply_path(sources.system_file, false));
  ND_TRY(apply_path(sources.user_file, false));
  ND_TRY(apply_path(sources.config_file, true));
  for (const std::string& assignment : sources.set_values) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("'{}' is not KEY=VALUE (e.g. roce.priority=4)", assignment),
                        "--set");
    }
    ND_TRY(settings.set(trim(std::string_view(assignment).substr(0, equals)),
                        trim(std::string_view(assignment).substr(equals + 1)), "--set"));
  }
  return settings;
}

}  // namespace netdoctor::cli
