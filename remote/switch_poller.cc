#include "remote/switch_poller.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/sample_source.h"
#include "base/strings.h"
#include "remote/eapi_mapping.h"

namespace netdoctor::remote {
namespace {

constexpr std::size_t k_excerpt_chars = 100;

struct Pending {
  std::size_t switch_index = 0;
  std::string command;  // what the request fetches, for messages
};

std::string base_url(const std::string& url) {
  std::string out = url;
  while (!out.empty() && out.back() == '/') {
    out.pop_back();
  }
  return out;
}

// "HTTP 500: Internal Server Error" with the first line of the body, redacted.
std::string http_failure(const HttpResponse& response, const Redactor& redactor) {
  auto lines = split_lines(response.body);
  std::string first = lines.empty() ? std::string() : std::string(trim(lines.front()));
  if (first.size() > k_excerpt_chars) {
    first = first.substr(0, k_excerpt_chars) + "...";
  }
  return redactor.apply(first.empty() ? fmt::format("HTTP {}", response.status)
                                      : fmt::format("HTTP {}: {}", response.status, first));
}

}  // namespace

const std::vector<std::string>& sonic_commands() {
  static const std::vector<std::string> k_commands = {
      "show interfaces counters", "show interfaces status", "show pfc counters",
      "show queue counters",      "show lldp table",        "show pfcwd stats",
      "show pfcwd config"};
  return k_commands;
}

// Commands a switch may lack without the capture being incomplete: the PFC watchdog is off on
// many fabrics, and older SONiC releases have no such command.
bool optional_command(const std::string& command) {
  return command.rfind("show pfcwd", 0) == 0;
}

SwitchRound poll_switches(HttpClient& client, const std::vector<SwitchTarget>& switches,
                          const SwitchPollOptions& options, const std::string& sample,
                          double started_at, const Redactor& redactor) {
  std::vector<HttpRequest> requests;
  std::vector<Pending> pending;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    const SwitchTarget& target = switches[i];
    HttpRequest request;
    request.auth = options.auth;
    request.timeout = options.timeout;
    if (target.api == SwitchApi::Sonic) {
      for (const auto& command : sonic_commands()) {
        request.url = base_url(target.url) + "/" + mangle_command_line(command);
        requests.push_back(request);
        pending.push_back({i, command});
      }
    } else {
      request.url = target.url;
      request.method = "POST";
      request.body = eapi_request_body();
      request.headers = {"Content-Type: application/json"};
      requests.push_back(request);
      pending.push_back({i, "eAPI runCmds"});
    }
  }
  const auto outcomes = client.perform(requests);

  SwitchRound round;
  round.outcomes.resize(switches.size());
  for (std::size_t i = 0; i < switches.size(); ++i) {
    round.outcomes[i].name = switches[i].name;
  }
  auto sample_dir = [&](std::size_t index) {
    return fmt::format("switches/{}/{}/", switches[index].name, sample);
  };
  auto write_output = [&](std::size_t index, const std::string& group, const std::string& command,
                          std::string_view text, const std::string& suffix = {}) {
    round.files.files[sample_dir(index) + "sos_commands/" + group + "/" +
                      mangle_command_line(command) + suffix] = redactor.apply(text);
    ++round.outcomes[index].files;
  };
  for (std::size_t r = 0; r < outcomes.size(); ++r) {
    const Pending& p = pending[r];
    SwitchOutcome& outcome = round.outcomes[p.switch_index];
    const auto& result = outcomes[r];
    if (!result.ok()) {
      outcome.errors.push_back(
          redactor.apply(fmt::format("{}: {}", p.command, result.error().message)));
      continue;
    }
    outcome.seconds =
        std::max(outcome.seconds, static_cast<double>(result->elapsed.count()) / 1000.0);
    if (result->status / 100 != 2) {
      const std::string failure = fmt::format("{}: {}", p.command, http_failure(*result, redactor));
      (optional_command(p.command) ? outcome.notes : outcome.errors).push_back(failure);
      continue;
    }
    if (switches[p.switch_index].api == SwitchApi::Sonic) {
      write_output(p.switch_index, "sonic", p.command, result->body);
      continue;
    }
    auto answer = map_eapi_answer(result->body);
    if (!answer.ok()) {
      outcome.errors.push_back(
          redactor.apply(fmt::format("{}: {}", p.command, answer.error().message)));
      continue;
    }
    for (const auto& [command, text] : answer->sonic_outputs) {
      write_output(p.switch_index, "sonic", command, text);
    }
    // The answer as received, for the record (the SONiC renderings above are derived).
    write_output(p.switch_index, "eapi", "runCmds", result->body, ".json");
  }
  for (std::size_t i = 0; i < switches.size(); ++i) {
    SwitchOutcome& outcome = round.outcomes[i];
    if (outcome.files > 0) {
      round.files.files[sample_dir(i) + "captured_at"] =
          fmt::format("{:.3f}\n", started_at + outcome.seconds);
    }
    for (const auto& error : outcome.errors) {
      round.files.problems.push_back(
          make_error(ErrorCode::Io, error,
                     fmt::format("switch {} ({})", outcome.name, redact_url(switches[i].url))));
    }
  }
  return round;
}

}  // namespace netdoctor::remote
