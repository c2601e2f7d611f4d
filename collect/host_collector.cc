#include "collect/host_collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "base/json_text.h"
#include "base/strings.h"

namespace netdoctor::collect {
namespace {

class SampleWriter {
 public:
  SampleWriter(TreeWriter& out, std::string prefix) : m_out(out), m_prefix(std::move(prefix)) {}

  // `abs_path` as on the host ("/sys/class/net/eth0/mtu").
  Status write(std::string_view abs_path, std::string_view content) {
    ND_TRY(m_out.write_file(m_prefix + std::string(abs_path), content));
    ++m_files;
    return {};
  }
  std::size_t files() const { return m_files; }

 private:
  TreeWriter& m_out;
  std::string m_prefix;
  std::size_t m_files = 0;
};

class Notes {
 public:
  Notes(CollectReport& report, const NoteSink& sink) : m_report(report), m_sink(sink) {}
  void add(std::string note) {
    if (m_sink) {
      m_sink(note);
    }
    m_sample.push_back(note);
    m_report.notes.push_back(std::move(note));
  }
  // A note of another directory's log (a fabric sample): reported, not in this host's log.
  void add_elsewhere(std::string note) {
    if (m_sink) {
      m_sink(note);
    }
    m_report.notes.push_back(std::move(note));
  }
  std::vector<std::string> take_sample_notes() { return std::exchange(m_sample, {}); }

 private:
  CollectReport& m_report;
  const NoteSink& m_sink;
  std::vector<std::string> m_sample;
};

struct SampleCounts {
  std::size_t files = 0;
  std::size_t commands = 0;
};

// Reads the plan's files, then runs its commands, in plan order.
Result<SampleCounts> capture_sample(const SampleSource& host, const CapturePlan& plan,
                                    int parallelism, std::set<std::string>& missing_tools,
                                    SampleWriter& writer, Notes& notes) {
  SampleCounts counts;
  for (const auto& path : plan.files) {
    auto content = host.read_file(path);
    if (content.ok()) {
      ND_TRY(writer.write(path, *content));
      ++counts.files;
    } else if (auto verbs = plan.verbs_files.find(path); verbs != plan.verbs_files.end()) {
      ND_TRY(writer.write(path, verbs->second));
      ++counts.files;
    } else if (content.error().code != ErrorCode::NotFound) {
      // e.g. speed of a link that is down reads as EINVAL: worth knowing, not fatal.
      notes.add(
          fmt::format("cannot read {}: {}", host.display_path(path), content.error().message));
    }
  }
  // Run first (in parallel when allowed), then judge and write in plan order.
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < plan.commands.size(); ++i) {
    if (missing_tools.count(plan.commands[i].argv.front()) == 0) {
      to_run.push_back(i);
    }
  }
  std::vector<Result<std::string>> outputs(
      to_run.size(), Result<std::string>(make_error(ErrorCode::Internal, "not run")));
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < to_run.size(); k = next++) {
      outputs[k] = host.command(plan.commands[to_run[k]].argv);
    }
  };
  const auto threads = std::min(to_run.size(), static_cast<std::size_t>(std::max(parallelism, 1)));
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t) {
      pool.emplace_back(worker);
    }
    for (auto& thread : pool) {
      thread.join();
    }
  }
  for (std::size_t k = 0; k < to_run.size(); ++k) {
    const auto& command = plan.commands[to_run[k]];
    const std::string& program = command.argv.front();
    const std::string line = join(command.argv, " ");
    const auto& output = outputs[k];
    if (output.ok()) {
      ND_TRY(writer.write("/sos_commands/" + command.group + "/" + mangle_command(command.argv),
                          *output));
      ++counts.commands;
    } else if (output.error().code == ErrorCode::NotFound) {
      if (missing_tools.insert(program).second) {
        notes.add(fmt::format("{} is not installed: '{}' and the other {} commands not captured",
                              program, line, program));
      }
    } else {
      notes.add(fmt::format("'{}' failed: {}", line, output.error().message));
    }
  }
  return counts;
}

std::string log_text(const std::string& header, const std::vector<std::string>& plan_notes,
                     const std::vector<std::string>& sample_notes) {
  std::string text = header + "\n";
  for (const auto* list : {&plan_notes, &sample_notes}) {
    for (const auto& note : *list) {
      text += note + "\n";
    }
  }
  return text;
}

bool wants_fabric(const CollectOptions& options, const SampleSource& host,
                  const CapturePlan& plan) {
  if (options.fabric_runner == nullptr) {
    return false;
  }
  switch (options.fabric.mode) {
    case FabricMode::On:
      return true;
    case FabricMode::Off:
      return false;
    case FabricMode::Auto:
      return has_infiniband_port(host, plan);
  }
  return false;
}

