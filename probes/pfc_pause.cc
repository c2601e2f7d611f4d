// pfc-pause: who originates PFC pause on the RoCE priority (sends far more than the fleet, or
// trips the NIC's pause-storm detector, or holds its peer paused most of the window), who
// suffers it (receives it), and whether pause is merely widespread (congestion).
//
// Reads the pause frames each NIC sends and receives on the RoCE priority (ethtool -S), the
// pause each switch port receives and sends (show pfc counters), the storms each switch's PFC
// watchdog detected on the RoCE queue (show pfcwd stats and config), and the cabling between
// them (LLDP from both ends). A healthy fleet pauses rarely: a few frames per second absorb
// microbursts, nobody stands out, and pause holds no link for a noticeable share of time.
#include "probes/pfc_pause.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"
#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

using pfc_pause::Survey;

class PfcPauseProbe final : public FleetProbe<Survey> {
 public:
  PfcPauseProbe()
      : FleetProbe(
            {.id = "pfc-pause",
             .description =
                 "PFC pause on the RoCE priority: storm origin, victims, widespread pause",
             .cost = CostClass::Passive,
             .reads = {source::k_ethtool_stats, source::k_show_pfc_counters, source::k_show_pfcwd},
             .findings = {"pfc-storm-origin", "pfcwd-storm-detected", "pfc-pause-victim",
                          "pfc-pause-widespread"},
             .clearing = "pfc-quiet",
             .thresholds = {"min_pause_rate", "storm_share", "costly_share", "min_storm_share",
                            "storm_error_strength", "storm_warning_strength", "congestion_group",
                            "widespread_fraction", "widespread_min_count", "victims_half_strength",
                            "switch_pairs_half_strength", "quiet_strength",
                            "quiet_partial_strength", "pfcwd_min_storms", "pfcwd_storm_strength",
                            "pfcwd_cumulative_strength"},
             .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    const int prio = fleet.prio = judgement.roce_priority();
    fleet.sent = survey_nics(fabric, [prio](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_pfc_tx_pause_frames, prio);
    });
    fleet.received = survey_nics(fabric, [prio](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_pfc_rx_pause_frames, prio);
    });
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        ++fleet.port_total;
        pfc_pause::PortPause pause{
            &sw, &port, read_counter(port.samples, metric::k_sw_pfc_rx_pause_frames, prio),
            read_counter(port.samples, metric::k_sw_pfc_tx_pause_frames, prio)};
        if (pause.rx.present() || pause.tx.present()) {
          fleet.ports.push_back(pause);
        }
      }
    }
    pfc_pause::survey_watchdogs(fabric, fleet);
    pfc_pause::note_unwatched(fleet, judgement);
    if (!fleet.sent.resets.empty()) {
      judgement.note(fmt::format("pause counters reset on {} NICs (no rate for them)",
                                 fleet.sent.resets.size()));
    }
    if (!fleet.sent.cleared.empty()) {
      judgement.note(fmt::format(
          "pause counters cleared inside the capture on {} NICs, read over the other intervals: {}",
          fleet.sent.cleared.size(), name_some(fleet.sent.cleared, 3)));
    }
    const double min_rate = judgement.limit("min_pause_rate");
    fleet.rate_mode = fleet.sent.rate_mode || fleet.received.rate_mode;
    fleet.floor = fleet.rate_mode ? min_rate : judgement.cumulative_floor(min_rate);
    fleet.unit = fleet.rate_mode ? "frames/s" : "frames";
    for (const auto& value : fleet.received.values) {
      if (value.reading.value >= fleet.floor) {
        fleet.paused.push_back(&value);
      }
    }
    std::sort(fleet.paused.begin(), fleet.paused.end(), [](const NicValue* a, const NicValue* b) {
      return a->reading.value > b->reading.value;
    });
    for (const auto& p : fleet.ports) {
      const double floor = p.tx.is_rate() ? min_rate : judgement.cumulative_floor(min_rate);
      if (p.tx.present() && p.tx.value >= floor) {
        ++fleet.paused_ports;
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // A NIC counts as covered when it shows either direction of pause.
    const std::size_t nics = std::max(fleet.sent.with_data, fleet.received.with_data);
    return {{"NICs", "ethtool -S PFC pause counters", nics, fleet.sent.total},
            {"switch ports", "show pfc counters", fleet.ports.size(), fleet.port_total}};
  }

  // Origins first: where one NIC or port starts the pause, everyone else is its victim. Only
  // with no origin can pause be a fabric condition rather than one bad actor.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const pfc_pause::Origins origins = pfc_pause::find_origins(fleet, judgement);
    if (origins.found()) {
      pfc_pause::judge_victims(fleet, origins, judgement);
      return;
    }
    pfc_pause::judge_widespread(fleet, origins, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    double max_sent = 0.0;
    for (const auto& value : fleet.sent.values) {
      max_sent = std::max(max_sent, value.reading.value);
    }
    const std::size_t pausing = fleet.paused.size() + fleet.paused_ports;
    const std::size_t observed = fleet.received.values.size() + fleet.ports.size();
    const bool whole_fleet = fleet.sent.with_data == fleet.sent.total;
    return {.summary = fmt::format(
                "{} NICs send pause on priority {} at median {}{} (max {}{}); {} of {} entities "
                "paused at {} frames{} or more",
                fleet.sent.values.size(), fleet.prio, human(fleet.sent.stats.median),
                per(fleet.sent), human(max_sent), per(fleet.sent), pausing, observed,
                human(fleet.floor), per(fleet.received)),
            .strength = judgement.limit(whole_fleet ? "quiet_strength" : "quiet_partial_strength"),
            .value = max_sent,
            .fleet_normal = fleet.sent.stats.median,
            .unit = fleet.unit};
  }
};

}  // namespace

std::unique_ptr<Probe> make_pfc_pause_probe() {
  return std::make_unique<PfcPauseProbe>();
}

}  // namespace netdoctor::probes
