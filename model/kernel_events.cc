#include "model/kernel_events.h"

#include <optional>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/source_reading.h"
#include "parsers/pcie.h"

namespace netdoctor::model {
namespace {

using parsers::KernelEventKind;

// Whether a kernel line names the NIC: its netdev, or its PCI address.
bool names_nic(const parsers::KernelLogLine& line, const Nic& nic,
               const std::optional<std::string>& address) {
  return (!nic.netdev.empty() && line.interface == nic.netdev) ||
         (address && line.device == *address);
}

// Link lines in log order: a down counts as a flap unless it is the netdev's first link line
// and an up follows it (the carrier-off a driver prints while the port trains at bring-up).
void count_link(const parsers::KernelLogEvent& event, const parsers::KernelLogLine& line,
                bool first_link_line, bool up_follows, KernelEvents& out) {
  if (event.kind == KernelEventKind::LinkUp) {
    ++out.link_ups;
    return;
  }
  ++out.link_downs;
  if (first_link_line && up_follows) {
    return;
  }
  ++out.flaps;
  if (line.timestamp_s) {
    out.flap_times_s.push_back(*line.timestamp_s);
  }
}

// An AER report is its "PCIe Bus Error: severity=..." header; the detail lines under it are
// the same report.
void count_error(const parsers::KernelLogEvent& event, const parsers::KernelLogLine& line,
                 KernelEvents& out) {
  if (event.kind == KernelEventKind::PcieAer) {
    if (!contains(line.message, "PCIe Bus Error")) {
      return;
    }
    (starts_with(to_lower(event.severity), "correct") ? out.aer_corrected : out.aer_uncorrected)++;
  } else {
    ++out.driver_errors;
  }
  if (out.first_error.empty()) {
    out.first_error = line.text;
  }
}

bool is_link(KernelEventKind kind) {
  return kind == KernelEventKind::LinkUp || kind == KernelEventKind::LinkDown;
}

}  // namespace

KernelEvents kernel_events(const parsers::KernelLog& dmesg, const Nic& nic) {
  KernelEvents out;
  const auto address = parsers::normalize_pci_address(nic.bus_info);
  std::vector<const parsers::KernelLogEvent*> links;
  for (const auto& event : dmesg.events) {
    const auto& line = dmesg.lines[event.entry];
    if (!names_nic(line, nic, address)) {
      continue;
    }
    if (is_link(event.kind)) {
      links.push_back(&event);
    } else if (event.kind == KernelEventKind::PcieAer ||
               event.kind == KernelEventKind::DriverError) {
      count_error(event, line, out);
    }
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    const bool up_follows = i + 1 < links.size() && links[i + 1]->kind == KernelEventKind::LinkUp;
    count_link(*links[i], dmesg.lines[links[i]->entry], i == 0, up_follows, out);
  }
  return out;
}

void fill_kernel_events(const parsers::KernelLog& dmesg, Host& host) {
  for (Nic& nic : host.nics) {
    nic.kernel = kernel_events(dmesg, nic);
    record_source(nic.sources, source::k_dmesg, Availability::Observed);
  }
}

}  // namespace netdoctor::model
