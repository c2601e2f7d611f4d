#include "sweep/pair_test.h"

#include <fmt/format.h>

#include <future>

#include "collect/command_pool.h"
#include "parsers/perftest.h"

namespace netdoctor::sweep {
namespace {

// The launcher outlives the remote `timeout` by this much, so a remote that overruns is cut by
// its own timeout (which ends the test) before the local side gives up on the connection.
constexpr std::chrono::seconds k_launcher_margin{15};

PairOutcome read_client(const RemoteResult& client, const RemoteResult& server) {
  PairOutcome outcome;
  outcome.seconds = client.seconds;
  if (!client.ok) {
    outcome.client_unreachable = client.unreachable;
    outcome.failure = "client " + client.why;
    if (!server.ok && !server.why.empty()) {
      outcome.server_unreachable = server.unreachable;
      outcome.failure += "; server " + server.why;
    }
    return outcome;
  }
  auto parsed = parsers::parse_perftest(client.out);
  if (!parsed.ok()) {
    outcome.failure = "client output not understood: " + parsed.error().message;
    return outcome;
  }
  if (!parsed->errors.empty()) {
    outcome.failure = parsed->errors.front().message;
    return outcome;
  }
  if (parsed->bw_rows.empty()) {
    outcome.failure = "no bandwidth reported";
    return outcome;
  }
  outcome.gbps = parsed->bw_rows.back().bw_average_gbps;
  return outcome;
}

}  // namespace

std::vector<std::string> perftest_argv(const Nic& nic, const PerftestSettings& settings,
                                       int tcp_port, const std::string& server_host) {
  std::vector<std::string> argv = {"timeout",
                                   "-k",
                                   "5",
                                   std::to_string(settings.timeout.count()),
                                   "ib_write_bw",
                                   "-d",
                                   nic.device,
                                   "-i",
                                   std::to_string(nic.port),
                                   "-F",
                                   "--report_gbits",
                                   "-D",
                                   std::to_string(settings.seconds),
                                   "-p",
                                   std::to_string(tcp_port)};
  if (settings.gid_index) {
    argv.insert(argv.end(), {"-x", std::to_string(*settings.gid_index)});
  }
  if (!server_host.empty()) {
    argv.push_back(server_host);
  }
  return argv;
}

WaveResult run_pair_wave(const std::vector<PairSpec>& pairs, const PerftestSettings& settings,
                         const Remote& remote, Clock& clock) {
  const auto launcher_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(settings.timeout + k_launcher_margin);
  const CommandOptions options = remote.options(launcher_timeout);
  std::vector<std::future<Result<CommandOutput>>> servers;
  servers.reserve(pairs.size());
  for (const PairSpec& pair : pairs) {
    auto argv =
        remote.argv(pair.server->host, perftest_argv(*pair.server, settings, pair.tcp_port, ""));
    servers.push_back(std::async(std::launch::async, [&remote, &options, argv = std::move(argv)] {
      return remote.runner->run(argv, options);
    }));
  }
  clock.sleep_for(settings.head_start);
  std::vector<std::vector<std::string>> clients;
  clients.reserve(pairs.size());
  for (const PairSpec& pair : pairs) {
    clients.push_back(
        remote.argv(pair.client->host,
                    perftest_argv(*pair.client, settings, pair.tcp_port, pair.server->host)));
  }
  // Every client of the wave at once: each is the other half of a server already waiting.
  Remote wide = remote;
  wide.parallel = static_cast<int>(std::max<std::size_t>(pairs.size(), 1));
  Batch batch = run_batch(wide, clients, launcher_timeout);
  WaveResult wave;
  if (remote.cancel != nullptr && remote.cancel->load()) {
    std::vector<Started> started;
    for (const PairSpec& pair : pairs) {
      started.push_back(
          {pair.server->host, perftest_argv(*pair.server, settings, pair.tcp_port, "")});
      started.push_back({pair.client->host,
                         perftest_argv(*pair.client, settings, pair.tcp_port, pair.server->host)});
    }
    stop_remote_commands(remote, started);
  }
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const RemoteResult server = judge(servers[i].get(), launcher_timeout);
    wave.outcomes.push_back(read_client(batch.results[i], server));
    wave.seconds = std::max(wave.seconds, batch.results[i].seconds);
  }
  wave.seconds += std::chrono::duration<double>(settings.head_start).count();
  return wave;
}

}  // namespace netdoctor::sweep
