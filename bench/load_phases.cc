// load_phases: where the time of loading and diagnosing one bundle goes, phase by phase (open
// and load the model as `diagnose` does, an archive streamed; diagnose; free it all), with the peak
// RSS after each and how many metric values the model holds. A tool for finding what to optimise;
// the targets are checked by load_bench.sh and diagnose_bench.sh.
//
//   load_phases BUNDLE [SYMPTOM] [THREADS]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "base/bundle.h"
#include "engine/pipeline.h"
#include "model/loader.h"
#include "model/streamed_load.h"

namespace {

using Clock = std::chrono::steady_clock;

rusage usage_now() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage;
}

double cpu_seconds(const rusage& usage) {
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Wall and CPU time (all threads) since `start`, CPU being the steadier figure on a shared
// machine; page faults, which are dear on some virtual machines.
struct Mark {
  Clock::time_point wall = Clock::now();
  rusage usage = usage_now();
};

void phase(const char* name, const Mark& start) {
  const Mark now;
  fmt::print("{:<10} {:7.3f} s wall {:7.3f} s cpu {:7} faults   peak {:5} MiB\n", name,
             std::chrono::duration<double>(now.wall - start.wall).count(),
             cpu_seconds(now.usage) - cpu_seconds(start.usage),
             now.usage.ru_minflt - start.usage.ru_minflt, now.usage.ru_maxrss / 1024);
}

// What the model holds: metric values dominate its memory.
void print_model_size(const netdoctor::model::Fabric& fabric) {
  std::size_t host_samples = 0;
  std::size_t host_values = 0;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      for (const auto& sample : nic.samples) {
        ++host_samples;
        host_values += sample.values.size();
      }
    }
  }
  std::size_t port_samples = 0;
  std::size_t port_values = 0;
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      for (const auto& sample : port.samples) {
        ++port_samples;
        port_values += sample.values.size();
      }
    }
  }
  fmt::print("metric values: {} in {} NIC samples, {} in {} switch port samples\n", host_values,
             host_samples, port_values, port_samples);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: load_phases BUNDLE [SYMPTOM] [THREADS]\n");
    return 2;
  }
  const std::string symptom = argc > 2 ? argv[2] : "slowdown";
  const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
  const Mark total;
  Mark start;
  netdoctor::model::LoadOptions options;
  options.threads = threads;
  // As `diagnose --bundle` loads one bundle: an archive streamed, its machines loaded as read.
  auto loaded = netdoctor::model::open_and_load_bundle(argv[1], options);
  if (!loaded.ok()) {
    fmt::print(stderr, "{}\n", loaded.error().describe());
    return 1;
  }
  phase("open+load", start);
  auto& fabric = loaded->fabric;
  start = Mark{};
  netdoctor::engine::DiagnoseOptions diagnose;
  diagnose.symptom = symptom;
  auto diagnosis = netdoctor::engine::diagnose_fabric(fabric, diagnose);
  if (!diagnosis.ok()) {
    fmt::print(stderr, "{}\n", diagnosis.error().describe());
    return 1;
  }
  phase("diagnose", start);
  phase("total", total);
  fmt::print("{} hosts, {} switches, {} problems; top cause {}\n", fabric.hosts.size(),
             fabric.switches.size(), fabric.problems.size(),
             diagnosis->causes.empty() ? "none" : diagnosis->causes.front().id);
  print_model_size(fabric);
  start = Mark{};
  loaded = netdoctor::model::LoadedBundle{};
  phase("teardown", start);
  return 0;
}
