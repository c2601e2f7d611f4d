#include "parsers/lspci.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/pcie.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "(rev 01)" / "(prog-if 00 [VGA controller])" at the end of a header: the group's text and
// where it starts; nullopt when the text does not end with a balanced group.
struct TrailingGroup {
  std::string_view inner;
  std::size_t start = 0;
};
std::optional<TrailingGroup> trailing_group(std::string_view text, char open, char close) {
  if (!text.ends_with(close)) {
    return std::nullopt;
  }
  int depth = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == close) {
      ++depth;
    } else if (text[i] == open && --depth == 0) {
      return TrailingGroup{text.substr(i + 1, text.size() - i - 2), i};
    }
  }
  return std::nullopt;
}

bool is_hex_ids(std::string_view s) {
  return s.size() == 9 && s[4] == ':' &&
         s.find_first_not_of("0123456789abcdefABCDEF:") == std::string_view::npos;
}

// "Mellanox ... [ConnectX-6 Dx] [15b3:101d] (rev 01) (prog-if 00 [..])" into the device's
// description, ids and revision.
void split_description(std::string_view text, LspciDevice& dev) {
  text = trim(text);
  while (auto group = trailing_group(text, '(', ')')) {
    if (group->inner.starts_with("rev ")) {
      dev.revision = std::string(trim(group->inner.substr(4)));
    } else if (!group->inner.starts_with("prog-if ")) {
      break;
    }
    text = trim(text.substr(0, group->start));
  }
  if (auto ids = trailing_group(text, '[', ']'); ids && is_hex_ids(ids->inner)) {
    dev.vendor_device = to_lower(ids->inner);
    text = trim(text.substr(0, ids->start));
  }
  dev.description = std::string(text);
}

// "0000:3b:00.0 Ethernet controller [0200]: Mellanox ..." -> a device; nullopt for any other
// line.
std::optional<LspciDevice> parse_header(std::string_view line) {
  auto space = line.find(' ');
  if (space == std::string_view::npos) {
    return std::nullopt;
  }
  auto address = normalize_pci_address(line.substr(0, space));
  auto colon = line.find(": ", space);
  if (!address || colon == std::string_view::npos) {
    return std::nullopt;
  }
  LspciDevice dev;
  dev.address = *address;
  std::string_view cls = trim(line.substr(space + 1, colon - space - 1));
  if (auto code = trailing_group(cls, '[', ']')) {
    dev.class_code = std::string(code->inner);
    cls = trim(cls.substr(0, code->start));
  }
  dev.class_name = std::string(cls);
  split_description(line.substr(colon + 2), dev);
  return dev;
}

// "Port #0, Speed 8GT/s (downgraded), Width x8 (downgraded), ASPM ..." by its comma parts.
PcieLinkState parse_link(std::string_view value) {
  PcieLinkState link;
  link.text = std::string(value);
  for (auto part : split(value, ',')) {
    part = trim(part);
    const bool downgraded = contains(part, "(downgraded)");
    if (part.starts_with("Speed ")) {
      link.speed_gt_s = parse_gt_s(part);
      link.speed_downgraded = downgraded;
    } else if (part.starts_with("Width ")) {
      link.width = parse_lane_width(part.substr(6));
      link.width_downgraded = downgraded;
    }
  }
  if (link.speed_gt_s) {
    link.generation = pcie_generation(*link.speed_gt_s);
    if (link.width) {
      link.bandwidth_gbit_s = pcie_bandwidth_gbit_s(*link.speed_gt_s, *link.width);
    }
  }
  return link;
}

// "Supported Link Speeds: 2.5-16GT/s, Crosslink- ..." -> 16.
std::optional<double> max_supported_speed(std::string_view value) {
  auto at = value.find("Supported Link Speeds:");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view speeds = trim(value.substr(at + 22));
  speeds = speeds.substr(0, speeds.find(','));
  if (auto dash = speeds.rfind('-'); dash != std::string_view::npos) {
    speeds = speeds.substr(dash + 1);
  }
  return parse_gt_s(speeds);
}

bool below(const std::optional<double>& status, const std::optional<double>& capability) {
  return status && capability && *status + 1e-9 < *capability;
}

void derive_degraded(LspciDevice& dev) {
  if (!dev.link_status) {
    return;
  }
  const PcieLinkState& sta = *dev.link_status;
  dev.link_degraded = sta.speed_downgraded || sta.width_downgraded;
  if (dev.link_capability) {
    const PcieLinkState& cap = *dev.link_capability;
    auto as_double = [](const std::optional<std::uint32_t>& w) {
      return w ? std::optional<double>(*w) : std::nullopt;
    };
    dev.link_degraded = dev.link_degraded || below(sta.speed_gt_s, cap.speed_gt_s) ||
                        below(as_double(sta.width), as_double(cap.width));
  }
}

