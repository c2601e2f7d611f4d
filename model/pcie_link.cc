#include "model/pcie_link.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/source_names.h"
#include "model/sysfs_paths.h"
#include "parsers/lspci.h"
#include "parsers/pcie.h"

namespace netdoctor::model {
namespace {

// A sysfs link speed ("16.0 GT/s PCIe", "8 GT/s"); "Unknown" (no link) is no value, anything
// else that is not a rate is logged as malformed.
std::optional<double> read_speed(SourceLog& log, const SampleSource& sample,
                                 const std::string& path, SourceMap& map) {
  auto text = read_value(log, sample, path, source::k_sysfs_pcie, map);
  if (!text || text->find("Unknown") != std::string::npos) {
    return std::nullopt;
  }
  auto gt_s = parsers::parse_gt_s(*text);
  if (!gt_s) {
    log.malformed(source::k_sysfs_pcie, sample.display_path(path),
                  make_error(ErrorCode::Parse, fmt::format("'{}' is not a PCIe link speed", *text)),
                  map);
  }
  return gt_s;
}

std::optional<std::uint32_t> read_width(SourceLog& log, const SampleSource& sample,
                                        const std::string& path, SourceMap& map) {
  auto width = read_integer(log, sample, path, source::k_sysfs_pcie, map);
  if (!width || *width < 0) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*width);
}

bool from_sysfs(SourceLog& log, const SampleSource& sample, Nic& nic) {
  const std::string dir = k_sysfs_net + nic.netdev + "/device/";
  PcieLink link;
  link.width = read_width(log, sample, dir + "current_link_width", nic.sources);
  link.max_width = read_width(log, sample, dir + "max_link_width", nic.sources);
  link.gt_s = read_speed(log, sample, dir + "current_link_speed", nic.sources);
  link.max_gt_s = read_speed(log, sample, dir + "max_link_speed", nic.sources);
  if (!link.width || !link.gt_s) {
    return false;
  }
  link.source = source::k_sysfs_pcie;
  nic.pcie = link;
  return true;
}

bool from_lspci(const parsers::LspciOutput& lspci, Nic& nic) {
  const parsers::LspciDevice* device = lspci.find(nic.bus_info);
  if (device == nullptr || !device->link_status) {
    return false;
  }
  PcieLink link;
  link.source = source::k_lspci;
  link.width = device->link_status->width;
  link.gt_s = device->link_status->speed_gt_s;
  link.width_downgraded = device->link_status->width_downgraded;
  link.speed_downgraded = device->link_status->speed_downgraded;
  if (device->link_capability) {
    link.max_width = device->link_capability->width;
    link.max_gt_s = device->link_capability->speed_gt_s;
  }
  record_source(nic.sources, source::k_lspci, Availability::Observed);
  nic.pcie = link;
  return true;
}

// The latest PCIe bandwidth line the kernel printed for the NIC's own address.
const parsers::KernelLogEvent* bandwidth_event(const parsers::KernelLog& dmesg,
                                               const std::string& address) {
  const parsers::KernelLogEvent* found = nullptr;
  for (const auto& event : dmesg.events) {
    if (event.kind == parsers::KernelEventKind::PcieBandwidth &&
        dmesg.lines[event.entry].device == address) {
      found = &event;
    }
  }
  return found;
}

// The kernel's line: a link where nothing else was captured, the limit where one was named.
void apply_kernel_line(const parsers::KernelLogEvent& event, const std::string& address, Nic& nic) {
  record_source(nic.sources, source::k_dmesg, Availability::Observed);
  PcieLink& link = nic.pcie;
  if (link.source.empty()) {
    link.source = source::k_dmesg;
    link.width = event.link_width;
    link.gt_s = event.link_speed_gt_s;
    link.max_width = event.capable_width.has_value() ? event.capable_width : event.link_width;
    link.max_gt_s = event.capable_speed_gt_s ? event.capable_speed_gt_s : event.link_speed_gt_s;
  }
  link.kernel_limited = event.bandwidth_limited;
  link.limited_at = event.limiting_device;
  // Limited upstream (a bridge, not the NIC's own link): the kernel's figure is the ceiling.
  if (event.bandwidth_limited && event.limiting_device != address && event.available_gbit_s) {
    link.ceiling_gbps = event.available_gbit_s;
  }
}

// Generation, bandwidth and the downgrade flags from the widths and rates read.
void derive(PcieLink& link) {
  if (link.gt_s) {
    link.generation = parsers::pcie_generation(*link.gt_s);
  }
  if (link.width && link.gt_s) {
    const auto own = parsers::pcie_bandwidth_gbit_s(*link.gt_s, *link.width);
    if (own) {
      link.ceiling_gbps = std::min(*own, link.ceiling_gbps.value_or(*own));
    }
  }
  if (link.max_width && link.max_gt_s) {
    link.capable_gbps = parsers::pcie_bandwidth_gbit_s(*link.max_gt_s, *link.max_width);
  }
  link.width_downgraded |= link.width && link.max_width && *link.width < *link.max_width;
  link.speed_downgraded |= link.gt_s && link.max_gt_s && *link.gt_s < *link.max_gt_s;
}

}  // namespace

void fill_pcie_links(SourceLog& log, const SampleSource& sample,
                     const std::optional<parsers::KernelLog>& dmesg, Host& host) {
  const auto lspci = parse_command<parsers::LspciOutput>(
      log, sample, {"lspci", "-vvv"}, source::k_lspci, host.sources, parsers::parse_lspci);
  for (Nic& nic : host.nics) {
    const bool from_files = !nic.netdev.empty() && from_sysfs(log, sample, nic);
    if (!from_files && lspci) {
      from_lspci(*lspci, nic);
    }
    const auto address = parsers::normalize_pci_address(nic.bus_info);
    if (dmesg && address) {
      if (const auto* event = bandwidth_event(*dmesg, *address)) {
        apply_kernel_line(*event, *address, nic);
      }
    }
    if (!nic.pcie.source.empty()) {
      derive(nic.pcie);
    }
  }
}

}  // namespace netdoctor::model
