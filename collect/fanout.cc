#include "collect/fanout.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <semaphore>
#include <thread>

#include "base/file_tree.h"
#include "base/strings.h"
#include "collect/bundle_merge.h"
#include "collect/stream_writer.h"

namespace netdoctor::collect {
namespace {

std::string substitute_host(const std::string& arg, const std::string& host) {
  std::string out;
  for (std::size_t i = 0; i < arg.size(); ++i) {
    if (arg[i] == '%' && i + 1 < arg.size() && arg[i + 1] == 'h') {
      out += host;
      ++i;
    } else {
      out += arg[i];
    }
  }
  return out;
}

std::string failure_text(const CommandOutput& output) {
  std::string why;
  if (output.signal != 0) {
    why = fmt::format("launcher killed by signal {}", output.signal);
  } else if (output.exit_code == 127) {
    why = "exit 127 (netdoctor or the launcher's remote shell not found)";
  } else if (output.exit_code == 255) {
    why = "exit 255 (host unreachable or connection refused)";
  } else {
    why = fmt::format("exit {}", output.exit_code);
  }
  const std::string detail = last_line(output.err);
  return detail.empty() ? why : fmt::format("{}: {}", why, detail);
}

}  // namespace

std::string last_line(std::string_view text) {
  std::string fallback;
  const auto lines = split_lines(text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const std::string_view line = trim(*it);
    if (line.empty()) {
      continue;
    }
    if (!starts_with(line, "pdsh@")) {
      return std::string(line);
    }
    if (fallback.empty()) {
      fallback = line;
    }
  }
  return fallback;
}

Result<Launcher> parse_launcher(std::string_view name) {
  if (name == "ssh") {
    return Launcher::Ssh;
  }
  if (name == "pdsh") {
    return Launcher::Pdsh;
  }
  if (name == "srun") {
    return Launcher::Srun;
  }
  return make_error(ErrorCode::InvalidArgument, "launcher must be ssh, pdsh or srun",
                    std::string(name));
}

std::string launcher_program(Launcher launcher) {
  switch (launcher) {
    case Launcher::Ssh:
      return "ssh";
    case Launcher::Pdsh:
      return "pdsh";
    case Launcher::Srun:
      return "srun";
  }
  return "ssh";
}

std::vector<std::string> remote_argv(const FanoutOptions& options, const std::string& host) {
  std::vector<std::string> argv = options.remote_command;
  for (const char* arg : {"collect", "--out", "-", "--base64", "--host"}) {
    argv.emplace_back(arg);
  }
  argv.push_back(host);
  for (const auto& arg : options.collect_args) {
    argv.push_back(substitute_host(arg, host));
  }
  if (options.fabric_host.empty()) {
    return argv;
  }
  if (host == options.fabric_host) {
    argv.insert(argv.end(), options.fabric_host_args.begin(), options.fabric_host_args.end());
  } else if (std::find(argv.begin(), argv.end(), "--no-fabric") == argv.end()) {
    argv.emplace_back("--no-fabric");
  }
  return argv;
}

std::vector<std::string> on_host(Launcher launcher, const std::string& pdsh_rcmd,
                                 const std::string& host, const std::vector<std::string>& remote) {
  std::vector<std::string> argv;
  switch (launcher) {
    case Launcher::Ssh: {
      argv = {"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "--", host};
      std::vector<std::string> quoted;
      for (const auto& word : remote) {
        quoted.push_back(shell_quote(word));
      }
      argv.push_back(join(quoted, " "));
      break;
    }
    case Launcher::Pdsh:
      // -N: no "host: " prefix on output lines; -S: the remote command's exit status.
      argv = {"pdsh", "-N", "-S"};
      if (!pdsh_rcmd.empty()) {
        argv.insert(argv.end(), {"-R", pdsh_rcmd});
      }
      argv.insert(argv.end(), {"-w", host});
      for (const auto& word : remote) {
        argv.push_back(shell_quote(word));
      }
      break;
    case Launcher::Srun:
      argv = {"srun", "-w", host, "-N1", "-n1", "--"};
      argv.insert(argv.end(), remote.begin(), remote.end());
      break;
  }
  return argv;
}

std::vector<std::string> launcher_argv(const FanoutOptions& options, const std::string& host) {
  return on_host(options.launcher, options.pdsh_rcmd, host, remote_argv(options, host));
}

namespace {

// The capture archive (.tar.gz) a launcher run brought back, or why there is none (in
// `outcome.error`). Kept apart from the merge so that decoding runs outside the writer's lock.
// `timeout` (when given) words a hang by it rather than by the runner's message, which repeats
// the whole launcher command line.
std::optional<std::string> decode_capture(const Result<CommandOutput>& run, HostOutcome& outcome,
                                          std::chrono::milliseconds timeout = {}) {
  if (!run.ok()) {
    if (run.error().code != ErrorCode::Timeout) {
      outcome.error = run.error().describe();
    } else if (timeout.count() > 0) {
      outcome.error = fmt::format("timed out: no answer within {}s, the launcher was killed",
                                  std::chrono::duration<double>(timeout).count());
    } else {
      outcome.error = "timed out: " + run.error().message;
    }
    return std::nullopt;
  }
  outcome.seconds = run->duration_s;
  if (run->exit_code != 0) {
    outcome.error = failure_text(*run);
    return std::nullopt;
  }
  if (run->truncated) {
    outcome.error = "capture larger than the output limit";
    return std::nullopt;
  }
  auto archive = decode_base64(run->out);
  if (!archive.ok() || archive->empty()) {
    const std::string detail = last_line(run->err);
    outcome.error = fmt::format("no capture came back (output is not a base64 archive){}",
                                detail.empty() ? "" : ": " + detail);
    return std::nullopt;
  }
  return std::move(archive).value();
}

// The capture's files, unpacked in memory: several times the archive's size, so unpacked only
// when the writer is free (a host waiting for its turn holds the compressed archive).
std::unique_ptr<FileTree> open_archive(const std::string& archive, HostOutcome& outcome) {
  auto tree = open_tar_tree_from_memory(archive, outcome.host + " capture");
  if (!tree.ok()) {
    outcome.error = "no capture came back (output is not an archive): " + tree.error().message;
    return nullptr;
  }
  return std::move(tree).value();
}

void merge_capture(const FileTree& capture, TreeWriter& out, bool with_fabric,
                   HostOutcome& outcome) {
  auto merged = merge_host_capture(capture, outcome.host, out);
  if (!merged.ok()) {
    outcome.error = merged.error().describe();
    return;
  }
  outcome.files = *merged;
  if (with_fabric) {
    auto fabric = merge_fabric_capture(capture, out);
    if (!fabric.ok()) {
      outcome.error = fabric.error().describe();
      return;
    }
    outcome.files += *fabric;
  }
  outcome.ok = true;
}

}  // namespace

HostOutcome merge_launcher_output(const std::string& host, const Result<CommandOutput>& run,
                                  TreeWriter& out, bool with_fabric) {
  HostOutcome outcome;
  outcome.host = host;
  if (const auto archive = decode_capture(run, outcome)) {
    if (auto capture = open_archive(*archive, outcome)) {
      merge_capture(*capture, out, with_fabric, outcome);
    }
  }
  return outcome;
}

namespace {

// The host's capture as an archive piece (its hosts/<host>/ and, for the fabric host, the
// fabric views) to append to the bundle; nullopt with `outcome.error` set when it cannot be.
std::optional<std::string> compress_capture(const std::string& archive, bool with_fabric,
                                            int compression_level, HostOutcome& outcome) {
  const auto capture = open_archive(archive, outcome);
  if (!capture) {
    return std::nullopt;
  }
  std::string piece;
  auto writer = open_tar_gz_piece_writer(piece, outcome.host, compression_level);
  if (!writer.ok()) {
    outcome.error = writer.error().describe();
    return std::nullopt;
  }
  merge_capture(*capture, **writer, with_fabric, outcome);
  if (Status finished = (*writer)->finish(); outcome.ok && !finished.ok()) {
    outcome.ok = false;
    outcome.error = finished.error().describe();
  }
  if (!outcome.ok) {
    return std::nullopt;
  }
  return piece;
}

}  // namespace

std::size_t merge_threads(const FanoutOptions& options) {
  if (options.merge_threads > 0) {
    return static_cast<std::size_t>(options.merge_threads);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<HostOutcome> fan_out(const std::vector<std::string>& hosts,
                                 const FanoutOptions& options, CommandRunner& runner,
                                 TreeWriter& out, const ProgressSink& progress) {
  // Memory stays flat in the number of hosts: each worker holds one host's output at a time
  // (the launcher's text, then the archive decoded from it) and lets it go before starting its
  // next host, so at most `parallel` outputs are alive at once; only the outcomes (a few short
  // strings per host) are kept to the end. Into an archive, a host's capture is unpacked and
  // compressed into a piece of the bundle on its worker's thread, at most merge_threads() at
  // once (each unpacked capture is a few MiB, and more at once than there are cores only
  // competes for them); appending the piece is the only work done under the writer's lock. A
  // directory is written file by file under the lock.
  std::vector<HostOutcome> outcomes(hosts.size());
  std::atomic<std::size_t> next{0};
  std::mutex lock;  // guards `out`, `done` and the progress sink
  std::size_t done = 0;
  std::counting_semaphore<> compressing(static_cast<std::ptrdiff_t>(merge_threads(options)));
  const bool in_pieces = out.takes_pieces();
  CommandOptions command_options;
  command_options.timeout = options.timeout;

  auto worker = [&] {
    for (std::size_t i = next++; i < hosts.size(); i = next++) {
      const std::string& host = hosts[i];
      const bool with_fabric = host == options.fabric_host;
      HostOutcome outcome;
      outcome.host = host;
      const auto started = std::chrono::steady_clock::now();
      // The launcher's output lives only within this statement: decoded into `archive`, freed.
      auto archive = decode_capture(runner.run(launcher_argv(options, host), command_options),
                                    outcome, options.timeout);
      if (outcome.seconds <= 0.0) {  // a run that failed has no duration of its own: a hang's
        outcome.seconds =            // is the timeout
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      }
      std::optional<std::string> piece;
      if (archive && in_pieces) {
        compressing.acquire();
        piece = compress_capture(*archive, with_fabric, options.compression_level, outcome);
        compressing.release();
        archive.reset();
      }
      {
        std::lock_guard<std::mutex> guard(lock);
        if (piece) {
          if (Status appended = out.append_piece(*piece); !appended.ok()) {
            outcome.ok = false;
            outcome.error = appended.error().describe();
          }
        } else if (archive) {
          if (auto capture = open_archive(*archive, outcome)) {
            merge_capture(*capture, out, with_fabric, outcome);
          }
        }
        outcomes[i] = std::move(outcome);
        ++done;
        if (progress) {
          progress(outcomes[i], done, hosts.size());
        }
      }
      archive.reset();  // released before the next host is started
    }
  };
  const std::size_t threads =
      std::min(hosts.size(), static_cast<std::size_t>(std::max(options.parallel, 1)));
  if (threads <= 1) {
    worker();
    return outcomes;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    pool.emplace_back(worker);
  }
  for (auto& thread : pool) {
    thread.join();
  }
  return outcomes;
}

}  // namespace netdoctor::collect
