#include "model/host_facts.h"

#include <fmt/format.h>

namespace netdoctor::model {

void fill_clock(const parsers::ChronyTracking& tracking, ClockState& clock) {
  clock.offset_s = tracking.system_time_offset_s;
  clock.synchronised = tracking.synchronised;
  clock.leap_status = tracking.leap_status;
  clock.reference = tracking.reference_name.empty()
                        ? tracking.reference_id
                        : fmt::format("{} ({})", tracking.reference_id, tracking.reference_name);
  if (tracking.stratum) {
    clock.stratum = static_cast<int>(*tracking.stratum);
  }
}

void fill_interfaces(const parsers::IpAddressList& list, Host& host) {
  for (const auto& iface : list.interfaces) {
    if (iface.link_type == "loopback" || iface.has_flag("LOOPBACK")) {
      continue;
    }
    Host::Interface out;
    out.name = iface.name;
    if (iface.mtu) {
      out.mtu = static_cast<int>(*iface.mtu);
    }
    out.state = link_state_named(iface.state);
    for (const auto& addr : iface.addresses) {
      if (addr.family == "inet" && addr.scope != "host") {
        out.ipv4.push_back(fmt::format("{}/{}", addr.address, addr.prefix_len));
      }
    }
    if (!out.ipv4.empty()) {
      host.interfaces.push_back(std::move(out));
    }
  }
}

}  // namespace netdoctor::model
