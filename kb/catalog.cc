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

Result<SignalWeight> parse_weight(const toml::table& entry, const std::string& file,
                                  const KnownProbes& probes, bool supporting) {
  const std::string_view what = supporting ? "[[supports]]" : "[[against]]";
  if (supporting) {
    ND_TRY(check_keys(entry, {"probe", "signal", "weight", "note", "localizes"}, file, what));
  } else {
    ND_TRY(check_keys(entry, {"probe", "signal", "weight", "note"}, file, what));
  }
  SignalWeight out;
  out.line = line_of(entry);
  ND_TRY_ASSIGN(out.probe, require_string(entry, "probe", file));
  ND_TRY_ASSIGN(out.signal, require_string(entry, "signal", file));
  ND_TRY_ASSIGN(out.note, optional_string(entry, "note", file));
  ND_TRY_ASSIGN(auto weight, optional_number(entry, "weight", file));
  if (!weight || *weight <= 0.0) {
    return toml_error(file, entry.source(), fmt::format("{} needs a positive 'weight'", what));
  }
  out.weight = *weight;
  ND_TRY_ASSIGN(auto localizes, optional_bool(entry, "localizes", file));
  out.localizes = localizes.value_or(true);

  const ProbeInfo* probe = find_probe(probes, out.probe);
  const toml::node* probe_node = entry.get("probe");
  if (probe == nullptr) {
    return toml_error(file, probe_node->source(),
                      fmt::format("unknown probe '{}' (not registered)", out.probe));
  }
  if (!probe_has_signal(*probe, out.signal)) {
    return toml_error(file, entry.get("signal")->source(),
                      fmt::format("unknown signal '{}' for probe '{}'", out.signal, out.probe));
  }
  return out;
}

Result<std::vector<SignalWeight>> parse_weights(const toml::table& root, std::string_view key,
                                                const std::string& file, const KnownProbes& probes,
                                                bool supporting) {
  ND_TRY_ASSIGN(auto entries, table_array(root, key, file));
  std::vector<SignalWeight> out;
  for (const toml::table* entry : entries) {
    ND_TRY_ASSIGN(auto weight, parse_weight(*entry, file, probes, supporting));
    out.push_back(std::move(weight));
  }
  return out;
}

Result<NextChangeTemplate> parse_next_change(const toml::table& root, const std::string& file) {
  const toml::node* node = root.get("next_change");
  if (node == nullptr || node->as_table() == nullptr) {
    return toml_error(file, root.source(), "missing table [next_change]");
  }
  const toml::table& table = *node->as_table();
  ND_TRY(check_keys(table, {"variable", "from", "to", "action", "verify"}, file, "[next_change]"));
  NextChangeTemplate out;
  ND_TRY_ASSIGN(out.variable, require_string(table, "variable", file));
  ND_TRY_ASSIGN(out.from, require_string(table, "from", file));
  ND_TRY_ASSIGN(out.to, require_string(table, "to", file));
  ND_TRY_ASSIGN(out.action, require_string(table, "action", file));
  ND_TRY_ASSIGN(out.verify, require_string(table, "verify", file));
  return out;
}

}  // namespace

Result<Cause> parse_cause(std::string_view text, const std::string& file,
                          const KnownProbes& probes) {
  ND_TRY_ASSIGN(toml::table root, parse_toml(text, file));
  ND_TRY(check_keys(root,
                    {"id", "title", "mechanism", "category", "severity", "supports", "against",
                     "remediation", "next_change", "source"},
                    file, "cause"));
  Cause cause;
  cause.file = file;
  ND_TRY_ASSIGN(cause.id, require_string(root, "id", file));
  const toml::node* id_node = root.get("id");
  if (!is_spec_cause(cause.id)) {
    return toml_error(file, id_node->source(),
                      fmt::format("unknown cause id '{}' (not in spec/diagnosis.md)", cause.id));
  }
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
  ND_TRY_ASSIGN(cause.supports, parse_weights(root, "supports", file, probes, true));
  if (cause.supports.empty()) {
    return toml_error(file, root.source(), "a cause needs at least one [[supports]] entry");
  }
  ND_TRY_ASSIGN(cause.against, parse_weights(root, "against", file, probes, false));
  ND_TRY_ASSIGN(cause.remediation, string_list(root, "remediation", file, true));
  ND_TRY_ASSIGN(cause.next_change, parse_next_change(root, file));
  ND_TRY_ASSIGN(cause.source, require_string(root, "source", file));
  return cause;
}

Result<Catalog> Catalog::load(const std::vector<DataFile>& files, const KnownProbes& probes,
                              bool require_all) {
  Catalog catalog;
  for (const auto& [file, text] : files) {
    ND_TRY_ASSIGN(Cause cause, parse_cause(text, file, probes));
    if (catalog.find(cause.id) != nullptr) {
      return make_error(ErrorCode::Parse, fmt::format("cause '{}' defined twice", cause.id),
                        file + ":1");
    }
    catalog.m_causes.push_back(std::move(cause));
  }
  if (require_all) {
    for (const auto& id : spec_cause_ids()) {
      if (catalog.find(id) == nullptr) {
        return make_error(ErrorCode::NotFound,
                          fmt::format("no kb entry for cause '{}' (kb/causes/{}.toml)", id, id),
                          "kb/causes");
      }
    }
  }
  const auto& order = spec_cause_ids();
  auto rank = [&order](const Cause& cause) {
    return std::find(order.begin(), order.end(), cause.id) - order.begin();
  };
  std::stable_sort(catalog.m_causes.begin(), catalog.m_causes.end(),
                   [&rank](const Cause& a, const Cause& b) { return rank(a) < rank(b); });
  return catalog;
}

Result<Catalog> Catalog::load_embedded(const KnownProbes& probes) {
  return load(embedded_files("kb/causes/"), probes, true);
}

const Cause* Catalog::find(std::string_view id) const {
  for (const auto& cause : m_causes) {
    if (cause.id == id) {
      return &cause;
    }
  }
  return nullptr;
}

}  // namespace netdoctor::kb
