// The names diagnoses give what they blame (spec/bundle.md, "Entity names"), built in one place
// so that the model, plan checks, the simulator's expected answers and the probes spell them
// alike: a finding matches a simulated fault only if both name the entity the same way.
#pragma once

#include <string>
#include <string_view>

namespace netdoctor::model {

std::string host_entity(const std::string& host);                               // "host:<host>"
std::string switch_entity(const std::string& switch_name);                      // "switch:<sw>"
std::string nic_entity(const std::string& host, const std::string& device);     // "nic:<h>/<dev>"
std::string netdev_entity(const std::string& host, const std::string& netdev);  // "netdev:<h>/<if>"
std::string port_entity(const std::string& switch_name, const std::string& port);  // "port:<s>/<p>"

// "link:<a>~<b>": the two ends (port or netdev entities, or bare "<machine>/<port>") with any
// kind prefix ("port:", "netdev:") stripped, in sorted order, so both directions name one link.
std::string link_entity(const std::string& end_a, const std::string& end_b);

// "link:<a>~<b>" with the two ends sorted but kept as given, kind prefixes and all
// ("link:netdev:h/eth0~port:leaf1/Ethernet0"): the form plan checks and the inventory's LLDP
// links have always printed. Not the spec's form (link_entity); kept so their output does not
// change until they are moved over on purpose.
std::string link_entity_keeping_kinds(const std::string& end_a, const std::string& end_b);

// Reading a name back: its kind, and its two parts ("nic:h/d" -> h, d; "host:h" -> h, "";
// "link:a~b" -> a, b, the ends as written). Unknown for a name without a known kind.
enum class EntityKind { Unknown, Host, Switch, Nic, Netdev, Port, Link };
struct EntityParts {
  EntityKind kind = EntityKind::Unknown;
  std::string owner;  // the host or switch; a link's first end
  std::string part;   // the device, netdev or port; a link's second end
};
EntityParts parse_entity(std::string_view name);
EntityKind entity_kind(std::string_view name);

}  // namespace netdoctor::model
