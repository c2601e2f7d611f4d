#include "runbook/runbook.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "base/strings.h"
#include "runbook/library.h"
#include "runbook/render.h"

namespace netdoctor::runbook {
namespace {

const Library& library() {
  static const auto k_library = [] {
    auto loaded = load_library();
    if (!loaded.ok()) {
      ADD_FAILURE() << loaded.error().describe();
      return std::unique_ptr<Library>();
    }
    return std::move(*loaded);
  }();
  return *k_library;
}

// Every command line inside the Markdown's ```sh blocks.
std::vector<std::string> shown_commands(const std::string& markdown) {
  std::vector<std::string> out;
  bool inside = false;
  for (auto line : split_lines(markdown)) {
    if (line == "```sh") {
      inside = true;
    } else if (line == "```") {
      inside = false;
    } else if (inside && !trim(line).empty()) {
      out.emplace_back(line);
    }
  }
  return out;
}

TEST(Runbook, StepsFollowThePlaybookInOrderThenTheSanitySweep) {
  for (const auto& playbook : library().knowledge.playbooks.playbooks()) {
    auto book = build_runbook(library(), playbook.symptom);
    ASSERT_TRUE(book.ok()) << book.error().describe();
    ASSERT_GE(book->steps.size(), playbook.steps.size()) << playbook.symptom;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < book->steps.size(); ++i) {
      const RunbookStep& step = book->steps[i];
      EXPECT_EQ(step.number, i + 1);
      if (i < playbook.steps.size()) {
        EXPECT_EQ(step.probe, playbook.steps[i].probe) << playbook.symptom << " step " << i + 1;
        EXPECT_EQ(step.why, playbook.steps[i].why);
        EXPECT_EQ(step.cost, probes::to_string(library().registry.find(step.probe)->cost()));
        EXPECT_TRUE(step.from_playbook);
      } else {
        EXPECT_FALSE(step.from_playbook) << playbook.symptom << " " << step.probe;
      }
      EXPECT_TRUE(seen.insert(step.probe).second) << "probe listed twice: " << step.probe;
    }
    // Every registered probe appears once: what the engine may run, a person may do.
    EXPECT_EQ(seen.size(), library().registry.all().size());
  }
}

TEST(Runbook, EverySymptomRendersAsTextAndMarkdownWithOnlyKnownCommands) {
  for (const auto& symptom : kb::spec_symptoms()) {
    auto book = build_runbook(library(), symptom);
    ASSERT_TRUE(book.ok()) << symptom << ": " << book.error().describe();
    const std::string text = render_text(*book);
    const std::string markdown = render_markdown(*book);
    EXPECT_NE(text.find("RUNBOOK " + symptom), std::string::npos);
    EXPECT_NE(markdown.find("(" + symptom + ")"), std::string::npos);
    for (const auto& step : book->steps) {
      EXPECT_NE(
          text.find(fmt::format("STEP {} of {} - {}", step.number, book->steps.size(), step.probe)),
          std::string::npos)
          << symptom << " " << step.probe;
      EXPECT_NE(markdown.find(fmt::format("## Step {} of {}: `{}`", step.number, book->steps.size(),
                                          step.probe)),
                std::string::npos);
    }
    const auto commands = shown_commands(markdown);
    EXPECT_GT(commands.size(), book->steps.size()) << symptom;
    for (const auto& command : commands) {
      auto forms = check_command_line(command);
      EXPECT_TRUE(forms.ok()) << symptom << ": " << command;
    }
  }
}

TEST(Runbook, MarkdownBlocksAreBalancedAndTableRowsHaveTheirColumns) {
  auto book = build_runbook(library(), "slowdown");
  ASSERT_TRUE(book.ok());
  const std::string markdown = render_markdown(*book);
  std::size_t fences = 0;
  for (auto line : split_lines(markdown)) {
    if (starts_with(line, "```")) {
      ++fences;
    }
    if (starts_with(line, "| `")) {
      // Signal rows: 5 columns = 6 unescaped pipes.
      std::size_t pipes = 0;
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) {
          ++pipes;
        }
      }
      EXPECT_EQ(pipes, 6u) << line;
    }
  }
  EXPECT_EQ(fences % 2, 0u);
}

TEST(Runbook, RocePriorityFillsTheCommands) {
  auto book = build_runbook(library(), "slowdown", 5);
  ASSERT_TRUE(book.ok());
  const std::string text = render_text(*book);
  EXPECT_NE(text.find("prio5_pause"), std::string::npos);
  EXPECT_EQ(text.find("{prio}"), std::string::npos);
}

