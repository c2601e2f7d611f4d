#include "kb/catalog.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "tests/kb/registered.h"
#include "tests/support/test_paths.h"

namespace netdoctor::kb {
namespace {

using testing::embedded_catalog;
using testing::embedded_entries;
using testing::registered;

// A valid cause file; tests break one line of it at a time.
std::string valid_cause(const std::string& extra = "", const std::string& id = "mtu-mismatch") {
  return "id = \"" + id +
         "\"\n"                                                     // line 1
         "title = \"MTU mismatch\"\n"                               // 2
         "mechanism = \"Frames too big are dropped.\"\n"            // 3
         "category = \"config\"\n"                                  // 4
         "severity = \"degrade\"\n"                                 // 5
         "source = \"DOMAIN.md: MTU\"\n"                            // 6
         "remediation = [\"ip link set dev {netdev} mtu 9000\"]\n"  // 7
         + extra +                                                  // 8...
         "\n[next_change]\nvariable = \"mtu\"\nfrom = \"{value}\"\nto = \"9000\"\n"
         "action = \"set it\"\nverify = \"re-run mtu\"\n";
}

// The root-cause ids of the spec's table (spec/diagnosis.md), from the fixtures' copy.
std::set<std::string> spec_cause_ids() {
  const std::string text =
      netdoctor::testing::read_text(netdoctor::testing::shared_dir() + "/spec/diagnosis.md");
  std::set<std::string> ids;
  const std::regex row(R"(^\| `([a-z0-9-]+)` \|)", std::regex::multiline);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it) {
    ids.insert((*it)[1]);
  }
  return ids;
}

TEST(Catalog, EveryEmbeddedCauseLoadsWithItsWeightsFromTheProbeEntries) {
  Catalog catalog = embedded_catalog();
  ASSERT_GE(catalog.causes().size(), 15u);
  for (const Cause& cause : catalog.causes()) {
    EXPECT_FALSE(cause.supports.empty()) << cause.id;
    EXPECT_FALSE(cause.against.empty()) << cause.id;
    EXPECT_GE(cause.remediation.size(), 2u) << cause.id;
    EXPECT_FALSE(cause.next_change.verify.empty()) << cause.id;
    EXPECT_NE(cause.source.find("DOMAIN.md"), std::string::npos) << cause.id;
    for (const SignalWeight& rule : cause.supports) {
      EXPECT_EQ(rule.file, "kb/probes/" + rule.probe + ".toml") << cause.id;
      EXPECT_GT(rule.line, 0) << cause.id;
    }
  }
  // The weights were written with the signals: pfc-storm gathers them from two probes.
  const Cause* storm = catalog.find("pfc-storm");
  ASSERT_NE(storm, nullptr);
  std::set<std::string> probes;
  for (const SignalWeight& rule : storm->supports) {
    probes.insert(rule.probe);
  }
  EXPECT_EQ(probes, (std::set<std::string>{"pfc-pause", "perftest-baseline"}));
}

TEST(Catalog, CauseIdsAreTheSpecsOwn) {
  const std::set<std::string> spec = spec_cause_ids();
  ASSERT_GE(spec.size(), 15u) << "the spec's cause table was not found";
  const Catalog catalog = embedded_catalog();
  for (const Cause& cause : catalog.causes()) {
    EXPECT_EQ(spec.count(cause.id), 1u) << cause.id << " is not a cause of spec/diagnosis.md";
  }
}

TEST(Catalog, ValidFileParses) {
  auto cause = parse_cause(valid_cause(), "kb/causes/mtu-mismatch.toml");
  ASSERT_TRUE(cause.ok()) << cause.error().describe();
  EXPECT_EQ(cause->id, "mtu-mismatch");
  EXPECT_TRUE(cause->supports.empty());  // gathered by Catalog::load
}

// `residual = true` marks a cause that stands for "nothing else explains it"; causes are not
// residual unless they say so, and the key takes only a boolean.
TEST(Catalog, ResidualIsAnOptionalBoolean) {
  auto plain = parse_cause(valid_cause(), "kb/causes/mtu-mismatch.toml");
  ASSERT_TRUE(plain.ok()) << plain.error().describe();
  EXPECT_FALSE(plain->residual);
  auto residual = parse_cause(valid_cause("residual = true\n"), "kb/causes/mtu-mismatch.toml");
  ASSERT_TRUE(residual.ok()) << residual.error().describe();
  EXPECT_TRUE(residual->residual);
  auto wrong = parse_cause(valid_cause("residual = \"yes\"\n"), "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().context, "kb/causes/mtu-mismatch.toml:8");
  const Catalog catalog = embedded_catalog();
  ASSERT_NE(catalog.find("baseline-regression"), nullptr);
  EXPECT_TRUE(catalog.find("baseline-regression")->residual);
  EXPECT_FALSE(catalog.find("link-degraded")->residual);
}

// Advice in the culprit's own tool, by kind: each kind keeps its tools apart.
std::string tool_advice(const std::string& kind, const std::string& tool) {
  return "\n[by_" + kind + "." + tool + "]\nremediation = [\"do it with " + tool +
         "\"]\n"
         "[by_" +
         kind + "." + tool +
         ".next_change]\nvariable = \"v\"\nfrom = \"a\"\nto = \"b\"\naction = \"act\"\n"
         "verify = \"check\"\n";
}

TEST(Catalog, AdviceByToolIsKeptPerKindOfTool) {
  auto cause = parse_cause(
      valid_cause(tool_advice("qos_tool", "dcb") + tool_advice("clock_tool", "linuxptp")),
      "kb/causes/mtu-mismatch.toml");
  ASSERT_TRUE(cause.ok()) << cause.error().describe();
  ASSERT_EQ(cause->by_tool.size(), 2U);
  EXPECT_EQ(cause->by_tool.at("qos_tool").at("dcb").remediation.at(0), "do it with dcb");
  EXPECT_EQ(cause->by_tool.at("clock_tool").at("linuxptp").next_change.action, "act");
}

TEST(Catalog, AToolOfAnotherKindIsRejectedWithTheKindsTools) {
  // linuxptp keeps clocks; it is no QoS tool.
  auto cause =
      parse_cause(valid_cause(tool_advice("qos_tool", "linuxptp")), "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(cause.ok());
  EXPECT_NE(cause.error().message.find("[by_qos_tool.linuxptp]"), std::string::npos)
      << cause.error().message;
  EXPECT_NE(cause.error().message.find("mlnx_qos, dcb"), std::string::npos)
      << cause.error().message;
  auto clock = parse_cause(valid_cause(tool_advice("clock_tool", "mlnx_qos")),
                           "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(clock.ok());
  EXPECT_NE(clock.error().message.find("chrony, linuxptp, ntpd"), std::string::npos)
      << clock.error().message;
}

TEST(Catalog, AdviceForASignalThatDoesNotSupportTheCauseIsRejected) {
  // gids-consistent argues against gid-mismatch: advice for it could never apply.
  std::vector<DataFile> files = embedded_files("kb/causes/");
  for (auto& [file, text] : files) {
    if (file.find("gid-mismatch.toml") != std::string::npos) {
      text += tool_advice("signal", "gids-consistent");
    }
  }
  auto catalog = Catalog::load(files, embedded_entries());
  ASSERT_FALSE(catalog.ok());
  EXPECT_NE(catalog.error().message.find("[by_signal.gids-consistent]"), std::string::npos)
      << catalog.error().message;
  EXPECT_NE(catalog.error().context.find("gid-mismatch.toml"), std::string::npos);
  // The embedded advice per signal names supporting signals only.
  const Catalog embedded = embedded_catalog();
  const Cause* gid = embedded.find("gid-mismatch");
  ASSERT_NE(gid, nullptr);
  EXPECT_EQ(gid->by_tool.at("signal").count("no-rocev2-gid"), 1U);
}

TEST(Catalog, UnknownKeyIsRejectedWithFileAndLine) {
  auto cause = parse_cause(valid_cause("wieght = 2.0\n"), "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:8");
  EXPECT_NE(cause.error().message.find("wieght"), std::string::npos);
}

TEST(Catalog, WeightsInACauseFileAreRejected) {
  // Weights live with their signal in the probe's entry; a cause file naming one is stale.
  auto cause =
      parse_cause(valid_cause("\n[[supports]]\nprobe = \"mtu\"\n"), "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(cause.ok());
  EXPECT_NE(cause.error().message.find("supports"), std::string::npos);
}

TEST(Catalog, IdMustMatchTheFileName) {
  auto cause = parse_cause(valid_cause(), "kb/causes/clock-skew.toml");
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/clock-skew.toml:1");
}

TEST(Catalog, SyntaxErrorNamesFileAndLine) {
  auto cause = parse_cause("id = \"mtu-mismatch\"\ntitle = \n", "kb/causes/mtu-mismatch.toml");
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:2");
}

TEST(Catalog, AWeightOnACauseWithoutItsFileNamesTheEntryAndLine) {
  // The embedded entries weigh on every cause; a catalog of one cause leaves the others
  // unknown, and the first weight naming one is reported where it is written.
  std::vector<DataFile> files = {{"kb/causes/mtu-mismatch.toml", valid_cause()}};
  auto catalog = Catalog::load(files, embedded_entries());
  ASSERT_FALSE(catalog.ok());
  EXPECT_NE(catalog.error().message.find("unknown cause"), std::string::npos)
      << catalog.error().describe();
  EXPECT_EQ(catalog.error().context.rfind("kb/probes/", 0), 0u) << catalog.error().context;
}

TEST(Catalog, ACauseNoSignalSupportsIsRejected) {
  std::vector<DataFile> files = embedded_files("kb/causes/");
  files.emplace_back("kb/causes/cosmic-rays.toml", valid_cause("", "cosmic-rays"));
  auto catalog = Catalog::load(files, embedded_entries());
  ASSERT_FALSE(catalog.ok());
  EXPECT_EQ(catalog.error().context, "kb/causes/cosmic-rays.toml:1");
  EXPECT_NE(catalog.error().message.find("no signal supports"), std::string::npos);
}

TEST(Catalog, CausesAreOrderedById) {
  Catalog catalog = embedded_catalog();
  for (std::size_t i = 1; i < catalog.causes().size(); ++i) {
    EXPECT_LT(catalog.causes()[i - 1].id, catalog.causes()[i].id);
  }
}

}  // namespace
}  // namespace netdoctor::kb