// fabric/<name>/ of one sample, its notes reported and a line of progress said.
Status capture_fabric(const CollectOptions& options, const std::string& name, Clock& clock,
                      TreeWriter& out, CollectReport& report, Notes& notes) {
  ND_TRY_ASSIGN(
      FabricSampleReport fabric,
      capture_fabric_sample(name, clock.now_unix(), *options.fabric_runner, options.fabric, out));
  for (auto& note : fabric.notes) {
    notes.add_elsewhere("fabric sample " + name + ": " + note);
  }
  ++report.fabric_samples;
  report.fabric_outputs += fabric.views + fabric.perfquery;
  report.fabric_failed += fabric.failed;
  if (options.fabric.progress) {
    options.fabric.progress(fmt::format(
        "fabric sample {}: {} views, {} nodes, {} perfquery outputs of {} targets, {} failed, "
        "{:.1f}s",
        name, fabric.views, fabric.nodes, fabric.perfquery, fabric.targets, fabric.failed,
        fabric.seconds));
  }
  return {};
}

}  // namespace

std::string sample_name(int index, int total) {
  const int width = static_cast<int>(std::to_string(std::max(total - 1, 0)).size());
  return fmt::format("{:0{}}", index, width);
}

Status check_host_name(const std::string& host) {
  const bool bad_char = std::any_of(host.begin(), host.end(), [](char c) {
    return c == '/' || c == '\0' || c == '\n' || c == ' ';
  });
  if (host.empty() || host == "." || host == ".." || bad_char || host.size() > 255) {
    return make_error(ErrorCode::InvalidArgument, "not usable as a host name", host);
  }
  return {};
}

Result<std::string> host_name_of(const SampleSource& host) {
  for (const char* path : {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
    auto text = host.read_file(path);
    if (text.ok()) {
      std::string name(trim(*text));
      if (check_host_name(name).ok()) {
        return name;
      }
    }
  }
  return make_error(ErrorCode::NotFound, "the host does not say its name; give --host",
                    host.describe());
}

Result<CollectReport> collect_host(const CollectOptions& options, const SampleFactory& factory,
                                   const VerbsSource* verbs, Clock& clock, TreeWriter& out,
                                   const NoteSink& on_note) {
  ND_TRY(check_host_name(options.host));
  if (options.samples < 1) {
    return make_error(ErrorCode::InvalidArgument, "--samples must be at least 1");
  }
  if (options.interval.count() < 0) {
    return make_error(ErrorCode::InvalidArgument, "--interval must not be negative");
  }
  CollectReport report;
  Notes notes(report, on_note);

  std::vector<VerbsDevice> verbs_devices;
  if (verbs != nullptr) {
    auto listed = verbs->devices();
    if (!listed.ok()) {
      notes.add("libibverbs: " + listed.error().describe());
    } else if (listed->empty()) {
      notes.add("no RDMA devices found (libibverbs)");
    } else {
      verbs_devices = std::move(listed).value();
    }
  }
  bool fabric = false;
  {
    const auto planning = factory(clock.now_unix());
    report.plan = plan_capture(*planning, verbs != nullptr ? &verbs_devices : nullptr);
    fabric = wants_fabric(options, *planning, report.plan);
  }
  if (report.plan.rdma_devices.empty() && verbs == nullptr) {
    notes.add("no RDMA devices found (sysfs)");
  }
  for (const auto& note : report.plan.notes) {
    notes.add(note);
  }
  const std::vector<std::string> plan_notes = notes.take_sample_notes();

  std::set<std::string> missing_tools;
  const double first_start = clock.now_unix();
  for (int i = 0; i < options.samples; ++i) {
    if (i > 0) {
      const double due = first_start + static_cast<double>(i) *
                                           static_cast<double>(options.interval.count()) / 1000.0;
      const double wait_s = due - clock.now_unix();
      if (wait_s > 0) {
        clock.sleep_for(std::chrono::milliseconds(static_cast<long long>(wait_s * 1000.0 + 0.5)));
      }
    }
    const std::string name = sample_name(i, options.samples);
    const std::string prefix = fmt::format("hosts/{}/{}", options.host, name);
    const double at = clock.now_unix();
    const auto host = factory(at);
    SampleWriter writer(out, prefix);
    ND_TRY_ASSIGN(SampleCounts counts,
                  capture_sample(*host, report.plan, options.command_parallelism, missing_tools,
                                 writer, notes));
    ND_TRY(writer.write("/captured_at", fmt::format("{:.6f}\n", at)));
    const std::string header = fmt::format(
        "netdoctor collect: host {} sample {} at {:.6f}: {} RDMA devices, {} interfaces, {} files, "
        "{} commands",
        options.host, name, at, report.plan.rdma_devices.size(), report.plan.interfaces.size(),
        counts.files, counts.commands);
    ND_TRY(writer.write(std::string("/") + k_collect_log,
                        log_text(header, plan_notes, notes.take_sample_notes())));
    report.files_written += writer.files();
    report.commands_captured += counts.commands;
    report.sample_names.push_back(name);
    if (fabric) {
      ND_TRY(capture_fabric(options, name, clock, out, report, notes));
    }
  }
  return report;
}

Status write_manifest(TreeWriter& out, double created_at, const std::string& notes) {
  const nlohmann::json manifest = {
      {"format", "netdoctor-bundle"}, {"version", 1}, {"created_at", created_at}, {"notes", notes}};
  return out.write_file("bundle.json", json_text(manifest, 2) + "\n");
}

}  // namespace netdoctor::collect
