#include "parsers/sonic_interfaces_counters.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

std::optional<double> percent(std::string_view cell) {
  cell = trim(cell);
  if (!cell.ends_with('%')) {
    return std::nullopt;
  }
  cell.remove_suffix(1);
  return parse_double(cell);
}

}  // namespace

std::optional<double> sonic_rate_bytes_per_s(std::string_view cell) {
  auto tokens = split_ws(cell);
  if (tokens.size() != 2) {
    return std::nullopt;
  }
  auto number = parse_double(tokens[0]);
  if (!number) {
    return std::nullopt;
  }
  // sonic-utilities netstat.format_brate divides by powers of 1000.
  struct Unit {
    std::string_view name;
    double factor;
  };
  static constexpr Unit k_units[] = {
      {"B/s", 1.0}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};
  for (const auto& unit : k_units) {
    if (tokens[1] == unit.name) {
      return *number * unit.factor;
    }
  }
  return std::nullopt;
}

Result<SonicInterfacesCounters> parse_sonic_interfaces_counters(std::string_view text) {
  ND_TRY_ASSIGN(TextTable table, find_text_table(text, {"IFACE", "RX_OK"}));
  SonicInterfacesCounters out;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    SonicInterfaceCounters c;
    for (std::size_t col = 0; col < table.headers.size(); ++col) {
      c.cells[table.headers[col]] = table.rows[r][col];
    }
    c.iface = table.cell(r, "IFACE");
    if (c.iface.empty()) {
      continue;
    }
    c.state = table.cell(r, "STATE");
    c.rx_ok = table_count(table.cell(r, "RX_OK"));
    c.rx_err = table_count(table.cell(r, "RX_ERR"));
    c.rx_drp = table_count(table.cell(r, "RX_DRP"));
    c.rx_ovr = table_count(table.cell(r, "RX_OVR"));
    c.tx_ok = table_count(table.cell(r, "TX_OK"));
    c.tx_err = table_count(table.cell(r, "TX_ERR"));
    c.tx_drp = table_count(table.cell(r, "TX_DRP"));
    c.tx_ovr = table_count(table.cell(r, "TX_OVR"));
    c.rx_bytes_per_s = sonic_rate_bytes_per_s(table.cell(r, "RX_BPS"));
    c.tx_bytes_per_s = sonic_rate_bytes_per_s(table.cell(r, "TX_BPS"));
    c.rx_util_percent = percent(table.cell(r, "RX_UTIL"));
    c.tx_util_percent = percent(table.cell(r, "TX_UTIL"));
    out.interfaces.push_back(std::move(c));
  }
  return out;
}

nlohmann::json to_json(const SonicInterfacesCounters& counters) {
  using detail::opt;
  nlohmann::json array = nlohmann::json::array();
  for (const auto& c : counters.interfaces) {
    array.push_back({{"iface", c.iface},
                     {"state", c.state},
                     {"rx_ok", opt(c.rx_ok)},
                     {"rx_bytes_per_s", opt(c.rx_bytes_per_s)},
                     {"rx_util_percent", opt(c.rx_util_percent)},
                     {"rx_err", opt(c.rx_err)},
                     {"rx_drp", opt(c.rx_drp)},
                     {"rx_ovr", opt(c.rx_ovr)},
                     {"tx_ok", opt(c.tx_ok)},
                     {"tx_bytes_per_s", opt(c.tx_bytes_per_s)},
                     {"tx_util_percent", opt(c.tx_util_percent)},
                     {"tx_err", opt(c.tx_err)},
                     {"tx_drp", opt(c.tx_drp)},
                     {"tx_ovr", opt(c.tx_ovr)},
                     {"cells", c.cells}});
  }
  return {{"interfaces", array}};
}

}  // namespace netdoctor::parsers
