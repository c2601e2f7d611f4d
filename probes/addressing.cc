// addressing: every RoCE address unique, and each NIC of a multi-rail host in its own subnet
// where that is the fleet's design.
//
// Reads every IPv4 address of every host's NICs and interfaces (ip address), leaving out
// loopback and link-local ones. In a healthy fleet every address is held by one interface only,
// and on hosts with several RDMA NICs each NIC sits in its own subnet, or the whole fleet shares
// one subnet by design with policy routing sending each address out of its own NIC.
//
// An address held by two interfaces sends connections to whichever answers ARP first
// (duplicate-ip). Two NICs of one host in one subnet, where most multi-NIC hosts give each NIC
// its own, answer for each other and send replies out of the wrong NIC (shared-subnet); a fleet
// where sharing is the rule is not judged, since that is its design.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "probes/fleet_probe.h"

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

struct Owner {
  const model::Host* host = nullptr;
  std::string ifname;
};

// A host's RDMA NICs by the subnet of their first address.
using Subnets = std::map<std::string, std::vector<const model::Nic*>>;

struct Survey {
  std::map<std::string, std::vector<Owner>> by_address;
  std::size_t hosts_with = 0;  // hosts with any address
  std::size_t host_total = 0;
  std::map<const model::Host*, Subnets> subnets;
  std::size_t hosts_multi = 0;   // hosts with more than one addressed NIC
  std::size_t hosts_shared = 0;  // of those, hosts where two NICs share a subnet
};

void survey_addresses(const model::Host& host, Survey& fleet) {
  std::set<std::string> seen;  // an interface may appear both as NIC and as interface
  auto add = [&](const std::string& ifname, const std::vector<std::string>& addresses) {
    for (const auto& text : addresses) {
      auto cidr = parse_cidr(text);
      if (!cidr || is_loopback_or_link_local(*cidr) || !seen.insert(ifname + cidr->text).second) {
        continue;
      }
      fleet.by_address[cidr->text].push_back(Owner{&host, ifname});
    }
  };
  for (const auto& nic : host.nics) {
    add(nic.netdev, nic.ipv4);
  }
  for (const auto& interface : host.interfaces) {
    add(interface.name, interface.ipv4);
  }
  if (!seen.empty()) {
    ++fleet.hosts_with;
  }
}

void survey_subnets(const model::Host& host, Survey& fleet) {
  Subnets& mine = fleet.subnets[&host];
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
    ++fleet.hosts_multi;
    if (mine.size() < addressed) {
      ++fleet.hosts_shared;
    }
  }
}

void judge_duplicates(const Survey& fleet, Judgement& judgement) {
  for (const auto& [address, owners] : fleet.by_address) {
    if (owners.size() < 2) {
      continue;
    }
    std::vector<std::string> entities;
    std::string where;
    for (const auto& owner : owners) {
      append_unique(entities, model::netdev_entity(owner.host->name, owner.ifname));
      where += (where.empty() ? "" : ", ") + owner.host->name + "/" + owner.ifname;
    }
    for (const auto& owner : owners) {
      append_unique(entities, owner.host->entity());
    }
    judgement.find(
        "duplicate-ip", entities, judgement.limit("duplicate_strength"),
        fmt::format("{} is configured on {} interfaces ({})", address, owners.size(), where),
        static_cast<double>(owners.size()), 1.0, "interfaces");
  }
}

// Only a minority of multi-NIC hosts sharing a subnet is an anomaly; a fleet that shares by
// design (one subnet with policy routing) is not judged.
void judge_shared_subnets(const Survey& fleet, Judgement& judgement) {
  const bool fleet_separate =
      fleet.hosts_multi > 0 &&
      static_cast<double>(fleet.hosts_shared) <
          judgement.limit("max_shared_share") * static_cast<double>(fleet.hosts_multi);
  if (!fleet_separate) {
    return;
  }
  for (const auto& [host, mine] : fleet.subnets) {
    for (const auto& [subnet, nics] : mine) {
      if (nics.size() < 2) {
        continue;
      }
      std::vector<std::string> entities;
      std::string names;
      for (const model::Nic* nic : nics) {
        entities.push_back(nic->netdev_entity());
        names += (names.empty() ? "" : ", ") + nic->netdev;
      }
      entities.push_back(host->entity());
      judgement.find("shared-subnet", entities, judgement.limit("shared_subnet_strength"),
                     fmt::format("{} NICs of {} ({}) share subnet {}, while {} of {} hosts give "
                                 "each NIC its own subnet",
                                 nics.size(), host->name, names, subnet,
                                 fleet.hosts_multi - fleet.hosts_shared, fleet.hosts_multi),
                     static_cast<double>(nics.size()), 1.0, "NICs");
    }
  }
}

class AddressingProbe final : public FleetProbe<Survey> {
 public:
  AddressingProbe()
      : FleetProbe({.id = "addressing",
                    .description = "Duplicate IPv4 addresses and NICs sharing a subnet",
                    .cost = CostClass::Config,
                    .reads = {source::k_ip_address},
                    .findings = {"duplicate-ip", "shared-subnet"},
                    .clearing = "addressing-ok",
                    .thresholds = {"max_shared_share", "duplicate_strength",
                                   "shared_subnet_strength", "ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.host_total = judgement.fabric().hosts.size();
    for (const auto& host : judgement.fabric().hosts) {
      survey_addresses(host, fleet);
      survey_subnets(host, fleet);
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"hosts", "ip address", fleet.hosts_with, fleet.host_total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_duplicates(fleet, judgement);
    judge_shared_subnets(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary =
        fmt::format("{} addresses unique across {} hosts; per-NIC subnets as designed",
                    fleet.by_address.size(), fleet.hosts_with);
    healthy.strength = judgement.limit("ok_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_addressing_probe() {
  return std::make_unique<AddressingProbe>();
}

}  // namespace netdoctor::probes
