// The subnet as infiniband-diags print it: ibnetdiscover's topology form, iblinkinfo's plain
// form, ibswitches / ibhosts / ibnodes and sminfo (layouts of tests/fixtures/ib/ibsim_* and
// rdma-core's infiniband-diags sources: iblinkinfo's "(%3s %18s %6s/%8s)" link column,
// "Could be" where a link trained below what both ends support).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sim/ib_shape.h"
#include "sim/writers/ib_writers.h"

namespace netdoctor::sim {
namespace {

// One end of a cable as the sweep sees it.
struct PortView {
  int number = 0;
  IbState state = IbState::Down;
  IbPhys phys = IbPhys::Polling;
  int lanes = 4;
  int gbps = 0;  // trained data rate of the port
  int rated_lanes = 4;
  int rated_gbps = 0;
  bool remote = false;  // a peer the sweep reached (the link trained)
  bool remote_ca = false;
  std::uint64_t remote_guid = 0;
  int remote_port = 0;
  std::uint32_t remote_lid = 0;
  std::string remote_desc;
  int remote_rated_gbps = 0;
};

const char* state_name(IbState state) {
  switch (state) {
    case IbState::Down:
      return "Down";
    case IbState::Init:
      return "Initialize";
    case IbState::Armed:
      return "Armed";
    case IbState::Active:
      break;
  }
  return "Active";
}

const char* phys_name(IbPhys phys) {
  return phys == IbPhys::Polling ? "Polling" : phys == IbPhys::Disabled ? "Disabled" : "LinkUp";
}

PortView switch_port_view(const Fabric& fabric, const Port& port) {
  PortView v;
  v.number = port.number;
  v.state = port.ib_state;
  v.phys = port.ib_phys;
  v.lanes = port.lanes;
  v.gbps = port.speed_gbps;
  v.rated_lanes = port.rated_lanes;
  v.rated_gbps = port.rated_gbps;
  if (port.ib_state == IbState::Down) {
    return v;
  }
  v.remote = true;
  if (port.kind == PortKind::HostFacing) {
    const Host& host = fabric.hosts[port.peer_host];
    const Nic& nic = host.nics[port.peer_nic];
    v.remote_ca = true;
    v.remote_guid = nic.node_guid;
    v.remote_port = 1;
    v.remote_lid = nic.lid;
    v.remote_desc = hca_description(host, nic);
    v.remote_rated_gbps = nic.rated_gbps;
  } else {
    const Switch& peer = fabric.switches[port.peer_switch];
    const Port& far = peer.ports[port.peer_port];
    v.remote_guid = peer.guid;
    v.remote_port = far.number;
    v.remote_lid = peer.lid;
    v.remote_desc = switch_description(peer);
    v.remote_rated_gbps = far.rated_gbps;
  }
  return v;
}

PortView hca_port_view(const Fabric& fabric, const Nic& nic) {
  PortView v;
  v.number = 1;
  v.state = nic.ib_state;
  v.phys = nic.ib_phys;
  v.lanes = nic.lanes;
  v.gbps = nic.speed_gbps;
  v.rated_lanes = nic.rated_lanes;
  v.rated_gbps = nic.rated_gbps;
  if (nic.ib_state == IbState::Down || nic.leaf == k_none) {
    return v;
  }
  const Switch& leaf = fabric.switches[nic.leaf];
  v.remote = true;
  v.remote_guid = leaf.guid;
  v.remote_port = leaf.ports[nic.port].number;
  v.remote_lid = leaf.lid;
  v.remote_desc = switch_description(leaf);
  v.remote_rated_gbps = leaf.ports[nic.port].rated_gbps;
  return v;
}

// Every port 1..radix of a switch: its cabled ports as they are, the others Down/Polling.
std::vector<PortView> all_ports(const Fabric& fabric, const Switch& sw) {
  std::map<int, PortView> by_number;
  for (const Port& port : sw.ports) {
    by_number[port.number] = switch_port_view(fabric, port);
  }
  std::vector<PortView> views;
  for (int n = 1; n <= static_cast<int>(sw.radix); ++n) {
    const auto it = by_number.find(n);
    if (it != by_number.end()) {
      views.push_back(it->second);
    } else {
      PortView idle;
      idle.number = n;
      views.push_back(idle);
    }
  }
  return views;
}

int lane_gbps(int gbps, int lanes) {
  return gbps / std::max(1, lanes);
}

std::string width_speed(const PortView& v) {  // ibnetdiscover's "4xHDR"
  return fmt::format("{}x{}", v.lanes, ib_speed_name(lane_gbps(v.gbps, v.lanes)));
}

// iblinkinfo's "( 4X        53.125 Gbps Active/  LinkUp)==>  ..." after the port columns.
std::string link_columns(const PortView& v) {
  std::string link;
  if (v.state == IbState::Down) {
    link = fmt::format("(              {:>6}/{:>8})", state_name(v.state), phys_name(v.phys));
  } else {
    link = fmt::format("({:>3} {:>18} {:>6}/{:>8})", fmt::format("{}X", v.lanes),
                       ib_lane_text(lane_gbps(v.gbps, v.lanes)), state_name(v.state),
                       phys_name(v.phys));
  }
  if (!v.remote) {
    return "==" + link + "==>             [  ] \"\" ( )\n";
  }
  const std::string width_msg =
      v.lanes < std::min(v.rated_lanes, 4) ? fmt::format("Could be {}X", 4) : "";
  const int best = lane_gbps(std::min(v.rated_gbps, v.remote_rated_gbps), 4);
  const std::string speed_msg =
      lane_gbps(v.gbps, v.lanes) < best ? fmt::format("Could be {}", ib_lane_text(best)) : "";
  return fmt::format("=={}==>  {:>6} {:>4}[  ] \"{}\" ({} {})\n", link, v.remote_lid, v.remote_port,
                     v.remote_desc, width_msg, speed_msg);
}

std::string switch_id(std::uint64_t guid) {
  return fmt::format("S-{:016x}", guid);
}
std::string hca_id(std::uint64_t guid) {
  return fmt::format("H-{:016x}", guid);
}

void ibnet_switch(const Fabric& fabric, const Switch& sw, fmt::memory_buffer& out) {
  const IbGeneration& gen = ib_generation(fabric.ib_speed);
  auto o = std::back_inserter(out);
  fmt::format_to(o, "vendid=0x2c9\ndevid={}\nsysimgguid=0x{:x}\nswitchguid=0x{:x}({:x})\n",
                 gen.switch_devid, sw.guid, sw.guid, sw.guid);
  fmt::format_to(o, "Switch\t{} \"{}\"\t\t# \"{}\" enhanced port 0 lid {} lmc 0\n", sw.radix,
                 switch_id(sw.guid), switch_description(sw), sw.lid);
  for (const PortView& v : all_ports(fabric, sw)) {
    if (!v.remote) {
      continue;
    }
    if (v.remote_ca) {
      fmt::format_to(o, "[{}]\t\"{}\"[1]({:x}) \t\t# \"{}\" lid {} {}\n", v.number,
                     hca_id(v.remote_guid), v.remote_guid, v.remote_desc, v.remote_lid,
                     width_speed(v));
    } else {
      fmt::format_to(o, "[{}]\t\"{}\"[{}]\t\t# \"{}\" lid {} {}\n", v.number,
                     switch_id(v.remote_guid), v.remote_port, v.remote_desc, v.remote_lid,
                     width_speed(v));
    }
  }
  fmt::format_to(o, "\n");
}

void ibnet_hca(const Fabric& fabric, const Host& host, const Nic& nic, fmt::memory_buffer& out) {
  const IbGeneration& gen = ib_generation(fabric.ib_speed);
  const PortView v = hca_port_view(fabric, nic);
  auto o = std::back_inserter(out);
  fmt::format_to(o, "vendid=0x2c9\ndevid={}\nsysimgguid=0x{:x}\ncaguid=0x{:x}\n", gen.hca_devid,
                 nic.node_guid, nic.node_guid);
  fmt::format_to(o, "Ca\t1 \"{}\"\t\t# \"{}\"\n", hca_id(nic.node_guid),
                 hca_description(host, nic));
  fmt::format_to(o, "[1]({:x}) \t\"{}\"[{}]\t\t# lid {} lmc 0 \"{}\" lid {} {}\n\n", nic.node_guid,
                 switch_id(v.remote_guid), v.remote_port, nic.lid, v.remote_desc, v.remote_lid,
                 width_speed(v));
}

const Nic& capture_hca(const Fabric& fabric) {
  for (const Host& host : fabric.hosts) {
    for (const Nic& nic : host.nics) {
      if (nic.ib_state == IbState::Active) {
        return nic;
      }
    }
  }
  return fabric.hosts[0].nics[0];
}

}  // namespace

std::string switch_description(const Switch& sw) {
  return fmt::format("MF0;{}:{}/U1", sw.name, sw.hwsku);
}

std::string hca_description(const Host& host, const Nic& nic) {
  return host.name + " " + nic.rdma_dev;
}

bool hca_discovered(const Nic& nic) {
  return nic.ib_state != IbState::Down && nic.leaf != k_none;
}

std::string ibnetdiscover(const Fabric& fabric, const std::string& generated_on) {
  fmt::memory_buffer out;
  const Nic& from = capture_hca(fabric);
  fmt::format_to(std::back_inserter(out),
                 "#\n# Topology file: generated on {}\n#\n# Initiated from node {:016x} port "
                 "{:016x}\n\n",
                 generated_on, from.node_guid, from.node_guid);
  for (const Switch& sw : fabric.switches) {
    ibnet_switch(fabric, sw, out);
  }
  for (const Host& host : fabric.hosts) {
    for (const Nic& nic : host.nics) {
      if (hca_discovered(nic)) {
        ibnet_hca(fabric, host, nic, out);
      }
    }
  }
  return fmt::to_string(out);
}

std::string iblinkinfo(const Fabric& fabric) {
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  for (const Switch& sw : fabric.switches) {
    fmt::format_to(o, "Switch: 0x{:016x} {}:\n", sw.guid, switch_description(sw));
    for (const PortView& v : all_ports(fabric, sw)) {
      fmt::format_to(o, "      {:>6} {:>4}[  ] {}", sw.lid, v.number, link_columns(v));
    }
  }
  for (const Host& host : fabric.hosts) {
    for (const Nic& nic : host.nics) {
      if (!hca_discovered(nic)) {
        continue;
      }
      fmt::format_to(o, "CA: {}:\n", hca_description(host, nic));
      fmt::format_to(o, "      0x{:016x} {:>6} {:>4}[  ] {}", nic.node_guid, nic.lid, 1,
                     link_columns(hca_port_view(fabric, nic)));
    }
  }
  return fmt::to_string(out);
}

std::string ibswitches(const Fabric& fabric) {
  fmt::memory_buffer out;
  for (const Switch& sw : fabric.switches) {
    fmt::format_to(std::back_inserter(out),
                   "Switch\t: 0x{:016x} ports {} \"{}\" enhanced port 0 lid {} lmc 0\n", sw.guid,
                   sw.radix, switch_description(sw), sw.lid);
  }
  return fmt::to_string(out);
}

std::string ibhosts(const Fabric& fabric) {
  fmt::memory_buffer out;
  for (const Host& host : fabric.hosts) {
    for (const Nic& nic : host.nics) {
      if (hca_discovered(nic)) {
        fmt::format_to(std::back_inserter(out), "Ca\t: 0x{:016x} ports 1 \"{}\"\n", nic.node_guid,
                       hca_description(host, nic));
      }
    }
  }
  return fmt::to_string(out);
}

std::string sminfo(const Fabric& fabric, std::size_t sample) {
  if (fabric.managers.empty()) {
    // libibmad's warnings, then the tool's own exit message (rdma-core sminfo.c IBEXIT).
    const std::uint64_t pid = 40000 + fabric.noise_seed % 20000 + sample;
    return fmt::format(
        "ibwarn: [{}] _do_madrpc: recv failed: Connection timed out\n"
        "ibwarn: [{}] mad_rpc: _do_madrpc failed; dport (Lid {})\n"
        "sminfo: iberror: failed: query\n",
        pid, pid, capture_hca(fabric).sm_lid);
  }
  const SubnetManager& sm = fabric.managers[sample % fabric.managers.size()];
  // OpenSM's light sweep every 10 s moves the activity count.
  const auto activity = sm.activity + static_cast<std::uint64_t>(static_cast<double>(sample) *
                                                                 fabric.interval_s / 10);
  return fmt::format(
      "sminfo: sm lid {} sm guid 0x{:x}, activity count {} priority {} state 3 SMINFO_MASTER\n",
      sm.lid, sm.guid, activity, sm.priority);
}

}  // namespace netdoctor::sim
