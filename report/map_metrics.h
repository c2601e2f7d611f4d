// The figures a fabric map can be coloured by, and how each is read off one NIC, switch port,
// InfiniBand port or host of the fabric model. Counters are rates over the capture window;
// with one sample, totals since the last reset (MapFigure::total), which the builder keeps only
// when no cell of the fleet has a rate: one metric never mixes the two.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "model/fabric.h"

namespace netdoctor::report {

enum class MetricId : std::size_t {
  PauseTx,
  PauseRx,
  LinkErrors,
  Drops,
  Cnp,
  Retransmits,
  Utilisation,
  XmitWait,
  ClockOffset,
  Mtu,
  SpeedShare,
  PcieShare,
  State,
};
inline constexpr std::size_t k_metric_count = 13;

struct MetricDef {
  std::string_view id;
  std::string_view label;
  std::string_view unit;        // of a rate, or of the gauge
  std::string_view total_unit;  // of a one-sample total; empty: only rates count
  bool log_scale = true;
  bool counter = true;  // a counter (rate or total); false: a gauge or a share
};
const std::array<MetricDef, k_metric_count>& metric_defs();
std::optional<MetricId> metric_named(std::string_view id);

struct MapFigure {
  double value = 0.0;
  bool total = false;  // a one-sample total, not a rate
};
using CellFigures = std::array<std::optional<MapFigure>, k_metric_count>;

// The XmitWait tick: `tick_symbol_times` byte times of one lane, else `fallback_tick_s`.
struct TickRule {
  double tick_symbol_times = 0.0;
  double fallback_tick_s = 0.0;
};

CellFigures nic_figures(const model::Nic& nic, int roce_priority);
CellFigures switch_port_figures(const model::SwitchPort& port, int roce_priority);
// An InfiniBand port (a switch's, or an HCA's): added to `into` where it has no figure yet.
void add_ib_port_figures(const model::IbPort& port, const TickRule& tick, CellFigures& into);
CellFigures host_figures(const model::Host& host);

}  // namespace netdoctor::report
