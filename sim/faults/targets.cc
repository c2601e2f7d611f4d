#include "sim/faults/targets.h"

#include "base/strings.h"
#include "model/entity_names.h"

namespace netdoctor::sim {
namespace {

std::size_t find_host(const Fabric& fabric, std::string_view name) {
  for (std::size_t h = 0; h < fabric.hosts.size(); ++h) {
    if (fabric.hosts[h].name == name) {
      return h;
    }
  }
  return k_none;
}

std::size_t find_switch(const Fabric& fabric, std::string_view name) {
  for (std::size_t s = 0; s < fabric.switches.size(); ++s) {
    if (fabric.switches[s].name == name) {
      return s;
    }
  }
  return k_none;
}

Result<EntityRef> find_pair(const Fabric& fabric, std::string_view kind, std::string_view rest,
                            std::string_view full) {
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) {
    return make_error(ErrorCode::InvalidArgument, "expected <device>/<name>", std::string(full));
  }
  const std::string_view owner = rest.substr(0, slash);
  const std::string_view leafname = rest.substr(slash + 1);
  EntityRef ref;
  if (kind != "port") {
    const std::size_t h = find_host(fabric, owner);
    if (h != k_none) {
      const auto& nics = fabric.hosts[h].nics;
      for (std::size_t n = 0; n < nics.size(); ++n) {
        const bool match = (kind != "netdev" && nics[n].rdma_dev == leafname) ||
                           (kind != "nic" && nics[n].netdev == leafname);
        if (match) {
          ref.kind = EntityKind::Nic;
          ref.host = h;
          ref.nic = n;
          return ref;
        }
      }
    }
  }
  if (kind != "nic" && kind != "netdev") {
    const std::size_t s = find_switch(fabric, owner);
    if (s != k_none) {
      const auto& ports = fabric.switches[s].ports;
      for (std::size_t p = 0; p < ports.size(); ++p) {
        if (ports[p].name == leafname || ports[p].alias == leafname) {
          ref.kind = EntityKind::Port;
          ref.sw = s;
          ref.port = p;
          return ref;
        }
      }
    }
  }
  return make_error(ErrorCode::NotFound, "no such entity in the simulated fabric",
                    std::string(full));
}

Error wrong_kind(std::string_view fault, std::string_view name, std::string_view wanted) {
  return make_error(ErrorCode::InvalidArgument,
                    std::string(fault) + " needs " + std::string(wanted) + " as its place",
                    std::string(name));
}

}  // namespace

Result<EntityRef> find_entity(const Fabric& fabric, std::string_view name) {
  const std::string_view text = trim(name);
  const size_t colon = text.find(':');
  const std::string_view kind = colon == std::string_view::npos ? "" : text.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? text : text.substr(colon + 1);
  EntityRef ref;
  if (kind == "host" || (kind.empty() && rest.find('/') == std::string_view::npos)) {
    const std::size_t h = find_host(fabric, rest);
    if (h != k_none) {
      ref.kind = EntityKind::Host;
      ref.host = h;
      return ref;
    }
    if (kind == "host") {
      return make_error(ErrorCode::NotFound, "no such host in the simulated fabric",
                        std::string(text));
    }
  }
  if (kind == "switch" || (kind.empty() && rest.find('/') == std::string_view::npos)) {
    const std::size_t s = find_switch(fabric, rest);
    if (s != k_none) {
      ref.kind = EntityKind::Switch;
      ref.sw = s;
      return ref;
    }
    return make_error(ErrorCode::NotFound, "no such host or switch in the simulated fabric",
                      std::string(text));
  }
  if (kind.empty() || kind == "nic" || kind == "netdev" || kind == "port") {
    return find_pair(fabric, kind, rest, text);
  }
  return make_error(
      ErrorCode::InvalidArgument,
      "unknown entity kind '" + std::string(kind) + "' (use host:, nic:, netdev:, switch:, port:)",
      std::string(text));
}

Result<EntityRef> pick_nic(const Fabric& fabric, std::string_view fault, std::string_view name,
                           Rng& rng) {
  EntityRef ref;
  if (trim(name).empty()) {
    ref.kind = EntityKind::Nic;
    ref.host = rng.index(fabric.hosts.size());
    ref.nic = rng.index(fabric.hosts[ref.host].nics.size());
    return ref;
  }
  ND_TRY_ASSIGN(ref, find_entity(fabric, name));
  if (ref.kind == EntityKind::Host) {
    ref.kind = EntityKind::Nic;
    ref.nic = 0;
    return ref;
  }
  if (ref.kind == EntityKind::Port) {
    const Port& port = fabric.switches[ref.sw].ports[ref.port];
    if (port.kind != PortKind::HostFacing) {
      return wrong_kind(fault, name, "a NIC, a host or a host-facing port");
    }
    ref.kind = EntityKind::Nic;
    ref.host = port.peer_host;
    ref.nic = port.peer_nic;
    return ref;
  }
  if (ref.kind != EntityKind::Nic) {
    return wrong_kind(fault, name, "a NIC, a host or a host-facing port");
  }
  return ref;
}

