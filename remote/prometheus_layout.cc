#include "remote/prometheus_layout.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "base/whole_number.h"
#include "remote/sonic_cells.h"

namespace netdoctor::remote {

std::uint64_t saturated_count(double value) {
  return whole_count(value).value_or(value > 0.0 ? std::numeric_limits<std::uint64_t>::max() : 0);
}

std::string integer_text(double value) {
  return fmt::format("{}", saturated_count(value));
}

bool is_lldp_neighbor_metric(std::string_view name) {
  return name == "netdoctor_lldp_neighbor_info" || name == "sonic_lldp_neighbor_info";
}

std::optional<LldpNeighborLabels> lldp_neighbor_labels(const PromSeries& series) {
  LldpNeighborLabels out{series.label("remote_system_name"), series.label("remote_port_display"),
                         series.label("remote_port_desc")};
  // A Linux host's lldpd sends its MAC as the port ID and the netdev as the description: the
  // description is the port then (sonic-exporter's remote_port_display says the same).
  const std::string& subtype = series.label("remote_port_id_subtype");
  const bool mac_id = subtype == "mac" || subtype == "3";
  if (out.remote_port.empty()) {
    out.remote_port = mac_id && !out.remote_port_descr.empty() ? out.remote_port_descr
                                                               : series.label("remote_port_id");
  }
  if (out.remote_port.empty()) {
    out.remote_port = out.remote_port_descr;
  }
  if (!is_one_word(out.remote_system) || !is_one_word(out.remote_port)) {
    return std::nullopt;
  }
  if (!is_one_word(out.remote_port_descr)) {
    out.remote_port_descr = out.remote_port;
  }
  return out;
}

}  // namespace netdoctor::remote
