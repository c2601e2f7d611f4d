// Everything the runbook and explain commands read: the registered probes, the kb and
// playbooks validated against them (the engine's own loading), and the by-hand manuals
// drawn from the probes' kb entries.
#pragma once

#include <memory>

#include "base/result.h"
#include "engine/pipeline.h"
#include "probes/probe.h"
#include "runbook/manual.h"

namespace netdoctor::runbook {

struct Library {
  probes::ProbeRegistry registry;
  engine::KnowledgeBase knowledge;
  ManualSet manuals;
};

// Held by pointer: the registry owns the probes other structures point into.
Result<std::unique_ptr<Library>> load_library();

}  // namespace netdoctor::runbook
