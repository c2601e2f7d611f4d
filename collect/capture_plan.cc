#include "collect/capture_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/strings.h"

namespace netdoctor::collect {
namespace {

const std::string k_ib = "/sys/class/infiniband/";
const std::string k_net = "/sys/class/net/";

// A directory's entries; NotFound is ordinary (no such feature), anything else is noted.
std::vector<DirEntry> list_or_note(const SampleSource& host, const std::string& path,
                                   CapturePlan& plan) {
  auto entries = host.list_dir(path);
  if (entries.ok()) {
    return std::move(entries).value();
  }
  if (entries.error().code != ErrorCode::NotFound) {
    plan.notes.push_back(
        fmt::format("cannot list {}: {}", host.display_path(path), entries.error().message));
  }
  return {};
}

// Counter directories hold one file per counter; sysfs shows them as files (or, through a
// symlinked tree, as "Other").
void add_counter_files(const SampleSource& host, const std::string& dir, CapturePlan& plan) {
  for (const auto& entry : list_or_note(host, dir, plan)) {
    if (entry.kind != DirEntry::Kind::Dir) {
      plan.files.push_back(dir + "/" + entry.name);
    }
  }
}

struct DevicePorts {
  std::set<int> ports;
  const VerbsDevice* verbs = nullptr;
};

const VerbsPort* find_port(const VerbsDevice* device, int number) {
  if (device == nullptr) {
    return nullptr;
  }
  for (const auto& port : device->ports) {
    if (port.number == number) {
      return &port;
    }
  }
  return nullptr;
}

// Fills from libibverbs a value sysfs could not give.
void verbs_fallback(const SampleSource& host, const std::string& path, const std::string& value,
                    CapturePlan& plan) {
  if (!value.empty() && !host.read_file(path).ok()) {
    plan.verbs_files.emplace(path, value + "\n");
  }
}

// The populated entries of a port's GID table: an index whose type file reads is in use (the
// kernel refuses to read the attributes of an empty slot).
void add_gid_files(const SampleSource& host, const std::string& port_dir,
                   std::vector<std::string>& files) {
  for (const auto& entry : host.list_dir(port_dir + "/gids").value_or({})) {
    const std::string type = port_dir + "/gid_attrs/types/" + entry.name;
    if (host.read_file(type).ok()) {
      files.push_back(port_dir + "/gids/" + entry.name);
      files.push_back(type);
      files.push_back(port_dir + "/gid_attrs/ndevs/" + entry.name);
    }
  }
}

}  // namespace

std::string command_group(const std::string& program) {
  if (program == "ethtool" || program == "ip") {
    return "networking";
  }
  if (program == "ibv_devinfo" || program == "rdma") {
    return "infiniband";
  }
  if (program == "mlnx_qos") {
    return "mellanox";
  }
  if (program == "dcb") {
    return "networking";
  }
  if (program == "show_gids" || program == "ibdev2netdev") {
    return "infiniband";
  }
  if (program == "chronyc") {
    return "chrony";
  }
  if (program == "ntpq") {
    return "ntp";
  }
  if (program == "pmc") {
    return "ptp";
  }
  if (program == "lspci") {
    return "pci";
  }
  if (program == "dmesg") {
    return "kernel";
  }
  if (program == "lldpcli") {
    return "lldp";
  }
  return "netdoctor";
}

CapturePlan plan_capture(const SampleSource& host, const std::vector<VerbsDevice>* verbs) {
  CapturePlan plan;
  std::map<std::string, DevicePorts> devices;
  for (const auto& entry : list_or_note(host, k_ib, plan)) {
    if (entry.kind != DirEntry::Kind::File) {
      devices[entry.name];
    }
  }
  if (verbs != nullptr) {
    for (const auto& device : *verbs) {
      auto& known = devices[device.name];
      known.verbs = &device;
      for (const auto& port : device.ports) {
        known.ports.insert(port.number);
      }
    }
  }

  std::set<std::string> rdma_netdevs;
  std::vector<std::string> config_files;
  for (auto& [name, device] : devices) {
    plan.rdma_devices.push_back(name);
    const std::string base = k_ib + name;
    for (const auto& entry : list_or_note(host, base + "/ports", plan)) {
      if (auto number = parse_i64(entry.name); number && *number > 0 && *number < 256) {
        device.ports.insert(static_cast<int>(*number));
      }
    }
    config_files.push_back(base + "/fw_ver");
    config_files.push_back(base + "/node_desc");
    if (device.verbs != nullptr) {
      verbs_fallback(host, base + "/fw_ver", device.verbs->fw_ver, plan);
    }
    for (int port : device.ports) {
      const std::string port_dir = fmt::format("{}/ports/{}", base, port);
      add_counter_files(host, port_dir + "/counters", plan);
      add_counter_files(host, port_dir + "/hw_counters", plan);
      add_gid_files(host, port_dir, config_files);
      for (const char* file : {"state", "phys_state", "rate", "link_layer"}) {
        config_files.push_back(port_dir + "/" + file);
      }
      if (const auto* verbs_port = find_port(device.verbs, port)) {
        verbs_fallback(host, port_dir + "/state", verbs_port->state, plan);
        verbs_fallback(host, port_dir + "/phys_state", verbs_port->phys_state, plan);
        verbs_fallback(host, port_dir + "/link_layer", verbs_port->link_layer, plan);
      }
    }
    for (const auto& entry : list_or_note(host, base + "/device/net", plan)) {
      config_files.push_back(base + "/device/net/" + entry.name + "/ifindex");
      rdma_netdevs.insert(entry.name);
    }
  }

  std::set<std::string> interfaces = rdma_netdevs;
  for (const auto& entry : list_or_note(host, k_net, plan)) {
    if (entry.name == "lo" || entry.kind == DirEntry::Kind::File) {
      continue;
    }
    auto state = host.read_file(k_net + entry.name + "/operstate");
    if (state.ok() && trim(*state) == "up") {
      interfaces.insert(entry.name);
    }
  }
  for (const auto& name : interfaces) {
    plan.interfaces.push_back(name);
    const std::string base = k_net + name;
    add_counter_files(host, base + "/statistics", plan);
    for (const char* file :
         {"mtu", "operstate", "speed", "address", "device/current_link_width",
          "device/max_link_width", "device/current_link_speed", "device/max_link_speed"}) {
      config_files.push_back(base + "/" + file);
    }
  }
  plan.files.insert(plan.files.end(), config_files.begin(), config_files.end());

  auto add = [&plan](std::vector<std::string> argv) {
    std::string group = command_group(argv.front());
    plan.commands.push_back(PlannedCommand{std::move(argv), std::move(group)});
  };
  for (const auto& name : plan.interfaces) {
    add({"ethtool", "-S", name});
  }
  for (const auto& name : plan.interfaces) {
    add({"ethtool", "-i", name});
    add({"ethtool", name});
    add({"ethtool", "-a", name});
  }
  add({"ip", "-d", "address"});
  add({"ip", "route", "show", "table", "all"});
  add({"ibv_devinfo", "-v"});
  add({"rdma", "link", "show"});
  // mlnx_qos speaks to mlx5 netdevs only; other vendors' would only fail.
  for (const auto& [name, device] : devices) {
    if (!starts_with(name, "mlx")) {
      continue;
    }
    for (const auto& entry : host.list_dir(k_ib + name + "/device/net").value_or({})) {
      add({"mlnx_qos", "-i", entry.name});
    }
  }
  // iproute2's dcb: the QoS view of any driver.
  for (const auto& name : rdma_netdevs) {
    for (const char* object : {"pfc", "apptrust", "app", "ets"}) {
      add({"dcb", object, "show", "dev", name});
    }
  }
  add({"show_gids"});
  add({"ibdev2netdev"});
  add({"rdma", "statistic", "show"});
  add({"rdma", "resource", "show"});
  add({"lspci", "-vvv"});
  add({"dmesg"});
  add({"chronyc", "tracking"});
  add({"chronyc", "sources"});
  add({"ntpq", "-pn"});
  add({"pmc", "-u", "-b", "0", "GET TIME_STATUS_NP"});
  add({"pmc", "-u", "-b", "0", "GET CURRENT_DATA_SET"});
  add({"lldpcli", "show", "neighbors", "-f", "json"});
  return plan;
}

}  // namespace netdoctor::collect
