// Polls switches over HTTP(S), all at once through one HttpClient batch: SONiC command text or
// Arista eAPI JSON (remote/switch_list.h), written as switch samples in the bundle layout
// (switches/<name>/<sample>/captured_at and sos_commands/sonic/<show command>), so the
// existing SONiC parsers and switch loader read them. Every failure is reported per switch and
// source; a dead or slow switch costs only its own timeout. Everything written and every
// message passes through the Redactor.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "remote/bundle_files.h"
#include "remote/http_client.h"
#include "remote/redact.h"
#include "remote/switch_list.h"

namespace netdoctor::remote {

struct SwitchPollOptions {
  std::optional<BasicAuth> auth;
  std::chrono::milliseconds timeout{5'000};  // per request
};

struct SwitchOutcome {
  std::string name;
  std::size_t files = 0;            // command outputs written
  std::vector<std::string> errors;  // "show pfc counters: HTTP 500", redacted
  // Optional commands the switch did not answer (pfcwd off or older SONiC): said, not a failure.
  std::vector<std::string> notes;
  double seconds = 0.0;  // the slowest answer
  bool ok() const { return errors.empty(); }
};

struct SwitchRound {
  BundleFiles files;
  std::vector<SwitchOutcome> outcomes;  // in list order
};

// The SONiC commands fetched from a "sonic" switch, as `show` is typed.
const std::vector<std::string>& sonic_commands();

// One sample of every switch. `sample` names the sample directory; `started_at` is the Unix
// time the round began (a switch's captured_at is that plus the time its last answer took).
SwitchRound poll_switches(HttpClient& client, const std::vector<SwitchTarget>& switches,
                          const SwitchPollOptions& options, const std::string& sample,
                          double started_at, const Redactor& redactor);

}  // namespace netdoctor::remote
