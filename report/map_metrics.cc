#include "report/map_metrics.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "probes/ib_traffic.h"
#include "probes/probe_support.h"

namespace netdoctor::report {
namespace {

constexpr double k_bits_per_byte = 8.0;
constexpr double k_percent = 100.0;

using probes::Reading;

std::size_t at(MetricId id) {
  return static_cast<std::size_t>(id);
}

// A counter reading as a figure: a rate, or a one-sample total; nothing for a reset or absence.
std::optional<MapFigure> figure_of(const Reading& reading) {
  if (reading.is_rate()) {
    return MapFigure{reading.value, false};
  }
  if (reading.present()) {
    return MapFigure{reading.value, true};
  }
  return std::nullopt;
}

// The sum of several counters, each read as `name[index]` (index -1: unindexed).
Reading sum_of(const std::vector<model::CounterSample>& samples,
               std::initializer_list<std::pair<const char*, int>> counters) {
  Reading total;
  bool any = false;
  bool all_rates = true;
  for (const auto& [name, index] : counters) {
    Reading part = probes::read_counter(samples, name, index);
    if (!part.present()) {
      continue;
    }
    any = true;
    all_rates = all_rates && part.is_rate();
    total.value += part.value;
  }
  if (any) {
    total.status = all_rates ? model::RateStatus::Ok : model::RateStatus::SingleSample;
  }
  return total;
}

// Bytes per second over a port of `gbps` as a percentage of its line rate.
std::optional<MapFigure> utilisation(const Reading& tx, const Reading& rx,
                                     std::optional<double> gbps) {
  if (!gbps || *gbps <= 0.0 || !(tx.is_rate() || rx.is_rate())) {
    return std::nullopt;
  }
  const double busiest = std::max(tx.is_rate() ? tx.value : 0.0, rx.is_rate() ? rx.value : 0.0);
  return MapFigure{busiest * k_bits_per_byte / (*gbps * 1e9) * k_percent, false};
}

std::optional<MapFigure> share(std::optional<double> part, std::optional<double> whole) {
  if (!part || !whole || *whole <= 0.0) {
    return std::nullopt;
  }
  return MapFigure{*part / *whole * k_percent, false};
}

std::optional<MapFigure> gauge(std::optional<double> value) {
  if (!value) {
    return std::nullopt;
  }
  return MapFigure{*value, false};
}

// 1 when the port carries traffic, 0.5 held before Active (Init, Armed), 0 down.
std::optional<MapFigure> port_state(model::RdmaPortState state) {
  switch (state) {
    case model::RdmaPortState::Active:
      return MapFigure{1.0, false};
    case model::RdmaPortState::Init:
    case model::RdmaPortState::Armed:
      return MapFigure{0.5, false};
    case model::RdmaPortState::Down:
      return MapFigure{0.0, false};
    default:
      return std::nullopt;
  }
}

std::optional<MapFigure> link_state(model::LinkState state) {
  if (state == model::LinkState::Up) {
    return MapFigure{1.0, false};
  }
  if (state == model::LinkState::Down) {
    return MapFigure{0.0, false};
  }
  return std::nullopt;
}

void keep_first(CellFigures& into, MetricId id, std::optional<MapFigure> figure) {
  if (!into[at(id)] && figure) {
    into[at(id)] = figure;
  }
}

}  // namespace

const std::array<MetricDef, k_metric_count>& metric_defs() {
  static const std::array<MetricDef, k_metric_count> k_defs = {{
      {"pause-tx", "PFC pause sent", "frames/s", "frames (total)", true, true},
      {"pause-rx", "PFC pause received", "frames/s", "frames (total)", true, true},
      {"link-errors", "Link errors", "errors/s", "errors (total)", true, true},
      {"drops", "Drops and discards", "packets/s", "packets (total)", true, true},
      {"cnp", "CNPs sent (ECN seen)", "CNPs/s", "CNPs (total)", true, true},
      {"retransmits", "RDMA retransmits", "events/s", "events (total)", true, true},
      {"utilisation", "Utilisation of line rate", "%", "", false, false},
      {"xmit-wait", "PortXmitWait share", "% of time", "", false, false},
      {"clock-offset", "Clock offset", "ms", "", true, false},
      {"mtu", "MTU", "bytes", "", false, false},
      {"speed-share", "Link speed of rated", "%", "", false, false},
      {"pcie-share", "PCIe bandwidth of capable", "%", "", false, false},
      {"state", "Port state (1 active, 0.5 init/armed, 0 down)", "state", "", false, false},
  }};
  return k_defs;
}

std::optional<MetricId> metric_named(std::string_view id) {
  const auto& defs = metric_defs();
  for (std::size_t i = 0; i < defs.size(); ++i) {
    if (defs[i].id == id) {
      return static_cast<MetricId>(i);
    }
  }
  return std::nullopt;
}

CellFigures nic_figures(const model::Nic& nic, int roce_priority) {
  const auto& s = nic.samples;
  CellFigures f{};
  f[at(MetricId::PauseTx)] =
      figure_of(probes::read_counter(s, "pfc_tx_pause_frames", roce_priority));
  f[at(MetricId::PauseRx)] =
      figure_of(probes::read_counter(s, "pfc_rx_pause_frames", roce_priority));
  f[at(MetricId::LinkErrors)] = figure_of(sum_of(s, {{"symbol_errors", -1},
                                                     {"fcs_errors", -1},
                                                     {"pcs_symbol_errors", -1},
                                                     {"fec_uncorrectable_blocks", -1},
                                                     {"ib_symbol_errors", -1},
                                                     {"ib_rcv_errors", -1},
                                                     {"ib_link_error_recovery", -1},
                                                     {"ib_link_downed", -1}}));
  f[at(MetricId::Drops)] = figure_of(sum_of(
      s,
      {{"port_rx_discards", -1}, {"rx_out_of_buffer", -1}, {"prio_rx_discards", roce_priority}}));
  f[at(MetricId::Cnp)] = figure_of(probes::read_counter(s, "cnp_sent", -1));
  f[at(MetricId::Retransmits)] = figure_of(sum_of(
      s,
      {{"out_of_sequence", -1}, {"seq_err_naks", -1}, {"ack_timeouts", -1}, {"retransmits", -1}}));
  Reading tx = probes::read_counter(s, "port_tx_bytes", -1);
  Reading rx = probes::read_counter(s, "port_rx_bytes", -1);
  if (!tx.is_rate() && !rx.is_rate()) {
    tx = probes::read_counter(s, "ib_tx_bytes", -1);
    rx = probes::read_counter(s, "ib_rx_bytes", -1);
  }
  f[at(MetricId::Utilisation)] = utilisation(tx, rx, nic.speed_gbps);
  f[at(MetricId::Mtu)] =
      gauge(nic.mtu ? std::optional<double>(*nic.mtu)
                    : (nic.active_mtu ? std::optional<double>(*nic.active_mtu) : std::nullopt));
  f[at(MetricId::SpeedShare)] = share(nic.speed_gbps, nic.rated_gbps);
  f[at(MetricId::PcieShare)] = share(nic.pcie.ceiling_gbps, nic.pcie.capable_gbps);
  f[at(MetricId::State)] = port_state(nic.state);
  if (!f[at(MetricId::State)]) {
    f[at(MetricId::State)] = link_state(nic.operstate);
  }
  return f;
}

CellFigures switch_port_figures(const model::SwitchPort& port, int roce_priority) {
  const auto& s = port.samples;
  CellFigures f{};
  f[at(MetricId::PauseTx)] =
      figure_of(probes::read_counter(s, "pfc_tx_pause_frames", roce_priority));
  f[at(MetricId::PauseRx)] =
      figure_of(probes::read_counter(s, "pfc_rx_pause_frames", roce_priority));
  f[at(MetricId::LinkErrors)] = figure_of(sum_of(s, {{"rx_errors", -1}, {"tx_errors", -1}}));
  f[at(MetricId::Drops)] = figure_of(sum_of(s, {{"rx_drops", -1}, {"tx_drops", -1}}));
  const auto rx_util = probes::read_gauge(s, "rx_util_pct");
  const auto tx_util = probes::read_gauge(s, "tx_util_pct");
  if (rx_util || tx_util) {
    f[at(MetricId::Utilisation)] =
        MapFigure{std::max(rx_util.value_or(0.0), tx_util.value_or(0.0)), false};
  } else if (port.speed_gbps && *port.speed_gbps > 0.0) {
    const auto rx_bps = probes::read_gauge(s, "rx_bps");
    const auto tx_bps = probes::read_gauge(s, "tx_bps");
    if (rx_bps || tx_bps) {
      const double busiest = std::max(rx_bps.value_or(0.0), tx_bps.value_or(0.0));
      f[at(MetricId::Utilisation)] =
          MapFigure{busiest * k_bits_per_byte / (*port.speed_gbps * 1e9) * k_percent, false};
    }
  }
  f[at(MetricId::Mtu)] = gauge(port.mtu ? std::optional<double>(*port.mtu) : std::nullopt);
  f[at(MetricId::State)] = link_state(port.oper);
  return f;
}

void add_ib_port_figures(const model::IbPort& port, const TickRule& tick, CellFigures& into) {
  const auto& s = port.samples;
  keep_first(into, MetricId::LinkErrors,
             figure_of(sum_of(s, {{"ib_symbol_errors", -1},
                                  {"ib_rcv_errors", -1},
                                  {"ib_link_error_recovery", -1},
                                  {"ib_link_downed", -1},
                                  {"ib_rcv_remote_physical_errors", -1},
                                  {"ib_local_link_integrity_errors", -1}})));
  keep_first(into, MetricId::Drops, figure_of(probes::read_counter(s, "ib_xmit_discards", -1)));
  keep_first(into, MetricId::Utilisation,
             utilisation(probes::read_counter(s, "ib_tx_bytes", -1),
                         probes::read_counter(s, "ib_rx_bytes", -1), port.data_gbps));
  const Reading wait = probes::read_counter(s, "ib_xmit_wait", -1);
  if (wait.is_rate()) {
    const auto lane = probes::ib::lane_data_gbps(port);
    const double tick_s =
        lane ? tick.tick_symbol_times * k_bits_per_byte / (*lane * 1e9) : tick.fallback_tick_s;
    keep_first(into, MetricId::XmitWait,
               MapFigure{std::min(k_percent, wait.value * tick_s * k_percent), false});
  }
  keep_first(into, MetricId::Mtu,
             gauge(port.mtu ? std::optional<double>(*port.mtu) : std::nullopt));
  keep_first(into, MetricId::SpeedShare, share(port.data_gbps, port.supported_data_gbps));
  keep_first(into, MetricId::State, port_state(port.state));
}

CellFigures host_figures(const model::Host& host) {
  CellFigures f{};
  if (host.clock.offset_s) {
    f[at(MetricId::ClockOffset)] = MapFigure{*host.clock.offset_s * 1e3, false};
  }
  return f;
}

}  // namespace netdoctor::report
