#include "collect/command_pool.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace netdoctor::collect {

std::vector<Result<CommandOutput>> run_bounded(
    const std::vector<std::vector<std::string>>& commands, CommandRunner& runner,
    const CommandOptions& options, int parallelism, const PoolProgress& progress) {
  std::vector<Result<CommandOutput>> results(
      commands.size(), Result<CommandOutput>(make_error(ErrorCode::Internal, "not run")));
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  std::size_t done = 0;
  auto worker = [&] {
    for (std::size_t k = next++; k < commands.size(); k = next++) {
      results[k] = runner.run(commands[k], options);
      if (progress) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        progress(++done, commands.size());
      }
    }
  };
  const auto threads =
      std::min(commands.size(), static_cast<std::size_t>(std::max(parallelism, 1)));
  if (threads <= 1) {
    worker();
    return results;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    pool.emplace_back(worker);
  }
  for (auto& thread : pool) {
    thread.join();
  }
  return results;
}

}  // namespace netdoctor::collect
