#include "model/switch_pfcwd.h"

#include <optional>

#include "model/source_names.h"
#include "parsers/sonic_pfcwd_stats.h"

namespace netdoctor::model {
namespace {

void put(MetricValues::Builder& sample, const char* metric, int queue,
         std::optional<std::uint64_t> v) {
  if (v) {
    sample.add(metric, queue, static_cast<double>(*v));
  }
}

std::optional<parsers::SonicPfcwd> parse_pfcwd(SourceLog& log, const SampleSource& sample,
                                               const std::vector<std::string>& argv, Switch& sw) {
  return parse_command<parsers::SonicPfcwd>(log, sample, argv, source::k_show_pfcwd, sw.sources,
                                            parsers::parse_sonic_pfcwd_stats);
}

// `only_new`: leave ports whose config is already known.
void apply_config(const parsers::SonicPfcwd& pfcwd, PortIndex& ports, bool only_new) {
  for (const auto& row : pfcwd.ports) {
    PfcWatchdog& wd = ports.get(row.port).pfcwd;
    if (only_new && wd.configured) {
      continue;
    }
    wd.configured = true;
    wd.action = row.action;
    wd.detection_time_ms = row.detection_time_ms;
    wd.restoration_time_ms = row.restoration_time_ms;
  }
}

}  // namespace

void read_pfcwd_stats(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw,
                      const PortValues& values) {
  auto pfcwd = parse_pfcwd(log, sample, {"show", "pfcwd", "stats"}, sw);
  if (!pfcwd) {
    pfcwd = parse_pfcwd(log, sample, {"pfcwd", "show", "stats"}, sw);
  }
  if (!pfcwd) {
    return;
  }
  for (auto& port : sw.ports) {
    port.pfcwd.queues.clear();
    port.pfcwd.stormed.clear();
  }
  for (const auto& row : pfcwd->queues) {
    if (!row.queue_index) {
      continue;
    }
    const int q = static_cast<int>(*row.queue_index);
    PfcWatchdog& wd = ports.get(row.port).pfcwd;
    wd.queues.push_back(q);
    if (row.stormed) {
      wd.stormed.push_back(q);
    }
    auto& s = values(row.port);
    put(s, "pfcwd_storms_detected", q, row.storms_detected);
    put(s, "pfcwd_storms_restored", q, row.storms_restored);
    put(s, "pfcwd_tx_drops", q, row.tx_drop);
    put(s, "pfcwd_rx_drops", q, row.rx_drop);
  }
  apply_config(*pfcwd, ports, true);
}

void read_pfcwd_config(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw) {
  if (auto pfcwd = parse_pfcwd(log, sample, {"show", "pfcwd", "config"}, sw)) {
    apply_config(*pfcwd, ports, false);
  }
}

}  // namespace netdoctor::model
