#include "parsers/ibdiagnet_pm.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibdiagnet_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "Port=1 Lid=0x0003 GUID=0x7cfe900300a5a2c0 Device=52000 Port Name=MF0;sw:MSB7700/U1/P1".
std::optional<IbdiagPmPort> read_header(std::string_view line) {
  if (!line.starts_with("Port=")) {
    return std::nullopt;
  }
  constexpr std::string_view k_name = "Port Name=";
  auto name_at = line.find(k_name);
  std::string_view head = line.substr(0, name_at);
  IbdiagPmPort p;
  bool has_port = false;
  bool has_guid = false;
  for (auto word : split_ws(head)) {
    auto eq = word.find('=');
    if (eq == std::string_view::npos) {
      continue;
    }
    std::string_view key = word.substr(0, eq);
    std::string_view value = word.substr(eq + 1);
    auto n = ibdiag::number(value);
    if (key == "Port" && n && *n <= 0xffffffffu) {
      p.port = static_cast<std::uint32_t>(*n);
      has_port = true;
    } else if (key == "Lid" && n && *n <= 0xffffffffu) {
      p.lid = static_cast<std::uint32_t>(*n);
    } else if (key == "GUID" && n) {
      p.guid = *n;
      has_guid = true;
    } else if (key == "Device" && n && *n <= 0xffffffffu) {
      p.device_id = static_cast<std::uint32_t>(*n);
    }
  }
  if (!has_port || !has_guid) {
    return std::nullopt;
  }
  if (name_at != std::string_view::npos) {
    p.port_name = std::string(line.substr(name_at + k_name.size()));
  }
  return p;
}

bool is_rule(std::string_view line) {
  return !line.empty() && line.find_first_not_of('-') == std::string_view::npos;
}

// "port_xmit_data=0x00000000ffffffff" into the open block; false when not a counter line.
bool read_counter(std::string_view line, IbdiagPmPort& port) {
  auto eq = line.find('=');
  if (eq == std::string_view::npos || eq == 0 || line.find(' ') < eq) {
    return false;
  }
  std::string name(trim(line.substr(0, eq)));
  std::string_view value = trim(line.substr(eq + 1));
  if (auto v = ibdiag::counter(value)) {
    port.counters[name] = *v;
  } else if (ibdiag::not_available(value) || ibdiag::number(value)) {
    port.not_available.push_back(name);
  } else {
    return false;
  }
  return true;
}

}  // namespace

Result<IbdiagPm> parse_ibdiagnet_pm(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbdiagPm out;
  for (auto raw : ib::lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || ibdiag::is_comment(line) || is_rule(line)) {
      continue;
    }
    if (auto header = read_header(line)) {
      out.ports.push_back(std::move(*header));
    } else if (out.ports.empty() || !read_counter(line, out.ports.back())) {
      out.unparsed.emplace_back(line);
    }
  }
  if (out.ports.empty()) {
    return detail::parse_error(
        "no ibdiagnet2.pm port block found (a 'Port=<n> Lid=<lid> GUID=0x<guid> Device=<id> "
        "Port Name=<name>' line followed by name=value counters)");
  }
  return out;
}

nlohmann::json to_json(const IbdiagPm& pm) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : pm.ports) {
    ports.push_back({{"port", p.port},
                     {"lid", detail::opt(p.lid)},
                     {"guid", ib::guid_text(p.guid)},
                     {"device_id", detail::opt(p.device_id)},
                     {"port_name", p.port_name},
                     {"counters", p.counters},
                     {"not_available", p.not_available}});
  }
  return {{"ports", ports}, {"unparsed", pm.unparsed}};
}

}  // namespace netdoctor::parsers
