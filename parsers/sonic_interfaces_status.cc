#include "parsers/sonic_interfaces_status.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "base/whole_number.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "200G" -> 200000 Mb/s, "25G" -> 25000, "100M" -> 100; "N/A" -> nullopt.
std::optional<std::uint64_t> speed_mbps(std::string_view speed) {
  speed = trim(speed);
  if (speed.empty()) {
    return std::nullopt;
  }
  std::uint64_t factor = 1;
  if (speed.back() == 'G') {
    factor = 1000;
    speed.remove_suffix(1);
  } else if (speed.back() == 'M') {
    speed.remove_suffix(1);
  } else if (speed.back() == 'T') {
    factor = 1000000;
    speed.remove_suffix(1);
  }
  if (auto number = parse_double(speed)) {
    return whole_count(*number * static_cast<double>(factor));
  }
  return std::nullopt;
}

}  // namespace

Result<SonicInterfacesStatus> parse_sonic_interfaces_status(std::string_view text) {
  ND_TRY_ASSIGN(TextTable table, find_text_table(text, {"Interface", "Oper"}));
  SonicInterfacesStatus out;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    SonicInterfaceStatus s;
    for (std::size_t col = 0; col < table.headers.size(); ++col) {
      s.cells[table.headers[col]] = table.rows[r][col];
    }
    s.interface = table.cell(r, "Interface");
    if (s.interface.empty()) {
      continue;
    }
    s.lanes = table.cell(r, "Lanes");
    for (auto lane : split(s.lanes, ',')) {
      if (auto n = parse_u64(lane)) {
        s.lane_list.push_back(static_cast<std::uint32_t>(*n));
      }
    }
    s.speed = table.cell(r, "Speed");
    s.speed_mbps = speed_mbps(s.speed);
    if (auto mtu = parse_u64(table.cell(r, "MTU"))) {
      s.mtu = static_cast<std::uint32_t>(*mtu);
    }
    s.fec = table.cell(r, "FEC");
    s.alias = table.cell(r, "Alias");
    s.vlan = table.cell(r, "Vlan");
    s.oper = table.cell(r, "Oper");
    s.admin = table.cell(r, "Admin");
    s.type = table.cell(r, "Type");
    s.asym_pfc = table.cell(r, "Asym PFC");
    out.interfaces.push_back(std::move(s));
  }
  return out;
}

nlohmann::json to_json(const SonicInterfacesStatus& status) {
  using detail::opt;
  nlohmann::json array = nlohmann::json::array();
  for (const auto& s : status.interfaces) {
    array.push_back({{"interface", s.interface},
                     {"lanes", s.lanes},
                     {"speed", s.speed},
                     {"speed_mbps", opt(s.speed_mbps)},
                     {"mtu", opt(s.mtu)},
                     {"fec", s.fec},
                     {"alias", s.alias},
                     {"vlan", s.vlan},
                     {"oper", s.oper},
                     {"admin", s.admin},
                     {"type", s.type},
                     {"asym_pfc", s.asym_pfc}});
  }
  return {{"interfaces", array}};
}

}  // namespace netdoctor::parsers
