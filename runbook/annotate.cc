#include "runbook/annotate.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/strings.h"
#include "model/entity_names.h"

namespace netdoctor::runbook {

namespace {

struct Names {
  std::string host;
  std::string switch_name;
  std::map<std::string, std::string> values;  // placeholder -> value
};

void take(Names& names, const std::string& placeholder, const std::string& value) {
  if (!value.empty() && names.values.count(placeholder) == 0) {
    names.values[placeholder] = value;
  }
}

// "nic:gpu-a001/mlx5_0" and friends (bundle.md), most specific first: the first wins.
void read_entity(Names& names, const std::string& entity) {
  using model::EntityKind;
  const model::EntityParts parts = model::parse_entity(entity);
  const auto set_switch = [&names](const std::string& name) {
    if (names.switch_name.empty()) {
      names.switch_name = name;
    }
  };
  switch (parts.kind) {
    case EntityKind::Link:
      // A link end is a netdev ("host/if") or a port ("switch/port") name without its kind.
      for (const std::string& end : {parts.owner, parts.part}) {
        const auto slash = end.find('/');
        const std::string machine = end.substr(0, slash);
        const std::string port = slash == std::string::npos ? std::string() : end.substr(slash + 1);
        read_entity(names, end.find("Ethernet") != std::string::npos
                               ? model::port_entity(machine, port)
                               : model::netdev_entity(machine, port));
      }
      break;
    case EntityKind::Host:
      take(names, "<host>", parts.owner);
      break;
    case EntityKind::Switch:
      set_switch(parts.owner);
      break;
    case EntityKind::Nic:
      take(names, "<host>", parts.owner);
      take(names, "<rdma-dev>", parts.part);
      break;
    case EntityKind::Netdev:
      take(names, "<host>", parts.owner);
      take(names, "<netdev>", parts.part);
      break;
    case EntityKind::Port:
      set_switch(parts.owner);
      take(names, "<port>", parts.part);
      break;
    case EntityKind::Unknown:
      break;
  }
}

bool not_needed(const std::string& reason) {
  return starts_with(reason, "not needed");
}

}  // namespace

const char* to_string(StepState state) {
  switch (state) {
    case StepState::Decided:
      return "DECIDED";
    case StepState::Supports:
      return "SUPPORTS";
    case StepState::Found:
      return "FOUND";
    case StepState::Cleared:
      return "CLEARED";
    case StepState::Quiet:
      return "QUIET";
    case StepState::NotNeeded:
      return "OPEN (not needed)";
    case StepState::NoData:
      return "OPEN (no data)";
    case StepState::NotRun:
      return "OPEN (not run)";
  }
  return "OPEN";
}

bool is_open(StepState state) {
  return state == StepState::NotNeeded || state == StepState::NoData || state == StepState::NotRun;
}

std::optional<std::string> culprit_command(const ManualCommand& command,
                                           const std::vector<std::string>& entities) {
  Names names;
  for (const auto& entity : entities) {
    read_entity(names, entity);
  }
  std::string machine;
  if (command.side == Side::Switch) {
    machine = names.switch_name;
  } else if (names.values.count("<host>") != 0) {
    machine = names.values.at("<host>");
  }
  if (machine.empty()) {
    return std::nullopt;
  }
  std::string text = command.run;
  for (const auto& [placeholder, value] : names.values) {
    std::size_t pos = 0;
    while ((pos = text.find(placeholder, pos)) != std::string::npos) {
      text.replace(pos, placeholder.size(), value);
      pos += value.size();
    }
  }
  return fmt::format("{}{} {}", machine, command.side == Side::Switch ? "#" : "$", text);
}

std::optional<engine::EvidenceItem> deciding_evidence(const engine::Diagnosis& diagnosis) {
  if (diagnosis.causes.empty()) {
    return std::nullopt;
  }
  const engine::EvidenceItem* best = nullptr;
  for (const auto& item : diagnosis.causes.front().evidence) {
    if (item.weight <= 0.0) {
      continue;
    }
    const bool figures = item.value.has_value() && item.fleet_normal.has_value();
    const bool best_figures =
        best != nullptr && best->value.has_value() && best->fleet_normal.has_value();
    if (best == nullptr || item.weight > best->weight ||
        (item.weight == best->weight && figures && !best_figures)) {
      best = &item;
    }
  }
  if (best == nullptr) {
    return std::nullopt;
  }
  return *best;
}

AnnotatedRunbook annotate(Runbook runbook, engine::Diagnosis diagnosis) {
  AnnotatedRunbook out;
  out.runbook = std::move(runbook);
  out.diagnosis = std::move(diagnosis);
  const engine::Diagnosis& dx = out.diagnosis;
  if (!dx.causes.empty()) {
    out.culprit = dx.causes.front().entities;
  }
  const auto deciding = deciding_evidence(dx);

  // Evidence already shown for a reported cause is not repeated as a score movement.
  auto reported = [&dx](const std::string& cause, const std::string& probe,
                        const std::string& signal) {
    for (const auto& ranked : dx.causes) {
      if (ranked.id != cause) {
        continue;
      }
      for (const auto& item : ranked.evidence) {
        if (item.probe == probe && item.signal == signal) {
          return true;
        }
      }
    }
    return false;
  };

  for (std::size_t i = 0; i < out.runbook.steps.size(); ++i) {
    const RunbookStep& step = out.runbook.steps[i];
    StepAnnotation note;
    note.status = "not run";
    for (std::size_t k = 0; k < dx.probes.size(); ++k) {
      if (dx.probes[k].id == step.probe) {
        note.status = dx.probes[k].status;
        note.reason = dx.probes[k].reason;
        if (note.status == "ran") {
          note.run_order = k + 1;
        }
      }
    }
    for (const auto& ranked : dx.causes) {
      for (const auto& item : ranked.evidence) {
        if (item.probe != step.probe) {
          continue;
        }
        StepEvidence evidence{ranked.id,  item.signal,       item.summary, item.weight,
                              item.value, item.fleet_normal, item.unit,    false};
        evidence.deciding = deciding && &ranked == &dx.causes.front() &&
                            item.signal == deciding->signal && item.probe == deciding->probe &&
                            item.summary == deciding->summary;
        note.evidence.push_back(std::move(evidence));
      }
    }
    for (const auto& move : dx.explain) {
      if (move.probe == step.probe && !reported(move.cause, move.probe, move.signal)) {
        note.moves.push_back({move.cause, move.signal, move.delta, move.why});
      }
    }
    const std::string prefix = step.probe + ": ";
    for (const auto& line : dx.ruled_out) {
      if (starts_with(line, prefix)) {
        note.checked.push_back(line.substr(prefix.size()));
      }
    }

    const bool any_deciding = std::any_of(note.evidence.begin(), note.evidence.end(),
                                          [](const StepEvidence& e) { return e.deciding; });
    const bool any_support = std::any_of(note.evidence.begin(), note.evidence.end(),
                                         [](const StepEvidence& e) { return e.weight > 0.0; });
    const bool found = std::any_of(note.moves.begin(), note.moves.end(),
                                   [](const StepMove& m) { return m.delta > 0.0; });
    const bool cleared = std::any_of(note.moves.begin(), note.moves.end(),
                                     [](const StepMove& m) { return m.delta < 0.0; });
    if (note.status == "ran") {
      note.state = any_deciding  ? StepState::Decided
                   : any_support ? StepState::Supports
                   : found       ? StepState::Found
                   : cleared     ? StepState::Cleared
                                 : StepState::Quiet;
    } else if (note.status == "skipped" && not_needed(note.reason)) {
      note.state = StepState::NotNeeded;
    } else if (note.status == "not run") {
      note.state = StepState::NotRun;
    } else {
      note.state = StepState::NoData;
    }
    if (any_deciding) {
      out.deciding_step = i;
    }
    if (note.state == StepState::Decided || note.state == StepState::Supports) {
      for (const auto& command : step.manual.commands) {
        if (auto typed = culprit_command(command, out.culprit)) {
          note.culprit_commands.push_back(*typed);
        }
      }
    }
    out.steps.push_back(std::move(note));
  }
  return out;
}

}  // namespace netdoctor::runbook
