#include "remote/prometheus_bundle.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "base/strings.h"
#include "remote/prometheus_host_bundle.h"
#include "remote/prometheus_layout.h"
#include "remote/prometheus_switch_bundle.h"

namespace netdoctor::remote {
namespace {

// Sample directory names "000", "001", ... by point time, as wide as the count needs.
std::map<double, std::string> sample_names(const std::vector<const MachineFiles*>& machines) {
  std::map<double, std::string> names;
  for (const MachineFiles* files : machines) {
    for (const auto& [machine, samples] : *files) {
      for (const auto& [time, sample] : samples) {
        names.emplace(time, "");
      }
    }
  }
  const int width = std::max(3, static_cast<int>(std::to_string(names.size()).size()));
  std::size_t index = 0;
  for (auto& [time, name] : names) {
    name = fmt::format("{:0{}}", index++, width);
  }
  return names;
}

}  // namespace

std::string machine_of(const PromSeries& series, const PromLayoutOptions& options) {
  const std::string& name = series.name();
  // Only switch and LLDP series heed the switch label: hosts may carry one naming their leaf.
  const std::string& label = is_switch_metric(name) || is_lldp_neighbor_metric(name)
                                 ? series.label(options.switch_label)
                                 : series.label(options.host_label);
  std::string machine =
      host_from_instance(label.empty() ? series.label(options.host_label) : label);
  if (machine.empty() || !is_safe_component(machine)) {
    machine.clear();
  }
  return machine;
}

void emit_machine_files(std::string_view root, MachineFiles& machines,
                        const std::map<double, std::string>& names, const FileSink& sink) {
  for (auto& [machine, samples] : machines) {
    for (auto& [time, files] : samples) {
      const std::string dir = fmt::format("{}/{}/{}/", root, machine, names.at(time));
      sink(dir + "captured_at", fmt::format("{:.3f}\n", time));
      for (auto& [path, content] : files) {
        sink(dir + path, std::move(content));
      }
    }
  }
}

BundleFiles prometheus_to_bundle(const std::vector<PromSeries>& series,
                                 const PromLayoutOptions& options) {
  // Which series belong to which machine, and which machines are switches.
  std::vector<std::string> machine_of(series.size());
  std::set<std::string> switches;
  std::size_t unnamed = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    machine_of[i] = remote::machine_of(series[i], options);
    if (machine_of[i].empty()) {
      ++unnamed;
    } else if (is_switch_metric(series[i].name())) {
      switches.insert(machine_of[i]);
    }
  }
  LeftOut left_out;
  HostBundle hosts(options.source, left_out);
  SwitchBundle switch_bundle(left_out);
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (machine_of[i].empty()) {
      continue;
    }
    // A switch's own node_exporter (SONiC runs one) does not make it a host.
    if (switches.count(machine_of[i]) != 0) {
      switch_bundle.add(machine_of[i], series[i]);
    } else {
      hosts.add(machine_of[i], series[i]);
    }
  }
  BundleFiles out;
  MachineFiles host_files = hosts.finish(out.problems);
  MachineFiles switch_files = switch_bundle.finish(out.problems, options.source);
  const auto names = sample_names({&host_files, &switch_files});
  const FileSink sink = [&out](std::string path, std::string content) {
    out.files[std::move(path)] = std::move(content);
  };
  emit_machine_files("hosts", host_files, names, sink);
  emit_machine_files("switches", switch_files, names, sink);
  add_left_out_problems(unnamed, left_out, options, out.problems);
  return out;
}

void add_left_out_problems(std::size_t unnamed, const LeftOut& left_out,
                           const PromLayoutOptions& options, std::vector<Error>& problems) {
  if (unnamed > 0) {
    problems.push_back(make_error(
        ErrorCode::Parse,
        fmt::format("{} series left out: no usable '{}' or '{}' label to name their machine",
                    unnamed, options.switch_label, options.host_label),
        options.source));
  }
  if (left_out.unsafe > 0) {
    problems.push_back(make_error(
        ErrorCode::Refused,
        fmt::format("{} series left out: a device, port, netdev or neighbour label is not a plain "
                    "name",
                    left_out.unsafe),
        options.source));
  }
}

std::string host_from_instance(std::string_view instance) {
  instance = trim(instance);
  if (starts_with(instance, "[")) {
    const auto close = instance.find(']');
    instance =
        instance.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
  } else if (const auto colon = instance.rfind(':'); colon != std::string_view::npos &&
                                                     instance.find(':') == colon &&
                                                     parse_u64(instance.substr(colon + 1))) {
    instance = instance.substr(0, colon);
  }
  std::string out;
  for (char c : instance) {
    const bool ok =
        std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

}  // namespace netdoctor::remote
