#include "sim/sim_config.h"

#include <algorithm>

#include "base/strings.h"
#include "sim/faults/fault_table.h"
#include "sim/ib_shape.h"

namespace netdoctor::sim {

const std::vector<std::string>& known_symptoms() {
  static const std::vector<std::string> k_symptoms = {
      "slowdown", "low-utilization", "asymmetric-bandwidth", "timeouts", "high-latency", "auto"};
  return k_symptoms;
}

Result<double> parse_oversubscription(const std::string& text) {
  const std::vector<std::string_view> parts = split(trim(text), ':');
  std::vector<double> values;
  for (const std::string_view part : parts) {
    const std::optional<double> value = parse_double(part);
    if (!value || *value <= 0.0) {
      return make_error(ErrorCode::InvalidArgument, "oversubscription must look like 1:3, 3:1 or 3",
                        text);
    }
    values.push_back(*value);
  }
  if (values.empty() || values.size() > 2) {
    return make_error(ErrorCode::InvalidArgument, "oversubscription must look like 1:3, 3:1 or 3",
                      text);
  }
  if (values.size() == 1) {
    return std::max(values[0], 1.0);
  }
  // Either order: the ratio of the larger to the smaller side (a leaf never has more uplink
  // than it can use in the simulator).
  return std::max(values[0], values[1]) / std::min(values[0], values[1]);
}

Result<std::vector<Vendor>> parse_vendors(const std::string& text) {
  std::vector<Vendor> vendors;
  for (const std::string_view raw : split(text, ',')) {
    const std::string name = to_lower(trim(raw));
    if (name == "mlx5" || name == "mellanox" || name == "nvidia") {
      vendors.push_back(Vendor::Mlx5);
    } else if (name == "bnxt" || name == "broadcom" || name == "bnxt_re") {
      vendors.push_back(Vendor::Bnxt);
    } else {
      return make_error(ErrorCode::InvalidArgument,
                        "unknown NIC vendor '" + name + "' (known: mlx5, bnxt)", text);
    }
  }
  if (vendors.empty()) {
    return make_error(ErrorCode::InvalidArgument, "no NIC vendor given", text);
  }
  return vendors;
}

Result<QosTool> parse_qos_tool(const std::string& text) {
  const std::string name = to_lower(trim(text));
  const std::pair<std::string_view, QosTool> tools[] = {{"auto", QosTool::Auto},
                                                        {"mlnx_qos", QosTool::MlnxQos},
                                                        {"dcb", QosTool::Dcb},
                                                        {"none", QosTool::None}};
  for (const auto& [known, tool] : tools) {
    if (name == known) {
      return tool;
    }
  }
  return make_error(ErrorCode::InvalidArgument,
                    "unknown QoS tool '" + name + "' (known: auto, mlnx_qos, dcb, none)", text);
}

Result<LldpView> parse_lldp_view(const std::string& text) {
  const std::string name = to_lower(trim(text));
  if (name == "json") {
    return LldpView::Json;
  }
  if (name == "text") {
    return LldpView::Text;
  }
  return make_error(ErrorCode::InvalidArgument,
                    "unknown LLDP view '" + name + "' (known: json, text)", text);
}

Result<std::vector<ClockView>> parse_clock_views(const std::string& text) {
  const std::pair<std::string_view, ClockView> known[] = {
      {"chrony", ClockView::ChronyTracking},
      {"ptp", ClockView::PtpLog},
      {"pmc", ClockView::Pmc},
      {"chrony-sources", ClockView::ChronySources},
      {"ntpq", ClockView::Ntpq}};
  std::vector<ClockView> views;
  for (const std::string_view raw : split(text, ',')) {
    const std::string name = to_lower(trim(raw));
    const auto* match = std::find_if(std::begin(known), std::end(known),
                                     [&name](const auto& entry) { return entry.first == name; });
    if (match == std::end(known)) {
      return make_error(
          ErrorCode::InvalidArgument,
          "unknown clock view '" + name + "' (known: chrony, ptp, pmc, chrony-sources, ntpq)",
          text);
    }
    views.push_back(match->second);
  }
  if (views.empty()) {
    return make_error(ErrorCode::InvalidArgument, "no clock view given", text);
  }
  return views;
}

Result<FabricKind> parse_fabric_kind(const std::string& text) {
  const std::string name = to_lower(trim(text));
  if (name == "roce") {
    return FabricKind::Roce;
  }
  if (name == "ib" || name == "infiniband") {
    return FabricKind::Ib;
  }
  return make_error(ErrorCode::InvalidArgument, "unknown fabric '" + name + "' (known: roce, ib)",
                    text);
}

Result<IbSpeed> parse_ib_speed(const std::string& text) {
  const std::string name = to_lower(trim(text));
  if (name == "hdr") {
    return IbSpeed::Hdr;
  }
  if (name == "ndr") {
    return IbSpeed::Ndr;
  }
  return make_error(ErrorCode::InvalidArgument,
                    "unknown InfiniBand speed '" + name + "' (known: hdr, ndr)", text);
}

FaultRequest parse_fault_request(const std::string& text) {
  const size_t at = text.find('@');
  FaultRequest request{text.substr(0, at), at == std::string::npos ? "" : text.substr(at + 1), ""};
  const size_t colon = request.id.find(':');
  if (colon != std::string::npos) {
    request.variant = request.id.substr(colon + 1);
    request.id.resize(colon);
  }
  return request;
}

namespace {

// The fabric-specific limits: InfiniBand hosts carry at most 8 HCAs, the fat tree must fit its
// switches, and each fault must mean something on the fabric asked for.
Status validate_fabric(const SimConfig& config) {
  const bool ib = config.fabric == FabricKind::Ib;
  if (ib && config.nics_per_host > 8) {
    return make_error(ErrorCode::InvalidArgument,
                      "--nics-per-host must be between 1 and 8 on InfiniBand");
  }
  if (ib) {
    ND_TRY(ib_shape(config));
  }
  for (const FaultRequest& fault : config.faults) {
    const FaultSpec* spec = find_fault(fault.id);
    if (spec != nullptr && !spec->applies(config.fabric)) {
      return make_error(
          ErrorCode::InvalidArgument,
          "fault '" + fault.id + "' has no meaning on " +
              (ib ? "an InfiniBand fabric (no PFC, ECN, RoCE GIDs or Ethernet priorities there)"
                  : "a RoCE fabric (it is InfiniBand's: use --fabric ib)") +
              "; faults of this fabric: " + join(fault_ids(config.fabric), ", "));
    }
  }
  return {};
}

}  // namespace

Status validate_config(const SimConfig& config) {
  if (config.hosts == 0) {
    return make_error(ErrorCode::InvalidArgument, "--hosts must be at least 1");
  }
  if (config.hosts > 100000) {
    return make_error(ErrorCode::InvalidArgument, "--hosts above 100000 is not supported");
  }
  if (config.nics_per_host == 0 || config.nics_per_host > 16) {
    return make_error(ErrorCode::InvalidArgument, "--nics must be between 1 and 16");
  }
  if (config.samples == 0 || config.samples > 1000) {
    return make_error(ErrorCode::InvalidArgument, "--samples must be between 1 and 1000");
  }
  if (config.onset_interval > 0 && config.onset_interval >= config.samples) {
    return make_error(ErrorCode::InvalidArgument,
                      "--onset must name an interval of the capture: 1 to samples - 1");
  }
  if (!(config.interval_s > 0.0) || config.interval_s > 86400.0) {
    return make_error(ErrorCode::InvalidArgument, "--interval must be between 0 and 86400 s");
  }
  if (config.vendors.empty()) {
    return make_error(ErrorCode::InvalidArgument, "no NIC vendor given");
  }
  if (config.oversubscription < 1.0) {
    return make_error(ErrorCode::InvalidArgument, "oversubscription below 1:1");
  }
  if (config.faults.size() > 2) {
    return make_error(ErrorCode::InvalidArgument, "at most two faults can be combined");
  }
  for (const FaultRequest& fault : config.faults) {
    if (find_fault(fault.id) == nullptr) {
      return make_error(ErrorCode::InvalidArgument, "unknown fault id '" + fault.id + "' (known: " +
                                                        join(fault_ids(), ", ") + ")");
    }
  }
  ND_TRY(validate_fabric(config));
  if (config.faults.size() == 2 && config.faults[0].id == config.faults[1].id) {
    return make_error(ErrorCode::InvalidArgument, "the same fault given twice");
  }
  if (!config.symptom.empty() && std::find(known_symptoms().begin(), known_symptoms().end(),
                                           config.symptom) == known_symptoms().end()) {
    return make_error(
        ErrorCode::InvalidArgument,
        "unknown symptom '" + config.symptom + "' (known: " + join(known_symptoms(), ", ") + ")");
  }
  return {};
}

}  // namespace netdoctor::sim
