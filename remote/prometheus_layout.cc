#include "remote/prometheus_layout.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "remote/sonic_cells.h"

namespace netdoctor::remote {

std::uint64_t whole_count(double value) {
  // llround overflows past 2^63; such a value is whole already.
  return value >= 9.2e18 ? static_cast<std::uint64_t>(value)
                         : static_cast<std::uint64_t>(std::llround(value));
}

std::string integer_text(double value) {
  return fmt::format("{}", whole_count(value));
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
