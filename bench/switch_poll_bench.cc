// switch_poll_bench: the switch polling target (256 switches whose API answers 50 ms late are
// polled in under 1 s of wall time), measured against the remote suite's in-process HTTPS
// server (tests/remote/https_test_server.h) serving the recorded eAPI answer. Each round polls
// every switch once through poll_switches with a fresh client, so every round pays all 256 TLS
// handshakes. Prints wall and CPU seconds per round (the process's CPU is client and server
// together; the poll thread's CPU is the client alone), the best and median wall, and a
// PASS/FAIL line judged on the best round; exits 1 on FAIL, 2 when the server cannot be set up.
// Built only with NETDOCTOR_BUILD_TESTS and NETDOCTOR_BUILD_BENCH on (it reuses test code);
// not registered with ctest. Needs the openssl CLI (the certificate).
//
//   cmake --build build/<dir> --target switch_poll_bench
//   build/<dir>/bench/switch_poll_bench [ROUNDS (5)]
//   env: SWITCHES (256), DELAY_MS (50), TARGET_S (1.0)
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "remote/http_client.h"
#include "remote/redact.h"
#include "remote/switch_poller.h"
#include "tests/remote/https_test_server.h"
#include "tests/remote/remote_test_support.h"
#include "tests/support/test_paths.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace remote = netdoctor::remote;
namespace t = netdoctor::testing;

constexpr const char* k_user = "netops";
constexpr const char* k_password = "bench-password";

double cpu_seconds(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

long env_number(const char* name, long fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtol(text, nullptr, 10) : fallback;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

struct RoundFigures {
  double wall = 0.0;
  double cpu = 0.0;         // whole process: client and server
  double client_cpu = 0.0;  // the thread poll_switches runs on
  std::size_t failed = 0;
};

RoundFigures poll_round(const std::vector<remote::SwitchTarget>& switches,
                        const std::string& ca_file, const remote::Redactor& redactor) {
  remote::HttpClientOptions client_options;
  client_options.ca_file = ca_file;
  remote::SwitchPollOptions poll_options;
  poll_options.auth = remote::BasicAuth{k_user, k_password};
  poll_options.timeout = std::chrono::seconds(5);

  RoundFigures figures;
  const double cpu_before = cpu_seconds(RUSAGE_SELF);
  const double thread_before = cpu_seconds(RUSAGE_THREAD);
  const auto start = Clock::now();
  {
    // A fresh client per round: the round pays every TLS handshake, as a first sample does.
    // Its destruction (closing the connections) is part of the round.
    auto client = remote::make_curl_http_client(client_options);
    const auto round =
        remote::poll_switches(*client, switches, poll_options, "000", 1'796'215'000.0, redactor);
    for (const auto& outcome : round.outcomes) {
      if (!outcome.ok()) {
        if (figures.failed == 0) {
          fmt::print(stderr, "{}: {}\n", outcome.name, outcome.errors.front());
        }
        ++figures.failed;
      }
    }
  }
  figures.wall = std::chrono::duration<double>(Clock::now() - start).count();
  figures.cpu = cpu_seconds(RUSAGE_SELF) - cpu_before;
  figures.client_cpu = cpu_seconds(RUSAGE_THREAD) - thread_before;
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 5;
  const long count = env_number("SWITCHES", 256);
  const long delay_ms = env_number("DELAY_MS", 50);
  const char* target_text = std::getenv("TARGET_S");
  const double target = target_text != nullptr ? std::strtod(target_text, nullptr) : 1.0;
  if (rounds < 1 || count < 1 || delay_ms < 0 || !(target > 0.0)) {
    fmt::print(stderr,
               "usage: switch_poll_bench [ROUNDS >= 1]  (env SWITCHES, DELAY_MS, TARGET_S)\n");
    return 2;
  }

  const std::string dir = t::make_temp_dir("switch-poll-bench");
  std::filesystem::create_directories(dir + "/root");
  std::error_code copy_error;
  std::filesystem::copy_file(t::source_dir() + "/tests/remote/data/eapi_runcmds_answer.json",
                             dir + "/root/eapi.json", copy_error);
  int exit_code = 2;
  if (copy_error) {
    fmt::print(stderr, "cannot copy the recorded eAPI answer: {}\n", copy_error.message());
  } else if (t::make_certificate(dir)) {
    auto server = t::HttpsTestServer::start(
        {dir + "/cert.pem", dir + "/key.pem", dir + "/root", std::chrono::milliseconds(delay_ms),
         remote::base64_encode(std::string(k_user) + ":" + k_password)});
    if (server != nullptr) {
      std::vector<remote::SwitchTarget> switches;
      for (long i = 0; i < count; ++i) {
        const std::string name = fmt::format("sw{}", i);
        switches.push_back({name, fmt::format("https://127.0.0.1:{}/eapi/{}", server->port(), name),
                            remote::SwitchApi::Eapi});
      }
      remote::Redactor redactor;
      redactor.add_credentials(remote::BasicAuth{k_user, k_password});

      fmt::print("{} eAPI switches, answers {} ms late, {} rounds, fresh client each\n", count,
                 delay_ms, rounds);
      std::vector<double> walls;
      std::size_t failed = 0;
      for (long round = 0; round < rounds; ++round) {
        const auto figures = poll_round(switches, dir + "/cert.pem", redactor);
        walls.push_back(figures.wall);
        failed += figures.failed;
        fmt::print("round {}: {:6.3f} s wall  {:6.3f} s CPU (client {:6.3f} s)  {} failed\n",
                   round + 1, figures.wall, figures.cpu, figures.client_cpu, figures.failed);
      }
      const double best = *std::min_element(walls.begin(), walls.end());
      fmt::print("best {:.3f} s  median {:.3f} s wall\n", best, median(walls));
      const bool pass = failed == 0 && best < target;
      fmt::print("{} {} switches at {} ms in {:.3f} s (target < {:.3f} s){}\n",
                 pass ? "PASS" : "FAIL", count, delay_ms, best, target,
                 failed == 0 ? "" : fmt::format(", {} polls failed", failed));
      exit_code = pass ? 0 : 1;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return exit_code;
}
