#include "kb/catalog.h"

#include <gtest/gtest.h>

#include <string>

#include "documented_probes.h"

namespace netdoctor::kb {
namespace {

using testing::documented_probes;

// A valid cause file; tests break one line of it at a time.
std::string valid_cause(const std::string& extra_support = "",
                        const std::string& id = "mtu-mismatch") {
  return "id = \"" + id +
         "\"\n"                                                     // line 1
         "title = \"MTU mismatch\"\n"                               // 2
         "mechanism = \"Frames too big are dropped.\"\n"            // 3
         "category = \"config\"\n"                                  // 4
         "severity = \"degrade\"\n"                                 // 5
         "source = \"DOMAIN.md: MTU\"\n"                            // 6
         "remediation = [\"ip link set dev {netdev} mtu 9000\"]\n"  // 7
         "\n"                                                       // 8
         "[[supports]]\n"                                           // 9
         "probe = \"mtu\"\n"                                        // 10
         "signal = \"mtu-mismatch\"\n"                              // 11
         "weight = 5.0\n" +                                         // 12
         extra_support +                                            // 13...
         "\n[[against]]\nprobe = \"mtu\"\nsignal = \"mtu-consistent\"\nweight = 5.0\n"
         "\n[next_change]\nvariable = \"mtu\"\nfrom = \"{value}\"\nto = \"9000\"\n"
         "action = \"set it\"\nverify = \"re-run mtu\"\n";
}

TEST(Catalog, EveryEmbeddedCauseFileLoadsAndCoversTheSpec) {
  auto catalog = Catalog::load_embedded(documented_probes());
  ASSERT_TRUE(catalog.ok()) << catalog.error().describe();
  EXPECT_EQ(catalog->causes().size(), spec_cause_ids().size());
  for (const auto& id : spec_cause_ids()) {
    const Cause* cause = catalog->find(id);
    ASSERT_NE(cause, nullptr) << id;
    EXPECT_FALSE(cause->supports.empty()) << id;
    EXPECT_FALSE(cause->against.empty()) << id;
    EXPECT_GE(cause->remediation.size(), 2u) << id;
    EXPECT_FALSE(cause->next_change.verify.empty()) << id;
    EXPECT_NE(cause->source.find("DOMAIN.md"), std::string::npos) << id;
  }
}

TEST(Catalog, ValidFileParsesWeightsAndDefaults) {
  auto cause = parse_cause(valid_cause("localizes = false\n"), "kb/causes/mtu-mismatch.toml",
                           documented_probes());
  ASSERT_TRUE(cause.ok()) << cause.error().describe();
  ASSERT_EQ(cause->supports.size(), 1u);
  EXPECT_DOUBLE_EQ(cause->supports[0].weight, 5.0);
  EXPECT_FALSE(cause->supports[0].localizes);
  EXPECT_EQ(cause->supports[0].line, 9);
  ASSERT_EQ(cause->against.size(), 1u);
  EXPECT_EQ(cause->against[0].signal, "mtu-consistent");
}

TEST(Catalog, UnknownKeyIsRejectedWithFileAndLine) {
  auto cause = parse_cause(valid_cause("wieght = 2.0\n"), "kb/causes/mtu-mismatch.toml",
                           documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:13");
  EXPECT_NE(cause.error().message.find("wieght"), std::string::npos);
}

TEST(Catalog, UnknownProbeIsRejectedWithFileAndLine) {
  std::string text = valid_cause();
  text.replace(text.find("probe = \"mtu\""), 13, "probe = \"mtux\"");
  auto cause = parse_cause(text, "kb/causes/mtu-mismatch.toml", documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:10");
  EXPECT_NE(cause.error().message.find("mtux"), std::string::npos);
}

TEST(Catalog, SignalTheProbeDoesNotEmitIsRejectedWithFileAndLine) {
  std::string text = valid_cause();
  text.replace(text.find("signal = \"mtu-mismatch\""), 23, "signal = \"pfc-quiet\"");
  auto cause = parse_cause(text, "kb/causes/mtu-mismatch.toml", documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:11");
  EXPECT_NE(cause.error().message.find("pfc-quiet"), std::string::npos);
}

TEST(Catalog, CauseIdOutsideTheSpecIsRejectedWithFileAndLine) {
  auto cause = parse_cause(valid_cause("", "cosmic-rays"), "kb/causes/cosmic-rays.toml",
                           documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/cosmic-rays.toml:1");
  EXPECT_NE(cause.error().message.find("cosmic-rays"), std::string::npos);
}

TEST(Catalog, IdMustMatchTheFileName) {
  auto cause = parse_cause(valid_cause(), "kb/causes/clock-skew.toml", documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/clock-skew.toml:1");
}

TEST(Catalog, SyntaxErrorNamesFileAndLine) {
  auto cause = parse_cause("id = \"mtu-mismatch\"\ntitle = \n", "kb/causes/mtu-mismatch.toml",
                           documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:2");
}

TEST(Catalog, NonPositiveWeightIsRejected) {
  std::string text = valid_cause();
  text.replace(text.find("weight = 5.0"), 12, "weight = 0.0");
  auto cause = parse_cause(text, "kb/causes/mtu-mismatch.toml", documented_probes());
  ASSERT_FALSE(cause.ok());
  EXPECT_EQ(cause.error().context, "kb/causes/mtu-mismatch.toml:9");
}

TEST(Catalog, MissingCauseIsReportedWhenAllAreRequired) {
  std::vector<DataFile> files = {{"kb/causes/mtu-mismatch.toml", valid_cause()}};
  auto partial = Catalog::load(files, documented_probes(), false);
  ASSERT_TRUE(partial.ok()) << partial.error().describe();
  auto complete = Catalog::load(files, documented_probes(), true);
  ASSERT_FALSE(complete.ok());
  EXPECT_NE(complete.error().message.find("pfc-storm"), std::string::npos);
}

}  // namespace
}  // namespace netdoctor::kb
