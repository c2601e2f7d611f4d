// Renderers of one Diagnosis: JSON (spec/diagnosis.md, a contract), text for a person under
// pressure (verdict, culprit and cause on the first line), Markdown for a ticket.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/diagnosis.h"

namespace netdoctor::engine {

struct RenderOptions {
  std::string incident = "<N>";  // for the ready `netdoctor change record` line
  bool explain = false;          // append every score movement
};

nlohmann::json to_json(const Diagnosis& diagnosis, const RenderOptions& options = {});
std::string render_json(const Diagnosis& diagnosis, const RenderOptions& options = {});
std::string render_text(const Diagnosis& diagnosis, const RenderOptions& options = {});
std::string render_markdown(const Diagnosis& diagnosis, const RenderOptions& options = {});

// Shared by text and Markdown.
std::string headline(const Diagnosis& diagnosis);
std::string change_record_command(const NextChange& change, const std::string& incident);
std::string describe_evidence(const EvidenceItem& item);
// "in interval 7 of 19 (2026-12-06T08:03:00Z to 2026-12-06T08:03:30Z); not seen in the 6 before"
// or "before the capture: it shows from its first interval (...)".
std::string describe_onset(const Onset& onset);
// Each interval's deciding figure in order, "-" where the cause did not show, with the unit:
// "- - - 1.2k 1.3k 1.3k (pause frames/s)".
std::string describe_timeline(const Onset& onset);

}  // namespace netdoctor::engine
