#include "runbook/manual.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"

namespace netdoctor::runbook {

namespace {

Error entry_error(const std::string& file, int line, std::string message) {
  return make_error(ErrorCode::Parse, std::move(message), fmt::format("{}:{}", file, line));
}

// Every <placeholder> of a command must be one the runbook knows how to name.
Status check_placeholders(const std::string& run, const std::string& file, int line) {
  std::size_t pos = 0;
  while ((pos = run.find('<', pos)) != std::string::npos) {
    const auto close = run.find('>', pos);
    if (close == std::string::npos) {
      return entry_error(file, line, fmt::format("unclosed placeholder in '{}'", run));
    }
    const std::string name = run.substr(pos, close - pos + 1);
    const auto& known = known_placeholders();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return entry_error(
          file, line, fmt::format("unknown placeholder '{}' (known: {})", name, join(known, " ")));
    }
    pos = close + 1;
  }
  return {};
}

Result<ManualCommand> command_of(const kb::EntryCommand& entry, const std::string& file) {
  ManualCommand out;
  out.line = entry.line;
  out.side = entry.side == "switch" ? Side::Switch : Side::Host;
  out.run = entry.run;
  out.shows = entry.shows;
  ND_TRY(check_placeholders(out.run, file, out.line));
  // The forms are checked with the placeholders filled as any site would fill them.
  auto forms = check_command_line(kb::fill_placeholders(
      out.run, 3, [](std::string_view) { return std::optional<std::string>("1"); }));
  if (!forms.ok()) {
    return entry_error(file, out.line, forms.error().message);
  }
  // The first command of the line runs where the entry says (filters run anywhere).
  const KnownCommand* first = forms->front();
  if (first->side != Side::Any && first->side != out.side) {
    return entry_error(file, out.line,
                       fmt::format("'{}' runs on the {} side, not the {} side", first->tool,
                                   to_string(first->side), to_string(out.side)));
  }
  return out;
}

std::string format_value(const kb::Threshold& threshold, double value) {
  if (threshold.kind() == kb::ThresholdKind::Fraction) {
    return fmt::format("{:g} %", value * 100.0);
  }
  return fmt::format("{:g}", value);
}

}  // namespace

const SignalReading* ProbeManual::reading(std::string_view signal) const {
  for (const auto& entry : readings) {
    if (entry.id == signal) {
      return &entry;
    }
  }
  return nullptr;
}

const std::vector<std::string>& known_placeholders() {
  static const std::vector<std::string> k_names = {"<netdev>",  "<rdma-dev>", "<pci>",  "<port>",
                                                   "<peer-ip>", "<ip>",       "<host>", "<file>",
                                                   "<profile>", "<seconds>",  "<lid>"};
  return k_names;
}

TextFiller::TextFiller(int roce_priority, const kb::ProbeEntrySet* entries,
                       probes::ThresholdBook values)
    : m_roce_priority(roce_priority), m_entries(entries), m_values(std::move(values)) {}

std::string TextFiller::operator()(std::string_view text, std::string_view probe) const {
  return kb::fill_placeholders(
      text, m_roce_priority, [this, probe](std::string_view name) -> std::optional<std::string> {
        if (m_entries == nullptr) {
          return std::nullopt;
        }
        const kb::Threshold* threshold = nullptr;
        if (const kb::ProbeEntry* entry = m_entries->find(probe)) {
          threshold = entry->threshold(name);
        }
        if (threshold == nullptr) {
          for (const auto& shared : m_entries->fleet_thresholds()) {
            if (shared.name == name) {
              threshold = &shared;
            }
          }
        }
        if (threshold == nullptr) {
          return std::nullopt;
        }
        double value = threshold->value;
        if (auto book = m_values.find(threshold->probe); book != m_values.end()) {
          if (auto tuned = book->second.find(name); tuned != book->second.end()) {
            value = tuned->second;
          }
        }
        return format_value(*threshold, value);
      });
}

Result<ProbeManual> manual_of(const kb::ProbeEntry& entry) {
  ProbeManual manual;
  manual.probe = entry.probe;
  manual.title = entry.title;
  manual.window = entry.window;
  manual.healthy = entry.healthy;
  manual.file = entry.file;
  for (const auto& command : entry.commands) {
    ND_TRY_ASSIGN(ManualCommand checked, command_of(command, entry.file));
    manual.commands.push_back(std::move(checked));
  }
  manual.readings = entry.signals;
  return manual;
}

ProbeManual filled(const ProbeManual& manual, const TextFiller& fill) {
  ProbeManual out = manual;
  out.title = fill(out.title, manual.probe);
  out.window = fill(out.window, manual.probe);
  out.healthy = fill(out.healthy, manual.probe);
  for (auto& command : out.commands) {
    command.run = fill(command.run, manual.probe);
    command.shows = fill(command.shows, manual.probe);
  }
  for (auto& reading : out.readings) {
    reading.look_for = fill(reading.look_for, manual.probe);
  }
  return out;
}

Result<ManualSet> ManualSet::from_entries(const kb::ProbeEntrySet& entries) {
  ManualSet set;
  for (const auto& entry : entries.entries()) {
    ND_TRY_ASSIGN(ProbeManual manual, manual_of(entry));
    set.m_manuals.push_back(std::move(manual));
  }
  return set;
}

const ProbeManual* ManualSet::find(std::string_view probe) const {
  for (const auto& manual : m_manuals) {
    if (manual.probe == probe) {
      return &manual;
    }
  }
  return nullptr;
}

}  // namespace netdoctor::runbook