// "[PN] Part number: MCX556A-EDAT" -> VPD keyword and value.
void read_vpd(std::string_view line, LspciDevice& dev) {
  auto close = line.find(']');
  auto colon = line.find(':', close);
  if (close == std::string_view::npos || colon == std::string_view::npos) {
    return;
  }
  std::string key(line.substr(1, close - 1));
  std::string value(trim(line.substr(colon + 1)));
  if (key == "PN" && dev.part_number.empty()) {
    dev.part_number = value;
  } else if (key == "SN" && dev.serial_number.empty()) {
    dev.serial_number = value;
  }
  dev.vpd.emplace(std::move(key), std::move(value));
}

// A line inside a device block: the fields it carries. Returns false for a line that is none of
// the link lines (used to decide whether a headerless grep fragment is lspci output).
bool read_field(std::string_view line, LspciDevice& dev) {
  if (line.starts_with('[')) {
    read_vpd(line, dev);
    return false;
  }
  auto kv = detail::split_key_value(line);
  if (!kv) {
    return false;
  }
  const std::string_view key = kv->key;
  const std::string_view value = kv->value;
  if (key == "LnkCap") {
    dev.link_capability = parse_link(value);
    return true;
  }
  if (key == "LnkSta") {
    dev.link_status = parse_link(value);
    return true;
  }
  if (key == "LnkCap2") {
    dev.link_capability2 = std::string(value);
    dev.max_supported_speed_gt_s = max_supported_speed(value);
  } else if (key == "LnkSta2") {
    dev.link_status2 = std::string(value);
  } else if (key == "Kernel driver in use") {
    dev.kernel_driver = std::string(value);
  } else if (key == "Kernel modules") {
    dev.kernel_modules = std::string(value);
  } else if (key == "Subsystem" && dev.subsystem.empty()) {
    dev.subsystem = std::string(value);
  } else if (key == "Product Name" && dev.product_name.empty()) {
    dev.product_name = std::string(value);
  } else if (key == "Capabilities") {
    dev.capabilities.emplace_back(value);
  }
  return false;
}

}  // namespace

const LspciDevice* LspciOutput::find(std::string_view address) const {
  auto wanted = normalize_pci_address(address);
  for (const auto& dev : devices) {
    if (dev.address == address || (wanted && dev.address == *wanted)) {
      return &dev;
    }
  }
  return nullptr;
}

Result<LspciOutput> parse_lspci(std::string_view text) {
  ND_TRY(detail::check_text(text));
  LspciOutput out;
  LspciDevice* current = nullptr;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(detail::strip_quote(raw));
    if (line.empty()) {
      continue;
    }
    if (auto dev = parse_header(line)) {
      current = &out.devices.emplace_back(std::move(*dev));
      continue;
    }
    if (detail::is_prompt_line(line)) {
      out.other_lines.emplace_back(line);
      current = nullptr;  // the next command's output follows
      continue;
    }
    if (current == nullptr) {
      // A `| grep Lnk` fragment has link lines and no header: one device without an address.
      LspciDevice fragment;
      if (!read_field(line, fragment)) {
        out.other_lines.emplace_back(line);
        continue;
      }
      current = &out.devices.emplace_back();
    }
    read_field(line, *current);
    current->lines.emplace_back(line);
  }
  if (out.devices.empty()) {
    return detail::parse_error(
        "no lspci device line ('3b:00.0 Ethernet controller: ...') or LnkCap/LnkSta line found");
  }
  for (auto& dev : out.devices) {
    derive_degraded(dev);
  }
  return out;
}

namespace {

nlohmann::json link_json(const std::optional<PcieLinkState>& link) {
  if (!link) {
    return nullptr;
  }
  using detail::opt;
  return {{"speed_gt_s", opt(link->speed_gt_s)},
          {"width", opt(link->width)},
          {"speed_downgraded", link->speed_downgraded},
          {"width_downgraded", link->width_downgraded},
          {"generation", opt(link->generation)},
          {"bandwidth_gbit_s", opt(link->bandwidth_gbit_s)},
          {"text", link->text}};
}

}  // namespace

nlohmann::json to_json(const LspciOutput& output) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : output.devices) {
    devices.push_back({{"address", d.address},
                       {"class", d.class_name},
                       {"class_code", d.class_code},
                       {"description", d.description},
                       {"vendor_device", d.vendor_device},
                       {"revision", d.revision},
                       {"subsystem", d.subsystem},
                       {"link_capability", link_json(d.link_capability)},
                       {"link_status", link_json(d.link_status)},
                       {"link_capability2", d.link_capability2},
                       {"max_supported_speed_gt_s", detail::opt(d.max_supported_speed_gt_s)},
                       {"link_status2", d.link_status2},
                       {"link_degraded", d.link_degraded},
                       {"kernel_driver", d.kernel_driver},
                       {"kernel_modules", d.kernel_modules},
                       {"product_name", d.product_name},
                       {"part_number", d.part_number},
                       {"serial_number", d.serial_number},
                       {"vpd", d.vpd},
                       {"capabilities", d.capabilities},
                       {"lines", d.lines}});
  }
  return {{"devices", devices}, {"other_lines", output.other_lines}};
}

}  // namespace netdoctor::parsers
