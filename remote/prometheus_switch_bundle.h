// The switch half of prometheus_to_bundle: switch port counters scraped into Prometheus become
// the SONiC command outputs of a switch sample (spec/bundle.md; remote/switch_sample.h renders
// them), so that the SONiC parsers and the switch loader read them unchanged:
//   snmp_exporter's if_mib module (IF-MIB)     -> show interfaces counters, show interfaces status
//   netdoctor_switch_pfc_{rx,tx}_frames_total  -> show pfc counters
//   sonic-exporter's sonic_queue_*_total        -> show queue counters
//   LLDP neighbour series                       -> show lldp table
// A port is named by its ifName label (else ifDescr, else device): SONiC's EthernetN, the name
// hosts' LLDP reports. RX_BPS / TX_BPS and utilisation are the octet counters' rate between a
// sample and the one before (the first sample has none). docs/prometheus.md lists the names.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_layout.h"
#include "remote/switch_sample.h"

namespace netdoctor::remote {

// True for the names only a switch exports (every name above but netdoctor_lldp_neighbor_info,
// which hosts export too): a machine with one of them is a switch.
bool is_switch_metric(std::string_view name);

// The PromQL name regex of every switch series (is_switch_metric's names).
std::string switch_query_pattern();
// The same without the per-priority PFC series, and those alone: a query that wants one
// priority's PFC asks for the two apart (a priority matcher on every switch series would match
// the empty value, which Prometheus answers by walking every series holding the label).
// `queue_wanted`, when given, picks the queue series by the model metric each becomes
// (queue_tx_packets, queue_tx_bytes, queue_drop_packets, queue_drop_bytes); `counter_wanted`
// the IF-MIB counters by theirs (rx_bps, tx_bps, rx_packets, tx_packets, rx_errors, tx_errors,
// rx_drops, tx_drops). Speed, MTU and status are always asked for.
std::string switch_query_pattern_without_pfc(
    const std::function<bool(std::string_view)>& queue_wanted = {},
    const std::function<bool(std::string_view)>& counter_wanted = {});
std::string switch_pfc_pattern();
// The PromQL name regex of the queue series whose model metric `wanted` accepts.
std::string switch_queue_pattern(const std::function<bool(std::string_view)>& wanted);

// Which of a port's queue traffic series a probe reads, given each of its queues' dropped-packet
// counter over the samples (time order) and whether the port has a sending rate of its own from
// the interface octets (diagnose passes probes::probes_read_queue_traffic).
struct QueueTrafficWanted {
  bool packets = false;  // sonic_queue_packets_total
  bool bytes = false;    // sonic_queue_bytes_total
};
using QueueTrafficRule =
    std::function<QueueTrafficWanted(const std::vector<std::vector<double>>& drops, bool rate)>;

// Whether model metric `name` is a queue traffic one (queue_tx_packets, queue_tx_bytes).
bool is_queue_traffic_metric(std::string_view name);
// The PromQL name regex of the queue traffic series `wanted` asks for.
std::string queue_traffic_pattern(const QueueTrafficWanted& wanted);

// Switches taken out of a SwitchBundle, each switch -> its samples by time.
using SwitchLayouts = std::map<std::string, std::map<double, SwitchSample>>;

// A group of switches rendered as their SONiC command files: on any thread, the group's layouts
// freed as its files are written.
struct RenderedSwitches {
  MachineFiles files;
  // For each family of series (interface, PFC, queue counters, LLDP), the switches lacking it.
  std::vector<std::vector<std::string>> lacking;
};
RenderedSwitches render_switches(SwitchLayouts switches);

// Appends the switches `group` lacks, family by family, to those `into` holds.
void gather_lacking(const RenderedSwitches& group, std::vector<std::vector<std::string>>& into);
// A problem for each family of series the switches `lacking` names lack (as in
// RenderedSwitches::lacking), naming them.
void add_lacking_problems(const std::vector<std::vector<std::string>>& lacking,
                          std::vector<Error>& problems, const std::string& source);

class SwitchBundle {
 public:
  // Ports and neighbours whose names cannot be a table cell are counted into `left_out`.
  explicit SwitchBundle(LeftOut& left_out);

  // A series of switch `sw`; names netdoctor does not read are ignored.
  void add(const std::string& sw, const PromSeries& series);

  // The switches with a port for which `rule` wants some queue traffic, and what they want
  // (any port's wants), judged on the series added so far.
  std::map<std::string, QueueTrafficWanted> queue_traffic_wanted(
      const QueueTrafficRule& rule) const;

  // Every switch's files, and a problem for each family some switches lack, naming them.
  MachineFiles finish(std::vector<Error>& problems, const std::string& source);
  // The switches, `group_size` at a time in their order, taken out of the bundle (empty after):
  // each group renders on its own (render_switches), so that groups may render on threads.
  std::vector<SwitchLayouts> take_groups(std::size_t group_size);

 private:
  std::optional<std::string> port_name(const PromSeries& series);

  LeftOut& m_left_out;
  SwitchLayouts m_switches;
};

}  // namespace netdoctor::remote
