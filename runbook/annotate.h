// The runbook annotated with what a diagnosis of a bundle found at each step: the figures
// (culprit's value beside the fleet's normal), which steps settled the question and which
// remain open - the engine's reasoning as a checklist a person can follow and challenge.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/diagnosis.h"
#include "runbook/runbook.h"

namespace netdoctor::runbook {

enum class StepState {
  Decided,    // holds the deciding figure of the top cause
  Supports,   // found evidence for a reported cause
  Found,      // found evidence, for causes not reported (explained away or too weak)
  Cleared,    // ran and found only evidence against causes
  Quiet,      // ran, nothing weighed
  NotNeeded,  // skipped by the engine: the question was already settled
  NoData,     // skipped or failed: the bundle lacks its data
  NotRun,     // not reached
};
const char* to_string(StepState state);
bool is_open(StepState state);  // a person may still want to do this step by hand

struct StepEvidence {
  std::string cause;  // the reported cause it supports
  std::string signal;
  std::string summary;
  double weight = 0.0;
  std::optional<double> value;
  std::optional<double> fleet_normal;
  std::string unit;
  bool deciding = false;
};

struct StepMove {  // a score movement of a cause not covered by the evidence above
  std::string cause;
  std::string signal;
  double delta = 0.0;
  std::string why;
};

struct StepAnnotation {
  StepState state = StepState::NotRun;
  std::string status;  // ran, skipped, failed, not run
  std::string reason;
  std::optional<std::size_t> run_order;  // 1-based position in the engine's run
  std::vector<StepEvidence> evidence;
  std::vector<StepMove> moves;
  std::vector<std::string> checked;           // what it looked at and found normal
  std::vector<std::string> culprit_commands;  // the step's commands filled for the culprit
};

struct AnnotatedRunbook {
  Runbook runbook;
  engine::Diagnosis diagnosis;
  std::vector<StepAnnotation> steps;         // parallel to runbook.steps
  std::optional<std::size_t> deciding_step;  // index into steps
  std::vector<std::string> culprit;          // the top cause's entities
};

// `diagnosis` must come from the engine with `explain` on (every score movement).
AnnotatedRunbook annotate(Runbook runbook, engine::Diagnosis diagnosis);

// The command as typed on the culprit's machine ("gpu-a001$ ethtool -S ens1f0np0 ..."), with
// <netdev>, <rdma-dev>, <port>, <host> filled from entity names (bundle.md); nullopt when the
// entities name no machine on the command's side.
std::optional<std::string> culprit_command(const ManualCommand& command,
                                           const std::vector<std::string>& entities);

// The evidence item that decides the top cause (highest weight, preferring one with figures).
std::optional<engine::EvidenceItem> deciding_evidence(const engine::Diagnosis& diagnosis);

}  // namespace netdoctor::runbook
