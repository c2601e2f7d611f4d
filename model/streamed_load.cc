// The MachineSink that loads machines as a bundle archive is read: a machine is queued for the
// worker threads, or loaded on the reading thread itself when they are behind (which bounds the
// machines held in memory, and keeps both cores busy whichever side is slower).
#include "model/streamed_load.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "model/source_filter.h"

namespace netdoctor::model {
namespace {

class LoadingSink final : public MachineSink {
 public:
  LoadingSink(const CounterTable& counters, const LoadOptions& options)
      : m_counters(counters), m_filter(options.only_sources) {
    const int workers = std::max(1, options.threads) - 1;
    for (int i = 0; i < workers; ++i) {
      m_workers.emplace_back([this] { work(); });
    }
  }
  ~LoadingSink() override { stop(); }
  LoadingSink(const LoadingSink&) = delete;
  LoadingSink& operator=(const LoadingSink&) = delete;

  void take(MachineRole role, MachineCapture capture) override {
    std::unique_lock lock(m_mutex);
    if (m_workers.empty() || m_queue.size() >= k_queued_per_worker * m_workers.size()) {
      lock.unlock();
      load(Job{role, std::move(capture)});
      return;
    }
    m_queue.push_back(Job{role, std::move(capture)});
    m_changed.notify_one();
  }

  void discard() override {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.empty() && m_busy == 0; });
    m_loaded = LoadedMachines{};
  }

  // Every machine taken, loaded; the workers are done.
  LoadedMachines finish() {
    stop();
    return std::move(m_loaded);
  }

 private:
  // Enough that a worker never waits for the reader, few enough that little is held.
  static constexpr std::size_t k_queued_per_worker = 4;
  struct Job {
    MachineRole role;
    MachineCapture capture;
  };

  void load(Job job) {
    std::vector<Problem> problems;
    if (job.role == MachineRole::Host) {
      Host host = load_host(job.capture.name, job.capture.samples, m_counters, problems, m_filter);
      job = {};  // the machine's files go now, not when the next job comes
      const std::lock_guard lock(m_mutex);
      m_loaded.hosts.emplace_back(std::move(host), std::move(problems));
    } else {
      Switch sw = load_switch(job.capture.name, job.capture.samples, problems, m_filter);
      job = {};
      const std::lock_guard lock(m_mutex);
      m_loaded.switches.emplace_back(std::move(sw), std::move(problems));
    }
  }

  void work() {
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_changed.wait(lock, [this] { return m_stop || !m_queue.empty(); });
      if (m_queue.empty()) {
        return;  // stopping, and nothing left
      }
      Job job = std::move(m_queue.front());
      m_queue.pop_front();
      ++m_busy;
      lock.unlock();
      load(std::move(job));
      lock.lock();
      --m_busy;
      m_changed.notify_all();
    }
  }

  void stop() {
    {
      const std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_changed.notify_all();
    for (auto& worker : m_workers) {
      worker.join();
    }
    m_workers.clear();
  }

  const CounterTable& m_counters;
  const SourceFilter m_filter;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Job> m_queue;
  std::size_t m_busy = 0;
  bool m_stop = false;
  LoadedMachines m_loaded;
  std::vector<std::thread> m_workers;  // last: they start once everything else is built
};

}  // namespace

Result<LoadedBundle> open_and_load_bundle(const std::string& path, const LoadOptions& options) {
  return load_while_reading(
      [&path](MachineSink& sink) { return open_bundle_streaming(path, sink); }, options);
}

Result<LoadedBundle> load_while_reading(const MachineReader& read, const LoadOptions& options) {
  std::optional<CounterTable> builtin;
  ND_TRY_ASSIGN(const CounterTable* counters, counter_table(options, builtin));
  LoadingSink sink(*counters, options);
  auto bundle = read(sink);
  LoadedMachines loaded = sink.finish();
  if (!bundle.ok()) {
    return bundle.error();
  }
  LoadOptions rest = options;
  rest.counters = counters;
  ND_TRY_ASSIGN(Fabric fabric, load_fabric(*bundle, rest, std::move(loaded)));
  return LoadedBundle{std::move(bundle).value(), std::move(fabric)};
}

}  // namespace netdoctor::model
