#include "parsers/ibv_devinfo.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

using detail::before_paren;
using detail::leading_u64;
using detail::paren_u64;

std::optional<std::uint32_t> u32(std::optional<std::uint64_t> v) {
  if (!v) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*v);
}

// "GID[  3]" -> 3.
std::optional<std::uint32_t> gid_index(std::string_view key) {
  auto open = key.find('[');
  auto close = key.find(']');
  if (!key.starts_with("GID") || open == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  return u32(parse_u64(key.substr(open + 1, close - open - 1)));
}

// ibstat words -> the verbs enum numbers ibv_devinfo prints.
struct Named {
  std::string_view name;
  std::uint32_t number;
};
constexpr Named k_port_states[] = {{"Down", 1}, {"Initializing", 2}, {"Armed", 3}, {"Active", 4}};
constexpr Named k_phys_states[] = {
    {"Sleep", 1}, {"Polling", 2}, {"Disabled", 3}, {"LinkUp", 5}, {"LinkErrorRecovery", 6}};

template <std::size_t N>
std::optional<std::uint32_t> lookup(const Named (&table)[N], std::string_view name) {
  for (const auto& entry : table) {
    if (entry.name == name) {
      return entry.number;
    }
  }
  return std::nullopt;
}

void apply_port_field(IbvPort& port, std::string_view key, std::string_view value) {
  if (auto index = gid_index(key)) {
    IbvGid gid;
    gid.index = *index;
    auto comma = value.find(',');
    gid.gid = std::string(trim(value.substr(0, comma)));
    if (comma != std::string_view::npos) {
      gid.type = std::string(trim(value.substr(comma + 1)));
    }
    port.gids.push_back(std::move(gid));
    return;
  }
  port.fields[std::string(key)] = std::string(value);
  if (key == "state") {
    port.state = std::string(before_paren(value));
    port.state_num = u32(paren_u64(value));
  } else if (key == "State") {  // ibstat
    port.state = std::string(value);
    port.state_num = lookup(k_port_states, value);
  } else if (key == "phys_state") {
    port.phys_state = std::string(before_paren(value));
    port.phys_state_num = u32(paren_u64(value));
  } else if (key == "Physical state") {
    port.phys_state = std::string(value);
    port.phys_state_num = lookup(k_phys_states, value);
  } else if (key == "max_mtu") {
    port.max_mtu_bytes = u32(leading_u64(value));
  } else if (key == "active_mtu") {
    port.active_mtu_bytes = u32(leading_u64(value));
  } else if (key == "link_layer" || key == "Link layer") {
    port.link_layer = std::string(value);
  } else if (key == "active_width") {
    port.active_width = std::string(value);
    port.active_width_lanes = u32(leading_u64(value));
  } else if (key == "active_speed") {
    port.active_speed = std::string(value);
    auto tokens = split_ws(value);
    if (!tokens.empty()) {
      port.active_speed_gbps = parse_double(tokens[0]);
    }
  } else if (key == "Rate") {
    port.rate_gbps = parse_double(value);
  } else if (key == "sm_lid" || key == "SM lid") {
    port.sm_lid = u32(parse_u64(value));
  } else if (key == "port_lid" || key == "Base lid") {
    port.port_lid = u32(parse_u64(value));
  }
}

void apply_device_field(IbvDevice& dev, std::string_view key, std::string_view value) {
  dev.fields[std::string(key)] = std::string(value);
  if (key == "fw_ver" || key == "Firmware version") {
    dev.fw_ver = std::string(value);
  } else if (key == "node_guid" || key == "Node GUID") {
    dev.node_guid = std::string(value);
  } else if (key == "sys_image_guid" || key == "System image GUID") {
    dev.sys_image_guid = std::string(value);
  } else if (key == "vendor_id") {
    dev.vendor_id = std::string(value);
  } else if (key == "vendor_part_id") {
    dev.vendor_part_id = u32(parse_u64(value));
  } else if (key == "board_id") {
    dev.board_id = std::string(value);
  } else if (key == "phys_port_cnt" || key == "Number of ports") {
    dev.phys_port_cnt = u32(parse_u64(value));
  } else if (key == "transport") {
    dev.transport = std::string(value);
  } else if (key == "CA type") {
    dev.ca_type = std::string(value);
    if (value.starts_with("MT")) {
      dev.vendor_part_id = u32(parse_u64(value.substr(2)));
    }
  }
}

void finish_port(IbvPort& port) {
  if (!port.rate_gbps && port.active_width_lanes && port.active_speed_gbps) {
    port.rate_gbps = *port.active_width_lanes * *port.active_speed_gbps;
  }
}

}  // namespace

