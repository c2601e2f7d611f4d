// load_fabric: every host and switch (optionally on a few threads), the perftest runs
// (model/perftest_loader.cc), the NCCL jobs (model/nccl_job.cc), the InfiniBand fabric views
// (model/ib_loader.cc), then the NIC-to-switch-port cross-fill from the switches' LLDP tables.
#include "model/loader.h"

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "base/strings.h"
#include "model/ib_loader.h"
#include "model/nccl_job.h"
#include "model/perftest_loader.h"
#include "model/source_names.h"
#include "model/source_reading.h"
#include "model/sweep_loader.h"

namespace netdoctor::model {
namespace {

std::string fabric_name(const Bundle& bundle) {
  if (bundle.manifest_json) {
    auto manifest = nlohmann::json::parse(*bundle.manifest_json, nullptr, false);
    if (manifest.is_object() && manifest.contains("cluster") && manifest["cluster"].is_string()) {
      return manifest["cluster"].get<std::string>();
    }
  }
  std::string name = bundle.path;
  while (!name.empty() && name.back() == '/') {
    name.pop_back();
  }
  if (auto slash = name.rfind('/'); slash != std::string::npos) {
    name = name.substr(slash + 1);
  }
  for (std::string_view suffix : {".tar.gz", ".tgz", ".tar.xz", ".tar"}) {
    if (ends_with(name, suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  }
  return name;
}

// Hosts and switches, each into its own slot with its own problem list (merged in bundle
// order afterwards, so the result does not depend on the threads); the workers take the next
// machine as they finish one, so a slow host does not hold up a whole stripe.
void load_machines(const Bundle& bundle, const CounterTable& counters, int threads,
                   const SourceFilter& filter, std::vector<Host>& hosts,
                   std::vector<Switch>& switches, std::vector<std::vector<Problem>>& problems) {
  const std::size_t host_count = bundle.hosts.size();
  const std::size_t count = host_count + bundle.switches.size();
  hosts.resize(host_count);
  switches.resize(bundle.switches.size());
  problems.resize(count);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      if (i < host_count) {
        hosts[i] =
            load_host(bundle.hosts[i].name, bundle.hosts[i].samples, counters, problems[i], filter);
      } else {
        const auto& capture = bundle.switches[i - host_count];
        switches[i - host_count] = load_switch(capture.name, capture.samples, problems[i], filter);
      }
    }
  };
  const auto workers = static_cast<std::size_t>(std::max(1, threads));
  if (workers == 1 || count < 2) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < workers; ++t) {
    pool.emplace_back(work);
  }
  work();
  for (auto& thread : pool) {
    thread.join();
  }
}

// The machines' problems in bundle order (hosts, then switches), those loaded before placed
// by name among them (a streamed bundle's machines are listed by name).
void add_machine_problems(const Bundle& bundle, std::vector<std::vector<Problem>>& here,
                          LoadedMachines& before, std::vector<Problem>& out) {
  using Listed = std::pair<std::string_view, std::vector<Problem>*>;
  auto by_name = [](const Listed& a, const Listed& b) { return a.first < b.first; };
  std::vector<Listed> hosts;
  std::vector<Listed> switches;
  for (std::size_t i = 0; i < bundle.hosts.size(); ++i) {
    hosts.emplace_back(bundle.hosts[i].name, &here[i]);
  }
  for (std::size_t i = 0; i < bundle.switches.size(); ++i) {
    switches.emplace_back(bundle.switches[i].name, &here[bundle.hosts.size() + i]);
  }
  for (auto& [host, problems] : before.hosts) {
    hosts.emplace_back(host.name, &problems);
  }
  for (auto& [sw, problems] : before.switches) {
    switches.emplace_back(sw.name, &problems);
  }
  const bool interleave = !before.hosts.empty() || !before.switches.empty();
  for (auto* list : {&hosts, &switches}) {
    if (interleave) {
      std::stable_sort(list->begin(), list->end(), by_name);
    }
    for (auto& [name, problems] : *list) {
      std::move(problems->begin(), problems->end(), std::back_inserter(out));
      problems->clear();
    }
  }
}

}  // namespace

void cross_fill_switch_ports(Fabric& fabric) {
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      if (port.peer_device.empty()) {
        continue;
      }
      Host* host = fabric.find_host(port.peer_device);
      if (host == nullptr) {
        continue;
      }
      for (auto& nic : host->nics) {
        if (!nic.switch_name.empty() || nic.netdev.empty() || nic.netdev != port.peer_port) {
          continue;
        }
        nic.switch_name = sw.name;
        nic.switch_port = port.name;
        record_source(nic.sources, source::k_show_lldp_table, Availability::Observed);
      }
    }
  }
}

Result<const CounterTable*> counter_table(const LoadOptions& options,
                                          std::optional<CounterTable>& builtin) {
  if (options.counters != nullptr) {
    return options.counters;
  }
  ND_TRY_ASSIGN(builtin, CounterTable::builtin());
  return &*builtin;
}

Result<Fabric> load_fabric(const Bundle& bundle, const LoadOptions& options) {
  return load_fabric(bundle, options, LoadedMachines{});
}

Result<Fabric> load_fabric(const Bundle& bundle, const LoadOptions& options,
                           LoadedMachines loaded) {
  std::optional<CounterTable> builtin;
  ND_TRY_ASSIGN(const CounterTable* counters, counter_table(options, builtin));

  Fabric fabric;
  fabric.name = fabric_name(bundle);
  for (const auto& error : bundle.problems) {
    fabric.problems.push_back(Problem{"", "bundle", error});
  }

  const SourceFilter filter(options.only_sources);
  std::vector<std::vector<Problem>> machine_problems;
  load_machines(bundle, *counters, options.threads, filter, fabric.hosts, fabric.switches,
                machine_problems);
  add_machine_problems(bundle, machine_problems, loaded, fabric.problems);
  for (auto& [host, problems] : loaded.hosts) {
    fabric.hosts.push_back(std::move(host));
  }
  for (auto& [sw, problems] : loaded.switches) {
    fabric.switches.push_back(std::move(sw));
  }
  auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
  std::stable_sort(fabric.hosts.begin(), fabric.hosts.end(), by_name);
  std::stable_sort(fabric.switches.begin(), fabric.switches.end(), by_name);
  // After the sort: a withheld run is recorded against its client host, found by name.
  load_perftests(bundle, filter, fabric);
  load_nccl_jobs(bundle, filter, fabric);
  load_sweeps(bundle, filter, fabric);
  load_ib_fabric(bundle, filter, *counters, fabric);  // after the hosts: it joins their HCAs
  cross_fill_switch_ports(fabric);
  return fabric;
}

}  // namespace netdoctor::model