Result<EntityRef> pick_host(const Fabric& fabric, std::string_view fault, std::string_view name,
                            Rng& rng) {
  EntityRef ref;
  if (trim(name).empty()) {
    ref.kind = EntityKind::Host;
    ref.host = rng.index(fabric.hosts.size());
    return ref;
  }
  ND_TRY_ASSIGN(ref, find_entity(fabric, name));
  if (ref.kind == EntityKind::Host || ref.kind == EntityKind::Nic) {
    return ref;  // a NIC narrows a host-level fault to that NIC where the fault allows it
  }
  return wrong_kind(fault, name, "a host or a NIC");
}

Result<EntityRef> pick_leaf(const Fabric& fabric, std::string_view fault, std::string_view name,
                            Rng& rng) {
  EntityRef ref;
  if (trim(name).empty()) {
    ref.kind = EntityKind::Switch;
    ref.sw = rng.index(fabric.leaf_count);
    return ref;
  }
  ND_TRY_ASSIGN(ref, find_entity(fabric, name));
  std::size_t sw = k_none;
  if (ref.kind == EntityKind::Switch || ref.kind == EntityKind::Port) {
    sw = ref.sw;
  } else if (ref.kind == EntityKind::Host || ref.kind == EntityKind::Nic) {
    sw = fabric.hosts[ref.host].leaf;
  }
  if (sw == k_none || fabric.switches[sw].spine) {
    return wrong_kind(fault, name, "a leaf switch");
  }
  EntityRef leaf;
  leaf.kind = EntityKind::Switch;
  leaf.sw = sw;
  return leaf;
}

Result<EntityRef> pick_host_port(const Fabric& fabric, std::string_view fault,
                                 std::string_view name, Rng& rng) {
  EntityRef ref;
  if (trim(name).empty()) {
    const std::size_t h = rng.index(fabric.hosts.size());
    const Nic& nic = fabric.hosts[h].nics[rng.index(fabric.hosts[h].nics.size())];
    ref.kind = EntityKind::Port;
    ref.sw = nic.leaf;
    ref.port = nic.port;
    return ref;
  }
  ND_TRY_ASSIGN(ref, find_entity(fabric, name));
  if (ref.kind == EntityKind::Nic) {
    const Nic& nic = fabric.hosts[ref.host].nics[ref.nic];
    ref.kind = EntityKind::Port;
    ref.sw = nic.leaf;
    ref.port = nic.port;
    return ref;
  }
  if (ref.kind == EntityKind::Port &&
      fabric.switches[ref.sw].ports[ref.port].kind == PortKind::HostFacing) {
    return ref;
  }
  if (ref.kind == EntityKind::Switch && !fabric.switches[ref.sw].spine) {
    const Switch& leaf = fabric.switches[ref.sw];
    const std::size_t h = leaf.hosts[rng.index(leaf.hosts.size())];
    const Nic& nic = fabric.hosts[h].nics[rng.index(fabric.hosts[h].nics.size())];
    ref.kind = EntityKind::Port;
    ref.port = nic.port;
    return ref;
  }
  return wrong_kind(fault, name, "a host-facing leaf port, a leaf or a NIC");
}

std::string host_entity(const Fabric& fabric, std::size_t host) {
  return model::host_entity(fabric.hosts[host].name);
}
std::string nic_entity(const Fabric& fabric, std::size_t host, std::size_t nic) {
  return model::nic_entity(fabric.hosts[host].name, fabric.hosts[host].nics[nic].rdma_dev);
}
std::string netdev_entity(const Fabric& fabric, std::size_t host, std::size_t nic) {
  return model::netdev_entity(fabric.hosts[host].name, fabric.hosts[host].nics[nic].netdev);
}
std::string switch_entity(const Fabric& fabric, std::size_t sw) {
  return model::switch_entity(fabric.switches[sw].name);
}
std::string port_entity(const Fabric& fabric, std::size_t sw, std::size_t port) {
  return model::port_entity(fabric.switches[sw].name, fabric.switches[sw].ports[port].name);
}

}  // namespace netdoctor::sim
