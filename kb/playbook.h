// Playbooks: one per symptom (playbooks/<symptom>.toml), plus `auto` for the general sweep.
// A playbook lists the candidate causes in order of prior likelihood (DOMAIN.md's symptom
// table), the probe steps in the order to try them, and the stop rule. A probe's cost class
// is its own (the registry's), not restated here. A sweep (`sweep = true`, the auto playbook)
// considers every cause and runs every registered probe: its lists give the order, and what
// they leave out follows them (a probe after the listed ones of its cost class). Loading
// validates probe ids against the registered probes and cause ids against the catalog; errors
// name file:line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kb/catalog.h"
#include "kb/known_probes.h"

namespace netdoctor::kb {

struct PlaybookStep {
  std::string probe;
  std::string why;
  int line = 0;  // 0 for a step a sweep added
};

// Conclusive = the top cause's score reaches min_score and leads the runner-up by min_margin.
// Once conclusive, active probes are skipped and cheap probes run only if they could still
// overturn the leader or reveal a second root cause.
struct StopRule {
  double min_score = 3.0;
  double min_margin = 2.0;
};

struct Playbook {
  std::string symptom;
  std::string title;
  std::vector<std::string> candidates;  // most likely first
  std::vector<PlaybookStep> steps;      // cheapest / most telling first
  StopRule stop;
  bool sweep = false;
  std::string source;
  std::string file;
};

// The symptom ids of spec/diagnosis.md, plus "auto".
const std::vector<std::string>& spec_symptoms();

class PlaybookSet {
 public:
  static Result<PlaybookSet> load(const std::vector<DataFile>& files, const Catalog& catalog,
                                  const KnownProbes& probes, bool require_all = true);
  static Result<PlaybookSet> load_embedded(const Catalog& catalog, const KnownProbes& probes);

  const Playbook* find(std::string_view symptom) const;
  const std::vector<Playbook>& playbooks() const { return m_playbooks; }

 private:
  std::vector<Playbook> m_playbooks;
};

Result<Playbook> parse_playbook(std::string_view text, const std::string& file,
                                const Catalog& catalog, const KnownProbes& probes);

}  // namespace netdoctor::kb
