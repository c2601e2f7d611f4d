// Where a fault lands: resolving the entity named on the command line (spec/bundle.md entity
// names, or a bare host/switch name) against the simulated fabric, choosing one with the seed
// when none is named, and naming culprits the way a diagnosis must.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sim/rng.h"
#include "sim/topology.h"

namespace netdoctor::sim {

enum class EntityKind { None, Host, Nic, Switch, Port };

struct EntityRef {
  EntityKind kind = EntityKind::None;
  std::size_t host = k_none;
  std::size_t nic = k_none;
  std::size_t sw = k_none;
  std::size_t port = k_none;
};

// NotFound when the named entity does not exist; InvalidArgument for a malformed name.
Result<EntityRef> find_entity(const Fabric& fabric, std::string_view name);

// The NIC a NIC-level fault lands on: the named NIC (nic:/netdev:), the first NIC of a named
// host, the NIC behind a named host-facing port, or one chosen by `rng` when `name` is empty.
Result<EntityRef> pick_nic(const Fabric& fabric, std::string_view fault, std::string_view name,
                           Rng& rng);
// A host: named (host:, or the host of a named NIC), or chosen.
Result<EntityRef> pick_host(const Fabric& fabric, std::string_view fault, std::string_view name,
                            Rng& rng);
// A leaf switch: named (switch:, or the leaf of a named host/NIC/port), or chosen.
Result<EntityRef> pick_leaf(const Fabric& fabric, std::string_view fault, std::string_view name,
                            Rng& rng);
// A host-facing leaf port: named (port:, or the port of a named NIC), or chosen.
Result<EntityRef> pick_host_port(const Fabric& fabric, std::string_view fault,
                                 std::string_view name, Rng& rng);

std::string host_entity(const Fabric& fabric, std::size_t host);
std::string nic_entity(const Fabric& fabric, std::size_t host, std::size_t nic);
std::string netdev_entity(const Fabric& fabric, std::size_t host, std::size_t nic);
std::string switch_entity(const Fabric& fabric, std::size_t sw);
std::string port_entity(const Fabric& fabric, std::size_t sw, std::size_t port);

}  // namespace netdoctor::sim
