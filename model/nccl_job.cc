#include "model/nccl_job.h"

#include <algorithm>
#include <set>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/source_reading.h"
#include "parsers/nccl_log.h"
#include "parsers/nccl_tests.h"

namespace netdoctor::model {
namespace {

constexpr std::string_view k_root = "nccl";

NcclHostView& view_of(NcclJob& job, const std::string& host) {
  for (auto& view : job.hosts) {
    if (view.host == host) {
      return view;
    }
  }
  job.hosts.push_back(NcclHostView{});
  job.hosts.back().host = host;
  return job.hosts.back();
}

// "node01.log" -> "node01": a per-host file whose lines carry no host name.
std::string file_stem(std::string_view name) {
  return std::string(name.substr(0, name.find('.')));
}

void add_host_lines(const parsers::NcclLogHost& logged, NcclHostView& view) {
  if (view.hcas.empty()) {
    for (const auto& device : logged.ib_devices) {
      view.hcas.push_back(device.name);
    }
  }
  if (view.network.empty()) {
    view.network = logged.network;
  }
  for (const auto& device : logged.socket_devices) {
    if (std::find(view.socket_devices.begin(), view.socket_devices.end(), device) ==
        view.socket_devices.end()) {
      view.socket_devices.push_back(device);
    }
  }
  for (const auto& state : logged.gdr) {
    view.gdr[state.hca] = state.enabled;
  }
  if (logged.rings_gdr) {
    view.rings_gdr = view.rings_gdr.value_or(true) && *logged.rings_gdr;
  }
}

void add_channel(const parsers::NcclLogChannel& channel, NcclHostView& view) {
  ++view.channels[channel.transport];
  if (starts_with(channel.transport, "NET/")) {
    ++view.net_channels;
    view.gdr_channels += channel.gdrdma ? 1 : 0;
  }
}

// The log's lines into per-host views; lines without a host go to `unnamed`. The NCCL_* settings
// of the file go to the hosts it logged (a per-host file's NCCL_IB_HCA is that host's alone).
void add_log(const parsers::NcclLog& log, const std::string& unnamed, NcclJob& job) {
  const auto name = [&unnamed](const std::string& host) { return host.empty() ? unnamed : host; };
  std::set<std::string> logged;
  for (const auto& host : log.hosts) {
    add_host_lines(host, view_of(job, name(host.host)));
    logged.insert(name(host.host));
  }
  for (const auto& channel : log.channels) {
    add_channel(channel, view_of(job, name(channel.host)));
    logged.insert(name(channel.host));
  }
  for (const auto& warning : log.warnings) {
    view_of(job, name(warning.host)).warnings.push_back(warning.message);
    logged.insert(name(warning.host));
  }
  for (auto& view : job.hosts) {
    if (logged.count(view.host) > 0) {
      view.env.insert(log.env.begin(), log.env.end());
    }
  }
  job.env.insert(log.env.begin(), log.env.end());
}

void add_tests(const parsers::NcclTestsResult& result, NcclJob& job) {
  for (const auto& row : result.rows) {
    for (const auto* leg : {&row.out_of_place, &row.in_place}) {
      if (leg->busbw_gbyte_s) {
        job.busbw_peak_gbyte_s =
            std::max(job.busbw_peak_gbyte_s.value_or(0.0), *leg->busbw_gbyte_s);
      }
    }
  }
  if (result.avg_bus_bandwidth_gbyte_s) {
    job.busbw_avg_gbyte_s =
        std::max(job.busbw_avg_gbyte_s.value_or(0.0), *result.avg_bus_bandwidth_gbyte_s);
  }
  for (const auto& rank : result.ranks) {
    if (std::find(job.test_hosts.begin(), job.test_hosts.end(), rank.host) ==
        job.test_hosts.end()) {
      job.test_hosts.push_back(rank.host);
    }
  }
  std::sort(job.test_hosts.begin(), job.test_hosts.end());
  job.failures.insert(job.failures.end(), result.failures.begin(), result.failures.end());
}

// One file: a log, nccl-tests output, or both; a problem when neither.
void add_file(const FileTree& tree, const std::string& path, std::string_view name, NcclJob& job,
              std::vector<Problem>& problems) {
  const std::string shown = tree.display_path(path);
  auto text = tree.read(path);
  if (!text.ok()) {
    Error error = text.error();
    error.context = shown;
    problems.push_back(Problem{"", source::k_nccl, std::move(error)});
    return;
  }
  auto log = parsers::parse_nccl_log(*text);
  auto tests = parsers::parse_nccl_tests(*text);
  if (!log.ok() && !tests.ok()) {
    problems.push_back(
        Problem{"", source::k_nccl,
                make_error(ErrorCode::Parse, "neither an NCCL_DEBUG=INFO log nor nccl-tests output",
                           shown)});
    return;
  }
  job.files.push_back(shown);
  if (log.ok()) {
    add_log(*log, file_stem(name), job);
  }
  if (tests.ok()) {
    add_tests(*tests, job);
  }
}

// The fabric host a logged name stands for: the same name, or the same short name.
Host* join(Fabric& fabric, const std::string& logged) {
  if (Host* host = fabric.find_host(logged)) {
    return host;
  }
  const std::string short_name = logged.substr(0, logged.find('.'));
  for (Host& host : fabric.hosts) {
    if (!short_name.empty() && host.name.substr(0, host.name.find('.')) == short_name) {
      return &host;
    }
  }
  return nullptr;
}

void join_hosts(Fabric& fabric, NcclJob& job) {
  for (auto& view : job.hosts) {
    if (Host* host = join(fabric, view.host)) {
      view.fabric_host = host->name;
      record_source(host->sources, source::k_nccl, Availability::Observed);
    }
  }
  std::sort(job.hosts.begin(), job.hosts.end(),
            [](const NcclHostView& a, const NcclHostView& b) { return a.host < b.host; });
}

std::optional<NcclJob> load_job(const FileTree& tree, const DirEntry& entry, Fabric& fabric) {
  NcclJob job;
  job.name = entry.name;
  const std::string dir = std::string(k_root) + "/" + entry.name;
  if (entry.kind == DirEntry::Kind::File) {
    add_file(tree, dir, entry.name, job, fabric.problems);  // a lone file: a job of its own
  } else if (auto files = tree.list(dir); files.ok()) {
    for (const auto& file : *files) {
      if (file.kind == DirEntry::Kind::File) {
        add_file(tree, dir + "/" + file.name, file.name, job, fabric.problems);
      }
    }
  }
  if (job.files.empty()) {
    return std::nullopt;
  }
  join_hosts(fabric, job);
  return job;
}

}  // namespace

void load_nccl_jobs(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric) {
  if (!bundle.tree || !filter.admits(source::k_nccl)) {
    return;
  }
  auto jobs = bundle.tree->list(std::string(k_root));
  if (!jobs.ok()) {
    return;  // no nccl/ folder: nothing captured
  }
  for (const auto& entry : *jobs) {
    if (auto job = load_job(*bundle.tree, entry, fabric)) {
      fabric.nccl_jobs.push_back(std::move(*job));
    }
  }
}

}  // namespace netdoctor::model
