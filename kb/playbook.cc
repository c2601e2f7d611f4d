#include "kb/playbook.h"

#include <fmt/format.h>

#include <algorithm>

#include "kb/toml_reader.h"

namespace netdoctor::kb {

const std::vector<std::string>& spec_symptoms() {
  static const std::vector<std::string> k_symptoms = {
      "slowdown", "low-utilization", "asymmetric-bandwidth", "timeouts", "high-latency", "auto"};
  return k_symptoms;
}

namespace {

Result<PlaybookStep> parse_step(const toml::table& entry, const std::string& file,
                                const KnownProbes& probes) {
  ND_TRY(check_keys(entry, {"probe", "why"}, file, "[[step]]"));
  PlaybookStep step;
  step.line = line_of(entry);
  ND_TRY_ASSIGN(step.probe, require_string(entry, "probe", file));
  ND_TRY_ASSIGN(step.why, optional_string(entry, "why", file));
  if (find_probe(probes, step.probe) == nullptr) {
    return toml_error(file, entry.get("probe")->source(),
                      fmt::format("unknown probe '{}' (not registered)", step.probe));
  }
  return step;
}

Result<StopRule> parse_stop(const toml::table& root, const std::string& file) {
  StopRule stop;
  const toml::node* node = root.get("stop");
  if (node == nullptr) {
    return stop;
  }
  const auto* table = node->as_table();
  if (table == nullptr) {
    return toml_error(file, node->source(), "'stop' must be a table");
  }
  ND_TRY(check_keys(*table, {"min_score", "min_margin"}, file, "[stop]"));
  ND_TRY_ASSIGN(auto min_score, optional_number(*table, "min_score", file));
  ND_TRY_ASSIGN(auto min_margin, optional_number(*table, "min_margin", file));
  stop.min_score = min_score.value_or(stop.min_score);
  stop.min_margin = min_margin.value_or(stop.min_margin);
  return stop;
}

int cost_rank(const KnownProbes& probes, const std::string& id) {
  const ProbeInfo* probe = find_probe(probes, id);
  return static_cast<int>(probe == nullptr ? ProbeCost::Active : probe->cost);
}

// A sweep considers everything: causes it does not list follow the listed ones (by id), and a
// probe it does not list runs after the listed probes of its cost class (in registry order).
void complete_sweep(Playbook& playbook, const Catalog& catalog, const KnownProbes& probes) {
  for (const auto& cause : catalog.causes()) {
    if (std::find(playbook.candidates.begin(), playbook.candidates.end(), cause.id) ==
        playbook.candidates.end()) {
      playbook.candidates.push_back(cause.id);
    }
  }
  for (const auto& probe : probes) {
    const auto listed = [&probe](const PlaybookStep& step) { return step.probe == probe.id; };
    if (std::any_of(playbook.steps.begin(), playbook.steps.end(), listed)) {
      continue;
    }
    const int rank = cost_rank(probes, probe.id);
    auto after = std::find_if(
        playbook.steps.begin(), playbook.steps.end(),
        [&](const PlaybookStep& step) { return cost_rank(probes, step.probe) > rank; });
    playbook.steps.insert(after, PlaybookStep{probe.id, "the sweep runs every probe", 0});
  }
}

}  // namespace

Result<Playbook> parse_playbook(std::string_view text, const std::string& file,
                                const Catalog& catalog, const KnownProbes& probes) {
  ND_TRY_ASSIGN(toml::table root, parse_toml(text, file));
  ND_TRY(check_keys(root, {"symptom", "title", "candidates", "step", "stop", "sweep", "source"},
                    file, "playbook"));
  Playbook playbook;
  playbook.file = file;
  ND_TRY_ASSIGN(playbook.symptom, require_string(root, "symptom", file));
  const auto& symptoms = spec_symptoms();
  if (std::find(symptoms.begin(), symptoms.end(), playbook.symptom) == symptoms.end()) {
    return toml_error(file, root.get("symptom")->source(),
                      fmt::format("unknown symptom '{}'", playbook.symptom));
  }
  ND_TRY_ASSIGN(playbook.title, require_string(root, "title", file));
  ND_TRY_ASSIGN(playbook.candidates, string_list(root, "candidates", file, true));
  const toml::array& candidate_nodes = *root.get("candidates")->as_array();
  for (std::size_t i = 0; i < playbook.candidates.size(); ++i) {
    const std::string& id = playbook.candidates[i];
    if (catalog.find(id) == nullptr) {
      return toml_error(file, candidate_nodes[i].source(),
                        fmt::format("unknown cause '{}' in candidates", id));
    }
  }
  ND_TRY_ASSIGN(auto steps, table_array(root, "step", file));
  if (steps.empty()) {
    return toml_error(file, root.source(), "a playbook needs at least one [[step]]");
  }
  for (const toml::table* entry : steps) {
    ND_TRY_ASSIGN(PlaybookStep step, parse_step(*entry, file, probes));
    playbook.steps.push_back(std::move(step));
  }
  ND_TRY_ASSIGN(playbook.stop, parse_stop(root, file));
  ND_TRY_ASSIGN(playbook.source, require_string(root, "source", file));
  ND_TRY_ASSIGN(auto sweep, optional_bool(root, "sweep", file));
  playbook.sweep = sweep.value_or(false);
  if (playbook.sweep) {
    complete_sweep(playbook, catalog, probes);
  }
  return playbook;
}

Result<PlaybookSet> PlaybookSet::load(const std::vector<DataFile>& files, const Catalog& catalog,
                                      const KnownProbes& probes, bool require_all) {
  PlaybookSet set;
  for (const auto& [file, text] : files) {
    ND_TRY_ASSIGN(Playbook playbook, parse_playbook(text, file, catalog, probes));
    if (set.find(playbook.symptom) != nullptr) {
      return make_error(ErrorCode::Parse,
                        fmt::format("playbook for '{}' defined twice", playbook.symptom),
                        file + ":1");
    }
    set.m_playbooks.push_back(std::move(playbook));
  }
  if (require_all) {
    for (const auto& symptom : spec_symptoms()) {
      if (set.find(symptom) == nullptr) {
        return make_error(
            ErrorCode::NotFound,
            fmt::format("no playbook for symptom '{}' (playbooks/{}.toml)", symptom, symptom),
            "playbooks");
      }
    }
  }
  return set;
}

Result<PlaybookSet> PlaybookSet::load_embedded(const Catalog& catalog, const KnownProbes& probes) {
  return load(embedded_files("playbooks/"), catalog, probes, true);
}

const Playbook* PlaybookSet::find(std::string_view symptom) const {
  for (const auto& playbook : m_playbooks) {
    if (playbook.symptom == symptom) {
      return &playbook;
    }
  }
  return nullptr;
}

}  // namespace netdoctor::kb
