// The root-cause catalog: one TOML file per cause (kb/causes/<id>.toml, embedded at build
// time; the files are the list of causes), with its mechanism, remediation and the single next
// change to try. How each probe signal weighs for a cause (`supports`) or against it
// (`against`) is written with the signal, in its probe's entry (kb/probes/<probe>.toml), and
// gathered here. Loading validates every cause id a weight names; errors name file:line.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kb/known_probes.h"
#include "kb/probe_entry.h"

namespace netdoctor::kb {

struct SignalWeight {
  std::string probe;
  std::string signal;
  double weight = 0.0;    // > 0; multiplied by the finding's strength (0..1)
  std::string note;       // why this signal bears on the cause
  bool localizes = true;  // its entities name the culprit (false for victims / side effects)
  int line = 0;
  std::string file;  // the probe entry that states it
};

// Templates: {entity} {host} {nic} {device} {netdev} {port} {switch} {value} {fleet_normal}
// {unit} {roce_priority} {pfc_list} {qos_tool} {clock_tool} {signal} are filled from the culprit
// and the deciding evidence.
struct NextChangeTemplate {
  std::string variable;
  std::string from;
  std::string to;
  std::string action;
  std::string verify;
};

// Advice in the words of the tool the culprit is configured with: the NIC's QoS tool (mlnx_qos or
// dcb, model::Nic::qos_tool) or the host's clock daemon (chrony, linuxptp, ntpd,
// model::Host::clock_tool); or for the finding that decided the cause (its signal). Replaces the
// cause's remediation and next change where it applies.
struct ToolAdvice {
  std::vector<std::string> remediation;
  NextChangeTemplate next_change;
};

struct Cause {
  std::string id;
  std::string title;
  std::string mechanism;
  std::string category;  // congestion, config, firmware, cabling, clock, addressing, traffic
  std::string severity;  // monitor, degrade, isolate
  // A cause that stands for "measured off, nothing else explains it" (baseline-regression):
  // reported beside another cause only where that cause names none of its places.
  bool residual = false;
  std::vector<SignalWeight> supports;
  std::vector<SignalWeight> against;
  std::vector<std::string> remediation;
  NextChangeTemplate next_change;
  // [by_<kind>.<name>]: kind is the placeholder naming the culprit's tool ("qos_tool",
  // "clock_tool") or the deciding "signal", then its value; kinds are tried in key order and the
  // first whose value matches the culprit's applies.
  std::map<std::string, std::map<std::string, ToolAdvice>> by_tool;
  std::string source;  // the DOMAIN.md section it comes from
  std::string file;    // where it was loaded from
};

class Catalog {
 public:
  // Loads every cause file and gathers each cause's weights from the probe entries. Every
  // weight must name a cause that has its file, and every cause needs a supporting signal.
  static Result<Catalog> load(const std::vector<DataFile>& files, const ProbeEntrySet& entries);
  // The kb/causes/*.toml compiled into the binary.
  static Result<Catalog> load_embedded(const ProbeEntrySet& entries);

  const Cause* find(std::string_view id) const;
  const std::vector<Cause>& causes() const { return m_causes; }  // ordered by id
  // Whether a probe's signal weighs for (supports) or against (clears) at least one cause.
  bool supports_any(std::string_view probe, std::string_view signal) const;
  bool clears_any(std::string_view probe, std::string_view signal) const;

 private:
  Status gather_weights(const ProbeEntrySet& entries);
  std::vector<Cause> m_causes;
};

// Parses and validates one cause file, without its weights (exposed for tests).
Result<Cause> parse_cause(std::string_view text, const std::string& file);

// The embedded data files whose name starts with `prefix` ("kb/causes/", "playbooks/").
std::vector<DataFile> embedded_files(std::string_view prefix);

}  // namespace netdoctor::kb