Result<IbvDevinfo> parse_ibv_devinfo(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbvDevinfo out;
  IbvDevice* dev = nullptr;
  IbvPort* port = nullptr;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    // ibstat: "CA 'mlx5_0'" starts a device, "Port 1:" a port.
    if (line.starts_with("CA '") && line.ends_with("'")) {
      out.source = "ibstat";
      out.devices.emplace_back();
      dev = &out.devices.back();
      dev->hca_id = std::string(line.substr(4, line.size() - 5));
      port = nullptr;
      continue;
    }
    auto kv = detail::split_key_value(line);
    if (!kv || kv->key.empty()) {
      continue;
    }
    if (kv->key == "hca_id") {
      out.source = "ibv_devinfo";
      out.devices.emplace_back();
      dev = &out.devices.back();
      dev->hca_id = std::string(kv->value);
      port = nullptr;
      continue;
    }
    if (dev == nullptr) {
      continue;  // lspci lines and other text before the first device
    }
    bool ibstat_port = kv->key.starts_with("Port ") && kv->value.empty() && out.source == "ibstat";
    if (kv->key == "port" || ibstat_port) {
      auto num = ibstat_port ? parse_u64(kv->key.substr(5)) : parse_u64(kv->value);
      if (!num) {
        continue;
      }
      dev->ports.emplace_back();
      port = &dev->ports.back();
      port->port_num = static_cast<std::uint32_t>(*num);
      continue;
    }
    if (port != nullptr) {
      apply_port_field(*port, kv->key, kv->value);
    } else {
      apply_device_field(*dev, kv->key, kv->value);
    }
  }
  for (auto& device : out.devices) {
    for (auto& p : device.ports) {
      finish_port(p);
    }
  }
  if (out.devices.empty()) {
    return detail::parse_error("no 'hca_id:' (ibv_devinfo) or \"CA '<dev>'\" (ibstat) block found");
  }
  return out;
}

nlohmann::json to_json(const IbvDevinfo& info) {
  using detail::opt;
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& dev : info.devices) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& port : dev.ports) {
      nlohmann::json gids = nlohmann::json::array();
      for (const auto& gid : port.gids) {
        gids.push_back({{"index", gid.index}, {"gid", gid.gid}, {"type", gid.type}});
      }
      ports.push_back({{"port", port.port_num},
                       {"state", port.state},
                       {"state_num", opt(port.state_num)},
                       {"phys_state", port.phys_state},
                       {"phys_state_num", opt(port.phys_state_num)},
                       {"max_mtu_bytes", opt(port.max_mtu_bytes)},
                       {"active_mtu_bytes", opt(port.active_mtu_bytes)},
                       {"link_layer", port.link_layer},
                       {"active_width", port.active_width},
                       {"active_width_lanes", opt(port.active_width_lanes)},
                       {"active_speed", port.active_speed},
                       {"active_speed_gbps", opt(port.active_speed_gbps)},
                       {"rate_gbps", opt(port.rate_gbps)},
                       {"sm_lid", opt(port.sm_lid)},
                       {"port_lid", opt(port.port_lid)},
                       {"gids", gids}});
    }
    devices.push_back({{"hca_id", dev.hca_id},
                       {"fw_ver", dev.fw_ver},
                       {"node_guid", dev.node_guid},
                       {"sys_image_guid", dev.sys_image_guid},
                       {"vendor_id", dev.vendor_id},
                       {"vendor_part_id", opt(dev.vendor_part_id)},
                       {"board_id", dev.board_id},
                       {"phys_port_cnt", opt(dev.phys_port_cnt)},
                       {"transport", dev.transport},
                       {"ca_type", dev.ca_type},
                       {"ports", ports}});
  }
  return {{"source", info.source}, {"devices", devices}};
}

}  // namespace netdoctor::parsers
