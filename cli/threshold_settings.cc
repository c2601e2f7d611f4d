// The probes' thresholds as settings: each kb threshold (kb/probes/<probe>.toml) becomes the key
// its entry names ("pfc-pause.min_pause_rate", "baseline.threshold"), typed by its unit, with
// the kb's value as its default and the kb's reason as its meaning.
#include <fmt/format.h>

#include <limits>

#include "cli/settings.h"
#include "engine/pipeline.h"

namespace netdoctor::cli {

namespace {

SettingSpec spec_of(const kb::Threshold& threshold) {
  SettingSpec spec;
  spec.key = threshold.setting;
  spec.meaning = threshold.why;
  spec.unit = threshold.unit;
  spec.threshold = true;
  switch (threshold.kind()) {
    case kb::ThresholdKind::Fraction:
      spec.type = SettingType::Fraction;
      spec.default_text = fmt::format("{:g}%", threshold.value * 100.0);
      break;
    case kb::ThresholdKind::Strength:
      spec.type = SettingType::Number;
      spec.default_text = fmt::format("{:g}", threshold.value);
      spec.max = 1.0;
      break;
    case kb::ThresholdKind::Count:
      spec.type = SettingType::Integer;
      spec.default_text = fmt::format("{:g}", threshold.value);
      spec.max = 1e9;
      break;
    case kb::ThresholdKind::Amount:
      spec.type = SettingType::Number;
      spec.default_text = fmt::format("{:g}", threshold.value);
      spec.max = std::numeric_limits<double>::max();
      break;
  }
  return spec;
}

}  // namespace

std::vector<SettingSpec> threshold_specs(const kb::ProbeEntrySet& entries) {
  std::vector<SettingSpec> out;
  for (const kb::Threshold* threshold : entries.all_thresholds()) {
    out.push_back(spec_of(*threshold));
  }
  return out;
}

Result<std::vector<SettingSpec>> builtin_threshold_specs() {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  ND_TRY_ASSIGN(auto entries, kb::ProbeEntrySet::load_embedded(engine::known_probes(registry)));
  return threshold_specs(entries);
}

}  // namespace netdoctor::cli
