#include "runbook/runbook.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace netdoctor::runbook
