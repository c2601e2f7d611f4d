// The working paper of one probe run: the fleet it judges, the limits it judges by, and the
// result being written. Probes write through it so that every signal id and threshold name
// they use is checked against their ProbeSpec: a probe cannot report a signal the knowledge
// base does not weigh, nor judge by a number the kb (and the site) cannot see and tune.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/fabric.h"
#include "probes/probe.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {

// How much of the fleet one survey saw: `with_data` of `total` `noun` had `what`.
struct Coverage {
  std::string noun;  // "NICs", "switch ports", "hosts", "leaves"
  std::string what;  // the data, named by its source: "mlnx_qos", "show pfc counters"
  std::size_t with_data = 0;
  std::size_t total = 0;
  // False for data that only supplements the judgement (the probe judges every entity without
  // it): it counts towards having any data at all, but its gaps are not noted as partial.
  bool notes_gaps = true;
};

// What a healthy fleet looks like, said with this fleet's figures: the clearing finding.
struct Clearance {
  std::string summary;
  double strength = 0.8;
  std::optional<double> value = std::nullopt;
  std::optional<double> fleet_normal = std::nullopt;
  std::string unit = {};
  bool ruled_out = true;  // also listed as examined-and-normal (off when judge listed parts)
};

class Judgement {
 public:
  Judgement(const ProbeSpec& spec, const ProbeContext& context);

  const model::Fabric& fabric() const { return m_context.fabric; }
  int roce_priority() const { return m_context.options.roce_priority; }

  // The named threshold's value: the kb entry's, or the site's override.
  // REQUIRES: `name` is in spec().thresholds. Throws std::logic_error when it is not, or when
  // the context carries no value for it; the engine reports that as a failed probe.
  double limit(std::string_view name) const;
  // A threshold that counts things (entities, listed items): the value as a whole number.
  std::size_t limit_count(std::string_view name) const;
  // A threshold every probe shares (kb/probes/fleet.toml), e.g. "outlier_min_z".
  double fleet_limit(std::string_view name) const;
  // What stands out from the fleet (fleet.outlier_min_z, fleet.outlier_min_ratio) at or above
  // `abs_floor`, in units whose smallest meaningful spread is `scale_floor`.
  OutlierRule outlier_rule(double abs_floor, double scale_floor = 1.0) const;
  // With a single sample only cumulative counts exist: the count that stands for `rate`
  // sustained over fleet.cumulative_window.
  double cumulative_floor(double rate) const;

  // Coverage: false (and the result Skipped, with a reason naming the missing data) when no
  // part had any data; otherwise a note for each part only partly covered.
  bool cover(const std::vector<Coverage>& parts);
  // A remark on the data (partial coverage, counter resets); joined into the result's reason.
  void note(const std::string& text);

  // REQUIRES: `signal` is one of spec().findings (the clearing signal goes through clear()).
  void find(std::string_view signal, std::vector<std::string> entities, double strength,
            std::string summary, std::optional<double> value = std::nullopt,
            std::optional<double> fleet_normal = std::nullopt, std::string unit = {});
  // Examined and normal: shown to the user as ruled out.
  void rule_out(std::string text);
  bool found() const { return !m_result.findings.empty(); }
  // Reports the spec's clearing signal.
  void clear(const Clearance& clearance);

  ProbeResult take() { return std::move(m_result); }

 private:
  const ProbeSpec& m_spec;
  const ProbeContext& m_context;
  ProbeResult m_result;
};

}  // namespace netdoctor::probes
