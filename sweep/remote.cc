#include "sweep/remote.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"
#include "collect/command_pool.h"

namespace netdoctor::sweep {

std::vector<std::string> Remote::argv(const std::string& host,
                                      const std::vector<std::string>& remote) const {
  return collect::on_host(launcher, pdsh_rcmd, host, remote);
}

CommandOptions Remote::options(std::chrono::milliseconds timeout_override) const {
  CommandOptions out;
  out.timeout = timeout_override.count() > 0 ? timeout_override : timeout;
  out.max_output_bytes = 16ull << 20;
  out.cancel = cancel;
  return out;
}

RemoteResult judge(const Result<CommandOutput>& output, std::chrono::milliseconds timeout) {
  RemoteResult result;
  const std::string after = fmt::format("timed out after {} s", timeout.count() / 1000);
  if (!output.ok()) {
    result.unreachable = output.error().code == ErrorCode::Timeout;
    result.why = result.unreachable ? after : output.error().describe();
    result.seconds = result.unreachable ? static_cast<double>(timeout.count()) / 1000.0 : 0.0;
    return result;
  }
  result.seconds = output->duration_s;
  result.out = output->out;
  if (output->cancelled) {
    result.why = "stopped (interrupted)";
    return result;
  }
  if (output->timed_out) {
    result.unreachable = true;
    result.why = after;
    return result;
  }
  if (output->exit_code == 0) {
    result.ok = true;
    return result;
  }
  // ssh and pdsh's ssh module say 255 when the connection itself failed.
  result.unreachable = output->exit_code == 255;
  std::string why = output->signal != 0        ? fmt::format("killed by signal {}", output->signal)
                    : output->exit_code == 255 ? "exit 255 (host unreachable or connection refused)"
                                               : fmt::format("exit {}", output->exit_code);
  const std::string detail = collect::last_line(output->err.empty() ? output->out : output->err);
  result.why = detail.empty() ? why : fmt::format("{}: {}", why, detail);
  return result;
}

Batch run_batch(const Remote& remote, const std::vector<std::vector<std::string>>& commands,
                std::chrono::milliseconds timeout_override) {
  const CommandOptions options = remote.options(timeout_override);
  auto outputs = collect::run_bounded(commands, *remote.runner, options, remote.parallel);
  Batch batch;
  double total = 0.0;
  for (const auto& output : outputs) {
    batch.results.push_back(judge(output, options.timeout));
    batch.seconds = std::max(batch.seconds, batch.results.back().seconds);
    total += batch.results.back().seconds;
  }
  batch.seconds = std::max(batch.seconds, total / std::max(remote.parallel, 1));
  return batch;
}

std::size_t stop_remote_commands(const Remote& remote, const std::vector<Started>& started) {
  Remote cleanup = remote;
  cleanup.cancel = nullptr;  // the stop must run although Ctrl-C was pressed
  std::vector<std::vector<std::string>> commands;
  for (const Started& command : started) {
    commands.push_back(
        cleanup.argv(command.host, {"pkill", "-TERM", "-x", "-f", join(command.words, " ")}));
  }
  run_batch(cleanup, commands, std::chrono::seconds(10));
  return commands.size();
}

}  // namespace netdoctor::sweep