TEST(Runbook, DecisiveSignalSaysSoAndNamesStepsThatCouldOverturnIt) {
  auto book = build_runbook(library(), "slowdown");
  ASSERT_TRUE(book.ok());
  const RunbookStep& first = book->steps.front();
  ASSERT_EQ(first.probe, "pfc-pause");
  bool decisive = false;
  for (const auto& meaning : first.signals) {
    for (const auto& weight : meaning.supports) {
      if (weight.settles) {
        decisive = true;
        EXPECT_NE(meaning.next.find("settled"), std::string::npos) << meaning.next;
        EXPECT_NE(meaning.next.find("netdoctor explain " + weight.cause), std::string::npos);
        for (auto number : weight.challenged_by) {
          EXPECT_GT(number, first.number);
        }
      }
    }
  }
  EXPECT_TRUE(decisive) << "a storm origin decides the slowdown case";
}

TEST(Runbook, ClearingSignalContinuesWithTheNextStep) {
  auto book = build_runbook(library(), "timeouts");
  ASSERT_TRUE(book.ok());
  const RunbookStep& first = book->steps.front();
  const RunbookStep& second = book->steps[1];
  for (const auto& meaning : first.signals) {
    if (meaning.supports.empty()) {
      EXPECT_NE(meaning.next.find("step 2 (" + second.probe + ")"), std::string::npos)
          << meaning.next;
    }
  }
}

TEST(Runbook, UnknownSymptomIsAnError) {
  auto book = build_runbook(library(), "slowness");
  ASSERT_FALSE(book.ok());
  EXPECT_NE(book.error().message.find("valid symptoms"), std::string::npos);
}

// The commands of one step, by their command line.
std::vector<std::string> commands_of(const Runbook& book, const std::string& probe) {
  std::vector<std::string> out;
  for (const auto& step : book.steps) {
    if (step.probe == probe) {
      for (const auto& command : step.manual.commands) {
        out.push_back(command.run);
      }
    }
  }
  return out;
}

bool any_starts(const std::vector<std::string>& commands, const std::string& prefix) {
  return std::any_of(commands.begin(), commands.end(),
                     [&prefix](const std::string& c) { return starts_with(c, prefix); });
}

TEST(Runbook, ARunbookForOneKindOfFabricShowsTheCommandsThatFitIt) {
  auto ib = build_runbook(library(), "timeouts", 3, {}, "ib");
  auto roce = build_runbook(library(), "timeouts", 3, {}, "roce");
  auto either = build_runbook(library(), "timeouts");
  ASSERT_TRUE(ib.ok() && roce.ok() && either.ok());
  const auto ib_link = commands_of(*ib, "link-errors");
  const auto roce_link = commands_of(*roce, "link-errors");
  EXPECT_TRUE(any_starts(ib_link, "perfquery"));
  EXPECT_FALSE(any_starts(ib_link, "ethtool -S"));
  EXPECT_FALSE(any_starts(ib_link, "show interfaces"));
  EXPECT_TRUE(any_starts(roce_link, "ethtool -S"));
  EXPECT_FALSE(any_starts(roce_link, "perfquery"));
  const auto all = commands_of(*either, "link-errors");
  EXPECT_TRUE(any_starts(all, "perfquery") && any_starts(all, "ethtool -S"));
  EXPECT_EQ(all.size(), ib_link.size() + roce_link.size() - 3);  // mlxlink, dmesg x2 in both
  // A probe of one kind of fabric keeps its commands in a runbook for the other.
  EXPECT_TRUE(any_starts(commands_of(*roce, "ib-link-errors"), "perfquery"));
  // What shows a signal is the command of this fabric: ethtool -S's counterpart, perfquery.
  for (const auto& step : ib->steps) {
    for (const auto& meaning : step.signals) {
      if (step.probe == "link-errors" && meaning.signal == "link-errors") {
        ASSERT_LT(meaning.shown_by, step.manual.commands.size());
        EXPECT_TRUE(starts_with(step.manual.commands[meaning.shown_by].run, "perfquery"));
      }
    }
  }
  // Unfiltered, each command says which fabric it is for.
  EXPECT_NE(render_text(*either).find("perfquery -x <lid> <port> (InfiniBand)"), std::string::npos);
  EXPECT_EQ(render_text(*ib).find("(InfiniBand)"), std::string::npos);
  EXPECT_FALSE(build_runbook(library(), "timeouts", 3, {}, "fc").ok());
}

}  // namespace
}  // namespace netdoctor::runbook
