#include "parsers/sonic_lldp_table.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {

Result<SonicLldpTable> parse_sonic_lldp_table(std::string_view text) {
  ND_TRY_ASSIGN(TextTable table, find_text_table(text, {"LocalPort", "RemoteDevice"}));
  SonicLldpTable out;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    SonicLldpEntry e;
    e.local_port = table.cell(r, "LocalPort");
    if (e.local_port.empty()) {
      continue;
    }
    e.remote_device = table.cell(r, "RemoteDevice");
    e.remote_port_id = table.cell(r, "RemotePortID");
    e.capability = table.cell(r, "Capability");
    e.remote_port_descr = table.cell(r, "RemotePortDescr");
    out.entries.push_back(std::move(e));
  }
  for (auto line : split_lines(text)) {
    std::string_view t = trim(line);
    if (t.starts_with("Total entries displayed:")) {
      out.total_entries = parse_u64(t.substr(24));
    }
  }
  return out;
}

nlohmann::json to_json(const SonicLldpTable& table) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& e : table.entries) {
    array.push_back({{"local_port", e.local_port},
                     {"remote_device", e.remote_device},
                     {"remote_port_id", e.remote_port_id},
                     {"capability", e.capability},
                     {"remote_port_descr", e.remote_port_descr}});
  }
  return {{"entries", array}, {"total_entries", detail::opt(table.total_entries)}};
}

}  // namespace netdoctor::parsers
