#include <fmt/format.h>

#include <string_view>

#include "base/strings.h"
#include "base/time_format.h"
#include "engine/render.h"
#include "probes/probe_support.h"

namespace netdoctor::engine {

namespace {

// The ready `change record` line has always quoted '@', '%' and '+' as well, and the text and
// Markdown diagnoses keep their bytes: it names that narrower plain set.
constexpr std::string_view k_plain_punctuation = "_-./:,=";

std::string quoted(const std::string& word) {
  return shell_quote(word, k_plain_punctuation);
}

}  // namespace

std::string change_record_command(const NextChange& change, const std::string& incident) {
  return fmt::format("netdoctor change record --incident {} --entity {} --var {} --from {} --to {}",
                     quoted(incident), quoted(change.entity), quoted(change.variable),
                     quoted(change.from), quoted(change.to));
}

std::string describe_evidence(const EvidenceItem& item) {
  std::string text = fmt::format("[{}] {}", item.probe, item.summary);
  if (item.value) {
    std::string unit = item.unit.empty() ? "" : " " + item.unit;
    if (item.fleet_normal) {
      text += fmt::format(" ({:g}{}; fleet normal {:g}{})", *item.value, unit, *item.fleet_normal,
                          unit);
    } else {
      text += fmt::format(" ({:g}{})", *item.value, unit);
    }
  }
  return text;
}

std::string describe_onset(const Onset& onset) {
  const std::string when = fmt::format("{} to {}", iso8601_utc(onset.from), iso8601_utc(onset.to));
  if (onset.before_capture()) {
    return fmt::format("before the capture: it shows from its first interval ({}) of {}", when,
                       onset.intervals);
  }
  const std::size_t quiet = onset.interval - 1;
  return fmt::format("in interval {} of {} ({}); not seen in the {} interval{} before it",
                     onset.interval, onset.intervals, when, quiet, quiet == 1 ? "" : "s");
}

std::string describe_timeline(const Onset& onset) {
  std::string text;
  std::string unit;
  for (const IntervalReading& reading : onset.timeline) {
    text += text.empty() ? "" : " ";
    if (!reading.shows) {
      text += "-";
    } else if (reading.value) {
      text += probes::human(*reading.value);
      unit = unit.empty() ? reading.unit : unit;
    } else {
      text += "shows";
    }
  }
  return unit.empty() ? text : fmt::format("{} ({})", text, unit);
}

std::string headline(const Diagnosis& diagnosis) {
  switch (diagnosis.verdict) {
    case Verdict::RootCauseFound: {
      const RankedCause& top = diagnosis.causes.front();
      std::string culprit = top.entities.empty() ? "fabric-wide" : top.entities.front();
      std::string more = diagnosis.causes.size() > 1
                             ? fmt::format(" (+{} more cause{})", diagnosis.causes.size() - 1,
                                           diagnosis.causes.size() > 2 ? "s" : "")
                             : "";
      return fmt::format("ROOT CAUSE: {} at {} - {} (confidence {:.2f}){}", top.id, culprit,
                         top.title, top.confidence, more);
    }
    case Verdict::Healthy:
      return fmt::format("HEALTHY: no fault found for symptom '{}'; every check that ran was clear",
                         diagnosis.symptom);
    case Verdict::Inconclusive:
      break;
  }
  if (diagnosis.causes.empty()) {
    return fmt::format(
        "INCONCLUSIVE: no cause found for symptom '{}', but too little data to call it healthy",
        diagnosis.symptom);
  }
  const RankedCause& top = diagnosis.causes.front();
  std::string culprit = top.entities.empty() ? "fabric-wide" : top.entities.front();
  return fmt::format("INCONCLUSIVE: best lead {} at {} - {} (confidence {:.2f}, weak evidence)",
                     top.id, culprit, top.title, top.confidence);
}

}  // namespace netdoctor::engine
