#include "parsers/sonic_pfc_counters.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

std::vector<SonicPfcPort> read_ports(const TextTable& table, std::string_view port_header) {
  std::vector<SonicPfcPort> out;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    SonicPfcPort port;
    port.port = table.cell(r, port_header);
    if (port.port.empty()) {
      continue;
    }
    for (std::size_t p = 0; p < 8; ++p) {
      port.frames[p] = table_count(table.cell(r, "PFC" + std::to_string(p)));
    }
    out.push_back(std::move(port));
  }
  return out;
}

const SonicPfcPort* find_port(const std::vector<SonicPfcPort>& ports, std::string_view name) {
  for (const auto& port : ports) {
    if (port.port == name) {
      return &port;
    }
  }
  return nullptr;
}

}  // namespace

const SonicPfcPort* SonicPfcCounters::find_rx(std::string_view port) const {
  return find_port(rx, port);
}
const SonicPfcPort* SonicPfcCounters::find_tx(std::string_view port) const {
  return find_port(tx, port);
}

Result<SonicPfcCounters> parse_sonic_pfc_counters(std::string_view text) {
  ND_TRY(detail::check_text(text));
  SonicPfcCounters out;
  for (auto line : split_lines(text)) {
    std::string_view t = trim(line);
    if (t.starts_with("Last cached time was")) {
      out.last_cached_time = std::string(trim(t.substr(20)));
    }
  }
  bool found = false;
  for (const auto& table : parse_text_tables(text, "PFC0")) {
    if (table.column("Port Rx")) {
      out.rx = read_ports(table, "Port Rx");
      found = true;
    } else if (table.column("Port Tx")) {
      out.tx = read_ports(table, "Port Tx");
      found = true;
    }
  }
  if (!found) {
    return detail::parse_error("no 'Port Rx' or 'Port Tx' table with PFC0..PFC7 columns found");
  }
  return out;
}

nlohmann::json to_json(const SonicPfcCounters& counters) {
  auto ports = [](const std::vector<SonicPfcPort>& list) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& port : list) {
      nlohmann::json frames = nlohmann::json::array();
      for (const auto& f : port.frames) {
        frames.push_back(detail::opt(f));
      }
      array.push_back({{"port", port.port}, {"pfc", frames}});
    }
    return array;
  };
  return {{"last_cached_time", counters.last_cached_time},
          {"rx", ports(counters.rx)},
          {"tx", ports(counters.tx)}};
}

}  // namespace netdoctor::parsers
