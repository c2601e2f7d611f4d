#include "model/ib_host_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/sysfs_paths.h"

namespace netdoctor::model {
namespace {

constexpr const char* k_sysfs_manager = "sysfs port";

// sysfs prints LIDs in hex ("0x1"); plain decimal is taken too.
std::optional<std::uint64_t> sysfs_lid(std::string_view text) {
  text = trim(text);
  if (!starts_with(text, "0x") && !starts_with(text, "0X")) {
    return parse_u64(text);
  }
  const auto hex = text.substr(2);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
  if (hex.empty() || error != std::errc() || end != hex.data() + hex.size()) {
    return std::nullopt;
  }
  return value;
}

// The fabric sample whose time is nearest `at`.
std::size_t nearest_sample(const std::vector<IbFabricSample>& samples, double at) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (std::fabs(samples[i].captured_at - at) < std::fabs(samples[best].captured_at - at)) {
      best = i;
    }
  }
  return best;
}

void add_manager(IbFabricSample& sample, std::uint32_t lid) {
  const bool known = std::any_of(sample.managers.begin(), sample.managers.end(),
                                 [lid](const IbSubnetManager& manager) {
                                   return manager.source == k_sysfs_manager && manager.lid == lid;
                                 });
  if (!known) {
    IbSubnetManager manager;
    manager.lid = lid;
    manager.source = k_sysfs_manager;
    sample.managers.push_back(std::move(manager));
  }
}

// Each sample of the host: the SM LID the NIC's port knows, into the nearest fabric sample.
void read_sm_lids(const MachineCapture& capture, SourceLog& log, Nic& nic, IbFabric& ib) {
  const std::string path = fmt::format("{}{}/ports/{}/sm_lid", k_sysfs_ib, nic.device, nic.port);
  for (const auto& sample : capture.samples) {
    auto text = read_value(log, *sample.source, path, source::k_sysfs_port, nic.sources);
    auto lid = text ? sysfs_lid(*text) : std::nullopt;
    if (!lid || *lid == 0 || *lid > 0xffff) {
      continue;  // 0: the port was never told of an SM
    }
    auto at = sample.source->captured_at();
    add_manager(ib.samples[nearest_sample(ib.samples, at.ok() ? *at : 0.0)],
                static_cast<std::uint32_t>(*lid));
  }
}

}  // namespace

void join_ib_hosts(const Bundle& bundle, SourceLog& log, Fabric& fabric) {
  IbFabric& ib = fabric.ib;
  for (auto& node : ib.nodes) {
    if (node.kind != IbNodeKind::Ca || node.host.empty()) {
      continue;
    }
    Host* host = fabric.find_host(node.host);
    if (host == nullptr) {
      continue;
    }
    auto capture = std::lower_bound(
        bundle.hosts.begin(), bundle.hosts.end(), node.host,
        [](const MachineCapture& c, const std::string& name) { return c.name < name; });
    for (auto& nic : host->nics) {
      if (nic.device != node.device) {
        continue;
      }
      if (!nic.firmware.empty()) {
        node.firmware = nic.firmware;
      }
      for (auto& port : node.ports) {
        if (port.number == static_cast<std::uint32_t>(nic.port) && nic.active_mtu) {
          port.mtu = nic.active_mtu;
        }
      }
      if (!ib.samples.empty() && capture != bundle.hosts.end() && capture->name == node.host) {
        read_sm_lids(*capture, log, nic, ib);
      }
    }
  }
}

}  // namespace netdoctor::model
