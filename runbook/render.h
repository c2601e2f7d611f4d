// Runbook and cause explanations for people: plain text for a terminal, Markdown that pastes
// cleanly into a wiki or a ticket (headings, tables, fenced command blocks, task lists).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runbook/annotate.h"
#include "runbook/runbook.h"

namespace netdoctor::runbook {

std::string render_text(const Runbook& runbook);
std::string render_text(const AnnotatedRunbook& annotated);
std::string render_markdown(const Runbook& runbook);
std::string render_markdown(const AnnotatedRunbook& annotated);

// Shared helpers.
std::string format_figure(std::optional<double> value, std::string_view unit);
std::string stop_rule_text(const kb::StopRule& stop);
// " (InfiniBand)" / " (RoCE)" for a command marked for one kind of fabric, "" otherwise.
std::string fabric_note(std::string_view fabric);

}  // namespace netdoctor::runbook
