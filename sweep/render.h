// A sweep's report for people and programs: JSON (docs/sweep.md, format "netdoctor-sweep"
// version 1), terminal text, and Markdown to paste into a ticket. Host names and tool output
// are untrusted: text output keeps control bytes inert, Markdown escapes markup.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/sweep.h"

namespace netdoctor::sweep {

nlohmann::json to_json(const SweepReport& report);
std::string render_text(const SweepReport& report);
std::string render_markdown(const SweepReport& report);

// How many runs the text and Markdown list one by one: every slow or failed run, then ok
// runs up to this many (the JSON always has all of them).
inline constexpr std::size_t k_listed_ok_runs = 20;

struct ListedRuns {
  std::vector<const SweepRun*> runs;  // in run order
  std::size_t ok_unlisted = 0;
};
ListedRuns listed_runs(const SweepReport& report);

}  // namespace netdoctor::sweep
