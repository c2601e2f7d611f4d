#include "model/sample_times.h"

#include <algorithm>
#include <optional>

#include "model/source_names.h"

namespace netdoctor::model {

std::vector<TimedSample> sample_times(SourceLog& log, const std::vector<MachineSample>& samples,
                                      SourceMap& sources) {
  const std::string& source = source::k_captured_at;
  std::vector<std::optional<double>> times(samples.size());
  // An inventory source, so never withheld today; asked all the same so that every read of a
  // sample answers to the filter.
  if (log.admit(source, sources)) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      auto at = samples[i].source->captured_at();
      if (at.ok()) {
        times[i] = *at;
        record_source(sources, source, Availability::Observed);
        continue;
      }
      Error error = at.error();
      if (error.context.empty()) {
        error.context = samples[i].source->display_path("/captured_at");
      }
      error.message = "captured_at missing or unusable (" + error.message +
                      "); sample left out of the counter series";
      record_source(sources, source, Availability::Malformed, error.describe());
      log.problem(source, std::move(error));
    }
  }
  const bool any_time =
      std::any_of(times.begin(), times.end(), [](const auto& t) { return t.has_value(); });
  std::vector<TimedSample> series;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (any_time && !times[i]) {
      continue;
    }
    series.push_back(TimedSample{i, times[i].value_or(0.0)});
  }
  return series;
}

}  // namespace netdoctor::model
