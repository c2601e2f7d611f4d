#include "runbook/explain.h"

#include <gtest/gtest.h>

#include <string>

#include "runbook/library.h"

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

TEST(Explain, EveryCauseRendersAsTextAndMarkdown) {
  for (const auto& cause : library().knowledge.catalog.causes()) {
    auto explanation = explain_cause(library(), cause.id);
    ASSERT_TRUE(explanation.ok()) << cause.id;
    const std::string text = render_explanation_text(*explanation);
    const std::string markdown = render_explanation_markdown(*explanation);
    EXPECT_EQ(text.rfind(cause.id + ": " + cause.title, 0), 0u) << text;
    EXPECT_NE(markdown.find("# `" + cause.id + "`"), std::string::npos);
    for (const auto& section : {"MECHANISM", "SIGNS FOR IT", "SIGNS AGAINST IT", "REMEDIATION",
                                "FIRST CHANGE TO TRY", "WHERE IT IS DISCUSSED"}) {
      EXPECT_NE(text.find(section), std::string::npos) << cause.id << " " << section;
    }
    for (const auto& rule : cause.supports) {
      EXPECT_NE(text.find(rule.probe + " / " + rule.signal), std::string::npos);
    }
    EXPECT_EQ(explanation->remediation.size(), cause.remediation.size());
    EXPECT_NE(text.find(cause.source), std::string::npos);
    // Templates are shown with placeholders for a person, never raw braces.
    EXPECT_EQ(text.find("{netdev}"), std::string::npos);
    EXPECT_EQ(text.find("{roce_priority}"), std::string::npos);
  }
}

TEST(Explain, SignsCarryTheProbesByHandReading) {
  auto explanation = explain_cause(library(), "pfc-storm");
  ASSERT_TRUE(explanation.ok());
  ASSERT_FALSE(explanation->supports.empty());
  const Sign& first = explanation->supports.front();
  EXPECT_EQ(first.probe, "pfc-pause");
  EXPECT_FALSE(first.look_for.empty());
  EXPECT_NE(first.command.find("prio3_pause"), std::string::npos);
  EXPECT_FALSE(explanation->symptoms.empty());
}

TEST(Explain, SignsShowTheCommandOfTheFabricAskedFor) {
  const auto command_of = [](const CauseExplanation& explanation) {
    for (const Sign& sign : explanation.supports) {
      if (sign.probe == "link-errors" && sign.signal == "link-errors") {
        return sign.command;
      }
    }
    return std::string();
  };
  auto ib = explain_cause(library(), "link-errors", 3, "ib");
  auto roce = explain_cause(library(), "link-errors", 3, "roce");
  ASSERT_TRUE(ib.ok() && roce.ok());
  EXPECT_EQ(command_of(*ib).rfind("perfquery", 0), 0u) << command_of(*ib);
  EXPECT_EQ(command_of(*roce).rfind("ethtool -S", 0), 0u) << command_of(*roce);
  EXPECT_FALSE(explain_cause(library(), "link-errors", 3, "fc").ok());
}

TEST(Explain, SignPointsAtTheCommandThatShowsIt) {
  auto explanation = explain_cause(library(), "lossy-roce");
  ASSERT_TRUE(explanation.ok());
  for (const auto& sign : explanation->supports) {
    if (sign.signal == "nic-discards") {
      EXPECT_EQ(sign.command.rfind("ethtool -S", 0), 0u) << sign.command;
    }
  }
}

TEST(Explain, UnknownCauseListsValidOnesAndTheNearest) {
  auto explanation = explain_cause(library(), "pfc-strom");
  ASSERT_FALSE(explanation.ok());
  const std::string& message = explanation.error().message;
  EXPECT_NE(message.find("did you mean pfc-storm"), std::string::npos) << message;
  for (const auto& cause : library().knowledge.catalog.causes()) {
    EXPECT_NE(message.find(cause.id), std::string::npos) << cause.id;
  }
}

TEST(Explain, FarOffWordSuggestsNothing) {
  EXPECT_TRUE(suggest_causes(library(), "kangaroo").empty());
  auto near = suggest_causes(library(), "mtu");
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near.front(), "mtu-mismatch");
}

TEST(Explain, ListNamesEveryCause) {
  const std::string text = render_cause_list_text(library());
  const std::string markdown = render_cause_list_markdown(library());
  for (const auto& cause : library().knowledge.catalog.causes()) {
    EXPECT_NE(text.find(cause.id), std::string::npos);
    EXPECT_NE(markdown.find("| `" + cause.id + "` |"), std::string::npos);
  }
}

TEST(Explain, TemplateFieldsBecomePlaceholders) {
  EXPECT_EQ(show_template("drain {host} on prio {roce_priority}", 3), "drain <host> on prio 3");
}

}  // namespace
}  // namespace netdoctor::runbook
