// Port and link states as the model keeps them: one word each, whichever tool spelt it. A state
// is compared as an enum, never as text, so "down", "DOWN", "4: ACTIVE" and "PORT_ACTIVE" cannot
// be told apart by accident; to_string gives back the word the tools use, for people.
#pragma once

#include <string_view>

namespace netdoctor::model {

// A netdev's operstate (RFC 2863, as the kernel and `ip` show it), or a switch port's oper or
// admin status (SONiC shows up/down).
enum class LinkState { Unknown, NotPresent, Down, LowerLayerDown, Testing, Dormant, Up };
// "up", "UP", "Up" -> Up; an unknown word -> Unknown.
LinkState link_state_named(std::string_view text);
const char* to_string(LinkState state);  // "up", "down", "lowerlayerdown", ...; "" for Unknown
// Down, LowerLayerDown and NotPresent: nothing can pass.
bool is_down(LinkState state);

// An InfiniBand / RoCE port's logical state (IBTA PortState).
enum class RdmaPortState { Unknown, Nop, Down, Init, Armed, Active, ActiveDefer };
// "4: ACTIVE" (sysfs), "PORT_ACTIVE" (ibv_devinfo), "ACTIVE" (rdma link) -> Active.
RdmaPortState rdma_port_state_named(std::string_view text);
const char* to_string(RdmaPortState state);  // "ACTIVE", "DOWN", ...; "" for Unknown

// A port's physical state (IBTA PortPhysicalState).
enum class PhysState {
  Unknown,
  Sleep,
  Polling,
  Disabled,
  PortConfigurationTraining,
  LinkUp,
  LinkErrorRecovery,
  PhyTest
};
// "5: LinkUp" (sysfs), "LINK_UP (5)" / "LINK_UP" (ibv_devinfo, rdma link) -> LinkUp.
PhysState phys_state_named(std::string_view text);
const char* to_string(PhysState state);  // "LINK_UP", "POLLING", ...; "" for Unknown

}  // namespace netdoctor::model
