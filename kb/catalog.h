// The root-cause catalog: one TOML file per spec cause id (kb/causes/<id>.toml), embedded at
// build time. Each cause states how each probe signal weighs for it (`supports`) or against
// it (`against`), its remediation, and the single next change to try. Loading validates
// everything against the spec's cause ids and the registered probes' signals; every error
// names file:line.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kb/known_probes.h"

namespace netdoctor::kb {

struct SignalWeight {
  std::string probe;
  std::string signal;
  double weight = 0.0;    // > 0; multiplied by the finding's strength (0..1)
  std::string note;       // why this signal bears on the cause
  bool localizes = true;  // its entities name the culprit (false for victims / side effects)
  int line = 0;
};

// Templates: {entity} {host} {nic} {device} {netdev} {port} {switch} {value} {fleet_normal}
// {unit} {roce_priority} are filled from the culprit and the deciding evidence.
struct NextChangeTemplate {
  std::string variable;
  std::string from;
  std::string to;
  std::string action;
  std::string verify;
};

struct Cause {
  std::string id;
  std::string title;
  std::string mechanism;
  std::string category;  // congestion, config, firmware, cabling, clock, addressing, traffic
  std::string severity;  // monitor, degrade, isolate
  std::vector<SignalWeight> supports;
  std::vector<SignalWeight> against;
  std::vector<std::string> remediation;
  NextChangeTemplate next_change;
  std::string source;  // the DOMAIN.md section it comes from
  std::string file;    // where it was loaded from
};

using DataFile = std::pair<std::string, std::string>;  // {file name, text}

class Catalog {
 public:
  // Loads every file; requires all spec cause ids to be present when `require_all` is set.
  static Result<Catalog> load(const std::vector<DataFile>& files, const KnownProbes& probes,
                              bool require_all = true);
  // The kb/causes/*.toml compiled into the binary.
  static Result<Catalog> load_embedded(const KnownProbes& probes);

  const Cause* find(std::string_view id) const;
  const std::vector<Cause>& causes() const { return m_causes; }

 private:
  std::vector<Cause> m_causes;  // in spec order
};

// Parses and validates one cause file (exposed for tests).
Result<Cause> parse_cause(std::string_view text, const std::string& file,
                          const KnownProbes& probes);

// The embedded data files whose name starts with `prefix` ("kb/causes/", "playbooks/").
std::vector<DataFile> embedded_files(std::string_view prefix);

}  // namespace netdoctor::kb
