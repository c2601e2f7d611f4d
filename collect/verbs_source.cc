#include "collect/verbs_source.h"

#include <fmt/format.h>

#ifdef NETDOCTOR_WITH_VERBS
#include <infiniband/verbs.h>
#endif

namespace netdoctor::collect {

// Numbering from the InfiniBand spec (PortInfo), which is what the kernel prints in sysfs.
std::string sysfs_port_state(int state) {
  static const char* const k_names[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  if (state < 0 || state > 5) {
    return fmt::format("{}: UNKNOWN", state);
  }
  return fmt::format("{}: {}", state, k_names[state]);
}

std::string sysfs_phys_state(int phys_state) {
  static const char* const k_names[] = {
      "<unknown>",         "Sleep",   "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
      "LinkErrorRecovery", "Phy Test"};
  if (phys_state < 0 || phys_state > 7) {
    return fmt::format("{}: <unknown>", phys_state);
  }
  return fmt::format("{}: {}", phys_state, k_names[phys_state]);
}

std::string sysfs_link_layer(int link_layer) {
  // IBV_LINK_LAYER_UNSPECIFIED (0) means InfiniBand for old providers, as in sysfs.
  return link_layer == 2 ? "Ethernet" : "InfiniBand";
}

#ifdef NETDOCTOR_WITH_VERBS
namespace {

class IbverbsSource final : public VerbsSource {
 public:
  Result<std::vector<VerbsDevice>> devices() const override {
    int count = 0;
    ibv_device** list = ibv_get_device_list(&count);
    // NULL (ENOSYS) when the kernel has no RDMA support at all: no devices, not a failure.
    if (list == nullptr) {
      return std::vector<VerbsDevice>{};
    }
    std::vector<VerbsDevice> out;
    for (int i = 0; i < count; ++i) {
      VerbsDevice device;
      device.name = ibv_get_device_name(list[i]);
      ibv_context* context = ibv_open_device(list[i]);
      if (context == nullptr) {
        out.push_back(std::move(device));  // listed, not queryable (permissions)
        continue;
      }
      ibv_device_attr attr{};
      if (ibv_query_device(context, &attr) == 0) {
        device.fw_ver = attr.fw_ver;
        for (int port = 1; port <= static_cast<int>(attr.phys_port_cnt); ++port) {
          ibv_port_attr port_attr{};
          if (ibv_query_port(context, static_cast<std::uint8_t>(port), &port_attr) != 0) {
            continue;
          }
          VerbsPort out_port;
          out_port.number = port;
          out_port.state = sysfs_port_state(static_cast<int>(port_attr.state));
          out_port.phys_state = sysfs_phys_state(static_cast<int>(port_attr.phys_state));
          out_port.link_layer = sysfs_link_layer(static_cast<int>(port_attr.link_layer));
          device.ports.push_back(std::move(out_port));
        }
      }
      ibv_close_device(context);
      out.push_back(std::move(device));
    }
    ibv_free_device_list(list);
    return out;
  }
};

}  // namespace

std::unique_ptr<VerbsSource> make_ibverbs_source() {
  return std::make_unique<IbverbsSource>();
}
#else
std::unique_ptr<VerbsSource> make_ibverbs_source() {
  return nullptr;
}
#endif

}  // namespace netdoctor::collect
