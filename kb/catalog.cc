#include "kb/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "kb/toml_reader.h"

namespace netdoctor::kb {

namespace {

constexpr std::array<std::string_view, 7> k_categories = {
    "congestion", "config", "firmware", "cabling", "clock", "addressing", "traffic"};
constexpr std::array<std::string_view, 3> k_severities = {"monitor", "degrade", "isolate"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& options, const std::string& value) {
  return std::find(options.begin(), options.end(), value) != options.end();
}

std::string file_stem(const std::string& file) {
  auto slash = file.find_last_of('/');
  std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

Result<NextChangeTemplate> parse_next_change(const toml::table& root, const std::string& file,
                                             const std::string& where = "[next_change]") {
  const toml::node* node = root.get("next_change");
  if (node == nullptr || node->as_table() == nullptr) {
    return toml_error(file, root.source(), "missing table " + where);
  }
  const toml::table& table = *node->as_table();
  ND_TRY(check_keys(table, {"variable", "from", "to", "action", "verify"}, file, where));
  NextChangeTemplate out;
  ND_TRY_ASSIGN(out.variable, require_string(table, "variable", file));
  ND_TRY_ASSIGN(out.from, require_string(table, "from", file));
  ND_TRY_ASSIGN(out.to, require_string(table, "to", file));
  ND_TRY_ASSIGN(out.action, require_string(table, "action", file));
  ND_TRY_ASSIGN(out.verify, require_string(table, "verify", file));
  return out;
}

// What a cause may give its own advice for, by the placeholder that names it for the culprit:
// its tool (model::Nic::qos_tool, model::Host::clock_tool), or the signal that decided it (any
// signal supporting the cause; checked once the weights are gathered).
struct ToolKind {
  std::string_view placeholder;
  std::array<std::string_view, 3> tools;  // "" pads the shorter lists; all "" = any signal
};
constexpr std::array<ToolKind, 3> k_tool_kinds = {{
    {"qos_tool", {"mlnx_qos", "dcb", ""}},
    {"clock_tool", {"chrony", "linuxptp", "ntpd"}},
    {"signal", {"", "", ""}},
}};

bool any_name(const ToolKind& kind) {
  return std::all_of(kind.tools.begin(), kind.tools.end(),
                     [](std::string_view tool) { return tool.empty(); });
}

std::string tool_names(const ToolKind& kind) {
  std::string out;
  for (const auto tool : kind.tools) {
    if (!tool.empty()) {
      out += (out.empty() ? "" : ", ") + std::string(tool);
    }
  }
  return out;
}

Result<std::map<std::string, ToolAdvice>> parse_by_tool(const toml::table& root,
                                                        const ToolKind& kind,
                                                        const std::string& file) {
  std::map<std::string, ToolAdvice> out;
  const std::string key_name = "by_" + std::string(kind.placeholder);
  const toml::node* node = root.get(key_name);
  if (node == nullptr) {
    return out;
  }
  if (node->as_table() == nullptr) {
    return toml_error(file, node->source(),
                      fmt::format("{0} must be a table of [{0}.<tool>]", key_name));
  }
  for (const auto& [key, value] : *node->as_table()) {
    const std::string tool(key.str());
    const std::string where = fmt::format("[{}.{}]", key_name, tool);
    if (tool.empty() || (!any_name(kind) && !one_of(kind.tools, tool)) ||
        value.as_table() == nullptr) {
      return toml_error(file, value.source(),
                        fmt::format("{}: unknown tool ({})", where, tool_names(kind)));
    }
    const toml::table& table = *value.as_table();
    ND_TRY(check_keys(table, {"remediation", "next_change"}, file, where));
    ToolAdvice advice;
    ND_TRY_ASSIGN(advice.remediation, string_list(table, "remediation", file, true));
    ND_TRY_ASSIGN(advice.next_change, parse_next_change(table, file, where + ".next_change"));
    out.emplace(tool, std::move(advice));
  }
  return out;
}

Result<std::map<std::string, std::map<std::string, ToolAdvice>>> parse_by_tools(
    const toml::table& root, const std::string& file) {
  std::map<std::string, std::map<std::string, ToolAdvice>> out;
  for (const auto& kind : k_tool_kinds) {
    ND_TRY_ASSIGN(auto advice, parse_by_tool(root, kind, file));
    if (!advice.empty()) {
      out.emplace(std::string(kind.placeholder), std::move(advice));
    }
  }
  return out;
}

}  // namespace

Result<Cause> parse_cause(std::string_view text, const std::string& file) {
  ND_TRY_ASSIGN(toml::table root, parse_toml(text, file));
  ND_TRY(
      check_keys(root,
                 {"id", "title", "mechanism", "category", "severity", "remediation", "next_change",
                  "by_qos_tool", "by_clock_tool", "by_signal", "source", "residual"},
                 file, "cause"));
  Cause cause;
  cause.file = file;
  ND_TRY_ASSIGN(cause.id, require_string(root, "id", file));
  const toml::node* id_node = root.get("id");
  if (file_stem(file) != cause.id) {
    return toml_error(file, id_node->source(),
                      fmt::format("cause id '{}' does not match its file name", cause.id));
  }
  ND_TRY_ASSIGN(cause.title, require_string(root, "title", file));
  ND_TRY_ASSIGN(cause.mechanism, require_string(root, "mechanism", file));
  ND_TRY_ASSIGN(cause.category, require_string(root, "category", file));
  if (!one_of(k_categories, cause.category)) {
    return toml_error(file, root.get("category")->source(),
                      fmt::format("unknown category '{}'", cause.category));
  }
  ND_TRY_ASSIGN(cause.severity, require_string(root, "severity", file));
  if (!one_of(k_severities, cause.severity)) {
    return toml_error(
        file, root.get("severity")->source(),
        fmt::format("unknown severity '{}' (monitor, degrade, isolate)", cause.severity));
  }
  ND_TRY_ASSIGN(auto residual, optional_bool(root, "residual", file));
  cause.residual = residual.value_or(false);
  ND_TRY_ASSIGN(cause.remediation, string_list(root, "remediation", file, true));
  ND_TRY_ASSIGN(cause.next_change, parse_next_change(root, file));
  ND_TRY_ASSIGN(cause.by_tool, parse_by_tools(root, file));
  ND_TRY_ASSIGN(cause.source, require_string(root, "source", file));
  return cause;
}

Result<Catalog> Catalog::load(const std::vector<DataFile>& files, const ProbeEntrySet& entries) {
  Catalog catalog;
  for (const auto& [file, text] : files) {
    ND_TRY_ASSIGN(Cause cause, parse_cause(text, file));
    if (catalog.find(cause.id) != nullptr) {
      return make_error(ErrorCode::Parse, fmt::format("cause '{}' defined twice", cause.id),
                        file + ":1");
    }
    catalog.m_causes.push_back(std::move(cause));
  }
  std::sort(catalog.m_causes.begin(), catalog.m_causes.end(),
            [](const Cause& a, const Cause& b) { return a.id < b.id; });
  ND_TRY(catalog.gather_weights(entries));
  return catalog;
}

namespace {

// [by_signal.<signal>] advice must name a signal that supports the cause, or it never applies.
Status check_advice_signals(const Cause& cause) {
  const auto by_signal = cause.by_tool.find("signal");
  if (by_signal == cause.by_tool.end()) {
    return {};
  }
  for (const auto& entry : by_signal->second) {
    const std::string& signal = entry.first;
    const bool supports =
        std::any_of(cause.supports.begin(), cause.supports.end(),
                    [&signal](const SignalWeight& weight) { return weight.signal == signal; });
    if (!supports) {
      return make_error(ErrorCode::Parse,
                        fmt::format("[by_signal.{}]: no signal '{}' supports cause '{}'", signal,
                                    signal, cause.id),
                        cause.file + ":1");
    }
  }
  return {};
}

}  // namespace

Status Catalog::gather_weights(const ProbeEntrySet& entries) {
  for (const ProbeEntry& entry : entries.entries()) {
    for (const SignalEntry& signal : entry.signals) {
      for (const bool supporting : {true, false}) {
        for (const CauseWeight& weight : supporting ? signal.supports : signal.against) {
          auto cause = std::find_if(m_causes.begin(), m_causes.end(),
                                    [&weight](const Cause& c) { return c.id == weight.cause; });
          if (cause == m_causes.end()) {
            return make_error(ErrorCode::Parse,
                              fmt::format("signal '{}' weighs on unknown cause '{}' (no "
                                          "kb/causes/{}.toml)",
                                          signal.id, weight.cause, weight.cause),
                              fmt::format("{}:{}", entry.file, weight.line));
          }
          SignalWeight rule{entry.probe,
                            signal.id,
                            weight.weight,
                            weight.note,
                            supporting ? weight.localizes : true,
                            weight.line,
                            entry.file};
          (supporting ? cause->supports : cause->against).push_back(std::move(rule));
        }
      }
    }
  }
  for (const Cause& cause : m_causes) {
    ND_TRY(check_advice_signals(cause));
    if (cause.supports.empty()) {
      return make_error(ErrorCode::Parse,
                        fmt::format("no signal supports cause '{}': add a [[signal.supports]] "
                                    "naming it to the entry of the probe that can see it",
                                    cause.id),
                        cause.file + ":1");
    }
  }
  return {};
}

Result<Catalog> Catalog::load_embedded(const ProbeEntrySet& entries) {
  return load(embedded_files("kb/causes/"), entries);
}

const Cause* Catalog::find(std::string_view id) const {
  for (const auto& cause : m_causes) {
    if (cause.id == id) {
      return &cause;
    }
  }
  return nullptr;
}

namespace {

bool names_signal(const std::vector<SignalWeight>& weights, std::string_view probe,
                  std::string_view signal) {
  return std::any_of(weights.begin(), weights.end(), [&](const SignalWeight& weight) {
    return weight.probe == probe && weight.signal == signal;
  });
}

}  // namespace

bool Catalog::supports_any(std::string_view probe, std::string_view signal) const {
  return std::any_of(m_causes.begin(), m_causes.end(), [&](const Cause& cause) {
    return names_signal(cause.supports, probe, signal);
  });
}

bool Catalog::clears_any(std::string_view probe, std::string_view signal) const {
  return std::any_of(m_causes.begin(), m_causes.end(), [&](const Cause& cause) {
    return names_signal(cause.against, probe, signal);
  });
}

}  // namespace netdoctor::kb
