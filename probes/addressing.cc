// addressing: duplicate IPv4 addresses across hosts, and RDMA NICs of one host sharing a
// subnet where the fleet's design gives each NIC its own (multi-rail).
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

struct Cidr {
  std::uint32_t address = 0;
  int prefix = 32;
  std::string text;  // address without the prefix
};

std::optional<Cidr> parse_cidr(const std::string& text) {
  Cidr cidr;
  auto slash = text.find('/');
  cidr.text = text.substr(0, slash);
  if (slash != std::string::npos) {
    cidr.prefix = std::atoi(text.c_str() + slash + 1);
  }
  unsigned a = 0;
  unsigned b = 0;
  unsigned c = 0;
  unsigned d = 0;
  if (std::sscanf(cidr.text.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255 || b > 255 ||
      c > 255 || d > 255 || cidr.prefix < 0 || cidr.prefix > 32) {
    return std::nullopt;
  }
  cidr.address = (a << 24) | (b << 16) | (c << 8) | d;
  return cidr;
}

std::string subnet_of(const Cidr& cidr) {
  std::uint32_t mask = cidr.prefix == 0 ? 0u : ~0u << (32 - cidr.prefix);
  std::uint32_t net = cidr.address & mask;
  return fmt::format("{}.{}.{}.{}/{}", net >> 24, (net >> 16) & 255, (net >> 8) & 255, net & 255,
                     cidr.prefix);
}

bool is_loopback_or_link_local(const Cidr& cidr) {
  return (cidr.address >> 24) == 127 || (cidr.address >> 16) == ((169u << 8) | 254u);
}

class AddressingProbe final : public BasicProbe {
 public:
  AddressingProbe()
      : BasicProbe("addressing", "Duplicate IPv4 addresses and NICs sharing a subnet",
                   CostClass::Config, {"ip address"},
                   {"duplicate-ip", "shared-subnet", "addressing-ok"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    struct Owner {
      const model::Host* host;
      std::string ifname;
    };
    std::map<std::string, std::vector<Owner>> by_address;
    std::size_t hosts_with = 0;
    for (const auto& host : fabric.hosts) {
      std::set<std::string> seen;  // an interface may appear both as NIC and as interface
      auto add = [&](const std::string& ifname, const std::vector<std::string>& addresses) {
        for (const auto& text : addresses) {
          auto cidr = parse_cidr(text);
          if (!cidr || is_loopback_or_link_local(*cidr) ||
              !seen.insert(ifname + cidr->text).second) {
            continue;
          }
          by_address[cidr->text].push_back(Owner{&host, ifname});
        }
      };
      for (const auto& nic : host.nics) {
        add(nic.netdev, nic.ipv4);
      }
      for (const auto& interface : host.interfaces) {
        add(interface.name, interface.ipv4);
      }
      if (!seen.empty()) {
        ++hosts_with;
      }
    }
    if (!apply_coverage(result, hosts_with, fabric.hosts.size(), "hosts", "ip address")) {
      return;
    }
    bool found = false;
    for (const auto& [address, owners] : by_address) {
      std::set<std::string> distinct_hosts;
      for (const auto& owner : owners) {
        distinct_hosts.insert(owner.host->name);
      }
      if (owners.size() < 2) {
        continue;
      }
      found = true;
      std::vector<std::string> entities;
      std::string where;
      for (const auto& owner : owners) {
        append_unique(entities, "netdev:" + owner.host->name + "/" + owner.ifname);
        where += (where.empty() ? "" : ", ") + owner.host->name + "/" + owner.ifname;
      }
      for (const auto& owner : owners) {
        append_unique(entities, owner.host->entity());
      }
      result.findings.push_back(make_finding(
          "duplicate-ip", entities, 0.95,
          fmt::format("{} is configured on {} interfaces ({})", address, owners.size(), where),
          static_cast<double>(owners.size()), 1.0, "interfaces"));
    }

    // Shared subnets among a host's RDMA NICs, judged against the fleet's design.
    std::map<const model::Host*, std::map<std::string, std::vector<const model::Nic*>>> subnets;
    std::size_t hosts_multi = 0;
    std::size_t hosts_shared = 0;
    for (const auto& host : fabric.hosts) {
      auto& mine = subnets[&host];
      std::size_t addressed = 0;
      for (const auto& nic : host.nics) {
        for (const auto& text : nic.ipv4) {
          if (auto cidr = parse_cidr(text)) {
            mine[subnet_of(*cidr)].push_back(&nic);
            ++addressed;
            break;
          }
        }
      }
      if (addressed > 1) {
        ++hosts_multi;
        if (mine.size() < addressed) {
          ++hosts_shared;
        }
      }
    }
    // Only a minority of hosts sharing is an anomaly; a fleet that shares by design (one
    // subnet with policy routing) is not judged here.
    bool fleet_separate = hosts_multi > 0 && hosts_shared * 2 < hosts_multi;
    if (fleet_separate) {
      for (const auto& [host, mine] : subnets) {
        for (const auto& [subnet, nics] : mine) {
          if (nics.size() < 2) {
            continue;
          }
          found = true;
          std::vector<std::string> entities;
          std::string names;
          for (const model::Nic* nic : nics) {
            entities.push_back(nic->netdev_entity());
            names += (names.empty() ? "" : ", ") + nic->netdev;
          }
          entities.push_back(host->entity());
          result.findings.push_back(make_finding(
              "shared-subnet", entities, 0.7,
              fmt::format("{} NICs of {} ({}) share subnet {}, while {} of {} hosts give each "
                          "NIC its own subnet",
                          nics.size(), host->name, names, subnet, hosts_multi - hosts_shared,
                          hosts_multi),
              static_cast<double>(nics.size()), 1.0, "NICs"));
        }
      }
    }
    if (!found) {
      std::string text = fmt::format(
          "{} addresses unique across {} hosts; per-NIC subnets as "
          "designed",
          by_address.size(), hosts_with);
      result.checked.push_back(text);
      result.findings.push_back(make_finding("addressing-ok", {}, 0.9, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_addressing_probe() {
  return std::make_unique<AddressingProbe>();
}

}  // namespace netdoctor::probes
