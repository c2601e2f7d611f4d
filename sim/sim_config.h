// What the user asks the simulator for: fabric size and shape, faults, seed. Validated by
// validate_config() before anything is built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::sim {

enum class Vendor { Mlx5, Bnxt };

// The wire the hosts' RDMA NICs sit on: RoCE over a SONiC leaf-spine Ethernet fabric, or an
// InfiniBand fat tree of the same shape (Quantum switches, ConnectX HCAs, a subnet manager) whose
// switches are seen through infiniband-diags (fabric/<sample>/) instead of switches/ dirs.
enum class FabricKind { Roce, Ib };

// InfiniBand generation: HDR (Quantum QM8700 40-port switches, ConnectX-6 at 200 Gb/s) or NDR
// (Quantum-2 QM9700 64-port switches, ConnectX-7 at 400 Gb/s), 4X links throughout.
enum class IbSpeed { Hdr, Ndr };

// Which QoS config tool's output a host capture carries: Auto writes mlnx_qos for mlx5 NICs
// and iproute2's dcb for the others (as those hosts ship them); None writes neither, so QoS can
// only be inferred from counters.
enum class QosTool { Auto, MlnxQos, Dcb, None };

// How a host's clock was captured: chronyc tracking, or another view a real fleet gives
// (linuxptp's phc2sys log, pmc, chronyc sources, ntpq -pn).
enum class ClockView { ChronyTracking, PtpLog, Pmc, ChronySources, Ntpq };

// Which form of `lldpcli show neighbors` a host capture carries: `-f json` or the default text.
enum class LldpView { Json, Text };

struct FaultRequest {
  std::string id;       // a cause id of spec/diagnosis.md, or "healthy"
  std::string entity;   // "" = chosen by the seed; else an entity name ("nic:h/dev", "leaf1", ...)
  std::string variant;  // "" = chosen by the seed; else one way of the fault ("two-masters", ...)
};

struct SimConfig {
  FabricKind fabric = FabricKind::Roce;
  IbSpeed ib_speed = IbSpeed::Hdr;  // FabricKind::Ib only
  std::size_t hosts = 8;
  std::size_t nics_per_host = 4;
  std::size_t hosts_per_leaf = 0;  // 0 = 16 NIC ports per leaf (at least one host)
  double oversubscription = 1.0;   // downlink : uplink capacity of every leaf
  std::vector<Vendor> vendors = {Vendor::Mlx5};
  QosTool qos_tool = QosTool::Auto;
  // False: no sysfs hw_counters directory, so `rdma statistic show` is the RDMA counters' only
  // source (a host whose sos report skipped the directory).
  bool hw_counters = true;
  std::vector<ClockView> clock_views = {ClockView::ChronyTracking};  // assigned to hosts in turn
  LldpView lldp_view = LldpView::Json;
  std::size_t samples = 2;
  double interval_s = 30.0;
  // The interval (1-based, between samples k-1 and k) in which the faults begin, so that a long
  // capture shows when; 0 = before the capture (every interval shows them).
  std::size_t onset_interval = 0;
  std::vector<FaultRequest> faults;  // empty = healthy
  std::uint64_t seed = 1;
  std::string symptom;  // "" = the usual symptom of the first fault
  std::string name;     // scenario name; "" = derived from the faults
};

// "1:3", "3:1" or "3" -> 3 (downlink capacity per unit of uplink capacity; never below 1).
Result<double> parse_oversubscription(const std::string& text);
// "mlx5,bnxt" -> vendors. InvalidArgument names the unknown vendor.
Result<std::vector<Vendor>> parse_vendors(const std::string& text);
// "auto", "mlnx_qos", "dcb" or "none". InvalidArgument otherwise.
Result<QosTool> parse_qos_tool(const std::string& text);
// "json" or "text". InvalidArgument otherwise.
Result<LldpView> parse_lldp_view(const std::string& text);
// "chrony,ptp,pmc,chrony-sources,ntpq" -> views. InvalidArgument names the unknown one.
Result<std::vector<ClockView>> parse_clock_views(const std::string& text);
// "roce" or "ib". InvalidArgument otherwise.
Result<FabricKind> parse_fabric_kind(const std::string& text);
// "hdr" or "ndr". InvalidArgument otherwise.
Result<IbSpeed> parse_ib_speed(const std::string& text);
// "pfc-storm@nic:node01/mlx5_0" -> {id, entity}; "subnet-manager:two-masters@..." also sets the
// variant (the text between the first ':' and '@').
FaultRequest parse_fault_request(const std::string& text);

// InvalidArgument for impossible requests: 0 hosts/NICs/samples, unknown fault id, more than
// two faults, non-positive interval, unknown symptom; on InfiniBand also more than 8 HCAs a
// host, a fault that has no meaning there (pfc-storm, ecn-misconfig, ...), a fabric larger than
// a two-level fat tree of its switches holds; on RoCE an InfiniBand-only fault.
Status validate_config(const SimConfig& config);

const std::vector<std::string>& known_symptoms();

}  // namespace netdoctor::sim
