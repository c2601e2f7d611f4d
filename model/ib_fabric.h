// The InfiniBand subnet as the fabric-wide views show it (spec/bundle.md, "InfiniBand fabric
// views"): every switch and HCA with its GUIDs, LIDs and description, every port's state, width
// and speed against what it could do and against its peer, the cabling, each port's PMA counters
// per fabric sample, and the subnet manager. Built by model/ib_loader.cc from `fabric/<sample>/`
// (ibnetdiscover, iblinkinfo, perfquery, ibqueryerrors, sminfo, ibnodes; ibdiagnet's files
// where copied in) and joined with the hosts' own view of their HCAs (sysfs, ibstat,
// ibv_devinfo). Empty (no nodes, no samples) when the bundle holds no fabric view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/metric.h"
#include "model/port_state.h"
#include "model/source_state.h"

namespace netdoctor::model {

enum class IbNodeKind { Switch, Ca, Router };
const char* to_string(IbNodeKind kind);  // "switch", "ca", "router"

// One physical port of a node (port 0, a switch's management port, is not listed).
struct IbPort {
  std::uint32_t number = 0;
  std::uint64_t guid = 0;            // port GUID (a switch's ports share the node's port-0 GUID)
  std::optional<std::uint32_t> lid;  // CA ports: the port's LID; switch ports: the switch's
  RdmaPortState state = RdmaPortState::Unknown;  // Down, Init, Armed, Active
  PhysState phys = PhysState::Unknown;           // Polling, Disabled, LinkUp, ...

  // As trained: lanes (1, 2, 4, 8, 12) and the speed's IBTA name ("HDR", "NDR", "FDR10"), the
  // per-lane signalling rate as printed (53.125 for HDR) and the data rate of the whole port in
  // Gb/s after encoding (HDR 4x = 200). Unset while the port is down.
  std::optional<int> width;
  std::string speed;
  std::optional<double> lane_gbps;
  std::optional<double> data_gbps;
  // What the port could train at: iblinkinfo's "Could be 4X Could be 53.125 Gbps" comment,
  // ibdiagnet's supported/enabled width and speed. Unset when no view says.
  std::optional<int> supported_width;
  std::string supported_speed;
  std::optional<double> supported_data_gbps;

  std::optional<int> mtu;  // IB MTU in bytes (256..4096): ibdiagnet PORTS, or the host's view

  // The port at the other end of the cable; peer_guid is the peer's node GUID. Unset when
  // nothing is cabled (or the port is down and no view knew its peer).
  std::optional<std::uint64_t> peer_guid;
  std::optional<std::uint32_t> peer_port;

  // PMA counters, one CounterSample per fabric sample (aligned with IbFabric::captured_at; a
  // sample that did not read this port holds no values). Canonical ib_* metrics of
  // model/counters.tsv: ib_tx_bytes / ib_rx_bytes in octets (PortXmitData x 4),
  // ib_tx_packets, ib_rx_packets, ib_xmit_wait (ticks), ib_symbol_errors,
  // ib_link_error_recovery, ib_link_downed, ib_rcv_errors, ib_rcv_remote_physical_errors,
  // ib_xmit_discards, ib_local_link_integrity_errors, ib_excessive_buffer_overrun.
  // A value at the all-ones maximum of a counter narrower than 64 bits is left out of its
  // sample (it is "at least", not a count) and recorded in `saturated` instead.
  std::vector<CounterSample> samples;
  // Metric name -> the first sample in which it was saturated.
  std::map<std::string, std::size_t> saturated;

  bool is_up() const { return state == RdmaPortState::Active || phys == PhysState::LinkUp; }
  bool cabled() const { return peer_guid.has_value(); }
};

struct IbNode {
  IbNodeKind kind = IbNodeKind::Ca;
  std::uint64_t guid = 0;  // node GUID
  std::optional<std::uint64_t> system_image_guid;
  std::string description;  // NodeDescription as printed, spaces kept
  // The name the diagnosis uses (spec/bundle.md, InfiniBand entity names): a switch's
  // description without "MF0;" and ":<model>/<unit>" ("leaf-03"), or "0x<guid>" when empty or
  // not unique; an HCA's "<host>/<dev>" from a "<host> <dev>" description, else "0x<guid>".
  std::string name;
  // An HCA's host and RDMA device from "<host> <dev>" (empty when not of that form).
  std::string host;
  std::string device;
  std::optional<std::uint32_t> lid;  // switches: port 0's LID
  std::optional<std::uint32_t> port_count;
  std::string vendor_id;      // "0x2c9" as printed
  std::string device_id;      // "0xd2f0"
  std::string model;          // "MQM8700" from the description suffix or ibdiagnet; "" unknown
  std::string firmware;       // switches: ibdiagnet; HCAs: the host's fw_ver when joined
  std::vector<IbPort> ports;  // by number
  SourceMap sources;          // what each view gave for this node (model/source_names.h)

  // "switch:<name>" for switches and routers; "nic:<host>/<dev>" for an HCA named that way,
  // else "nic:0x<guid>".
  std::string entity() const;
  // "port:<name>/<n>" for a switch port; an HCA port is its NIC: entity().
  std::string port_entity(std::uint32_t port) const;
  const IbPort* find_port(std::uint32_t port) const;
};

// A subnet manager as one view saw it.
struct IbSubnetManager {
  std::uint64_t guid = 0;  // the SM port's GUID
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> priority;
  std::optional<std::uint32_t> state;  // 0 not active, 1 discovering, 2 standby, 3 master
  std::optional<std::uint64_t> activity_count;
  std::string source;  // "sminfo", "ibdiagnet", "sysfs port" (a host port's sm_lid)
};

struct IbFabricSample {
  std::string name;  // the sample directory
  double captured_at = 0.0;
  std::vector<IbSubnetManager> managers;  // every SM this sample's views name
  bool sm_answered = false;               // sminfo (or ibdiagnet) reached an SM
  // This sample asked for the SM (its sminfo ran, or ibdiagnet's SM list was read). A sample
  // whose sminfo file is missing or garbled says nothing of the SM: never "no SM".
  bool sm_queried = false;
  std::vector<std::string> diagnet_errors;    // ibdiagnet2.log "-E-" lines, as printed
  std::vector<std::string> diagnet_warnings;  // "-W-" lines
};

struct IbFabric {
  std::vector<IbFabricSample> samples;  // fabric/<sample>/ in time order
  std::vector<IbNode> nodes;            // switches first, then HCAs, each sorted by name
  SourceMap sources;                    // per view ("ibnetdiscover", "perfquery", "sminfo", ...)

  // Node positions by GUID for find_node / peer_of; rebuild with reindex() after changing
  // `nodes` (find_node falls back to a scan while it is stale or empty).
  std::map<std::uint64_t, std::size_t> by_guid;
  void reindex();

  bool empty() const { return nodes.empty() && samples.empty(); }
  std::vector<double> captured_at() const;
  const IbNode* find_node(std::uint64_t guid) const;
  const IbNode* find_switch(const std::string& name) const;
  const IbNode* find_ca(const std::string& host, const std::string& device) const;
  // The node and port at the other end of `port` of `node`; nullptr when not cabled or the
  // peer is not in the model.
  const IbNode* peer_of(const IbPort& port) const;
};

}  // namespace netdoctor::model
