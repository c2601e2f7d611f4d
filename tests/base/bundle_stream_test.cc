// open_bundle_streaming: the machines of a grouped archive go to the sink as the archive moves
// past them, the rest comes back as a Bundle; whenever streaming could read differently from
// the whole tree (scattered members, links across machines, the layout elsewhere) the sink
// discards and the archive is opened whole. Problems always match open_bundle's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

namespace fs = std::filesystem;
using testing::TarMember;
using Type = TarMember::Type;

struct Taken {
  MachineRole role;
  MachineCapture capture;
};

class RecordingSink final : public MachineSink {
 public:
  void take(MachineRole role, MachineCapture capture) override {
    taken.push_back(Taken{role, std::move(capture)});
  }
  void discard() override {
    taken.clear();
    ++discards;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& t : taken) {
      out.push_back((t.role == MachineRole::Host ? "host " : "switch ") + t.capture.name);
    }
    return out;
  }
  std::vector<Taken> taken;
  int discards = 0;
};

std::vector<std::string> described(const std::vector<Error>& problems) {
  std::vector<std::string> out;
  for (const auto& e : problems) {
    out.push_back(e.describe());
  }
  return out;
}

std::vector<std::string> machine_names(const std::vector<MachineCapture>& machines) {
  std::vector<std::string> out;
  for (const auto& m : machines) {
    out.push_back(m.name);
  }
  return out;
}

class BundleStream : public ::testing::Test {
 protected:
  void SetUp() override { m_dir = netdoctor::testing::make_temp_dir("bundle-stream"); }
  void TearDown() override { fs::remove_all(m_dir); }

  std::string archive(const std::vector<TarMember>& members,
                      testing::TarCompression compression = testing::TarCompression::Gzip) {
    const std::string path = m_dir + "/b" + std::to_string(++m_count) + ".tar.gz";
    testing::write_tar(path, members, compression);
    return path;
  }

  // Streams `path`, checking the problems against open_bundle's.
  Bundle stream(const std::string& path, RecordingSink& sink) {
    auto whole = open_bundle(path);
    auto streamed = open_bundle_streaming(path, sink);
    EXPECT_EQ(whole.ok(), streamed.ok());
    if (!whole.ok() || !streamed.ok()) {
      return {};
    }
    EXPECT_EQ(described(streamed->problems), described(whole->problems));
    return std::move(streamed).value();
  }

  std::string m_dir;
  int m_count = 0;
};

TarMember file(std::string name, std::string data = "x") {
  return TarMember{std::move(name), std::move(data), Type::File};
}

TarMember link(std::string name, std::string target) {
  return TarMember{std::move(name), std::move(target), Type::Symlink};
}

// The sample's captured_at, which the tests write as a small number.
std::string read_in(const MachineCapture& machine, std::size_t sample) {
  auto at = machine.samples.at(sample).source->captured_at();
  return at.ok() ? std::to_string(static_cast<int>(*at)) : "error: " + at.error().describe();
}

TEST_F(BundleStream, GroupedMachinesGoToTheSinkAndTheRestComesBack) {
  RecordingSink sink;
  const auto bundle = stream(
      archive({file("b/bundle.json", R"({"cluster":"c"})"), file("b/hosts/h1/0/captured_at", "1"),
               file("b/hosts/h1/1/captured_at", "2"), file("b/hosts/h2/0/captured_at", "3"),
               file("b/switches/s1/0/captured_at", "4"), file("b/perftest/h1__h2/run", "text")}),
      sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"host h1", "host h2", "switch s1"}));
  EXPECT_EQ(sink.discards, 0);
  EXPECT_TRUE(bundle.hosts.empty());
  EXPECT_TRUE(bundle.switches.empty());
  ASSERT_EQ(bundle.perftests.size(), 1u);
  EXPECT_EQ(bundle.perftests.front().text, "text");
  EXPECT_EQ(bundle.manifest_json, R"({"cluster":"c"})");
  ASSERT_EQ(sink.taken.size(), 3u);
  const auto& h1 = sink.taken[0].capture;
  ASSERT_EQ(h1.samples.size(), 2u);
  EXPECT_EQ(read_in(h1, 1), "2");
  // Files are named in messages as open_bundle names them.
  EXPECT_NE(h1.samples[0].source->display_path("/proc/x").find(".tar.gz:b/hosts/h1/0/"),
            std::string::npos)
      << h1.samples[0].source->display_path("/proc/x");
}

TEST_F(BundleStream, LayoutAtTheTopStreamsToo) {
  RecordingSink sink;
  stream(archive({file("hosts/h1/0/captured_at"), file("hosts/h2/0/captured_at")}), sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"host h1", "host h2"}));
}

TEST_F(BundleStream, ScatteredMachineIsReadAgainWhole) {
  RecordingSink sink;
  const auto bundle =
      stream(archive({file("b/hosts/h1/0/captured_at", "1"), file("b/hosts/h2/0/captured_at", "2"),
                      file("b/hosts/h1/1/captured_at", "3")}),
             sink);
  EXPECT_EQ(sink.discards, 1);
  EXPECT_TRUE(sink.taken.empty());
  ASSERT_EQ(machine_names(bundle.hosts), (std::vector<std::string>{"h1", "h2"}));
  ASSERT_EQ(bundle.hosts[0].samples.size(), 2u);
  EXPECT_EQ(read_in(bundle.hosts[0], 1), "3");
}

TEST_F(BundleStream, LinkWithinItsMachineStreamsAndResolves) {
  RecordingSink sink;
  stream(archive({file("b/hosts/h1/0/captured_at", "1"),
                  link("b/hosts/h1/1/captured_at", "../0/captured_at"),
                  file("b/hosts/h2/0/captured_at", "2")}),
         sink);
  ASSERT_EQ(sink.names(), (std::vector<std::string>{"host h1", "host h2"}));
  EXPECT_EQ(read_in(sink.taken[0].capture, 1), "1");
}

TEST_F(BundleStream, LinkIntoAnotherMachineIsReadWhole) {
  RecordingSink sink;
  const auto bundle = stream(archive({file("b/hosts/h1/0/captured_at", "1"),
                                      link("b/hosts/h2/0/captured_at", "../../h1/0/captured_at")}),
                             sink);
  EXPECT_EQ(sink.discards, 1);
  ASSERT_EQ(machine_names(bundle.hosts), (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(read_in(bundle.hosts[1], 0), "1");
}

TEST_F(BundleStream, LinkOfTheRestIntoAStreamedMachineIsReadWhole) {
  RecordingSink sink;
  const auto bundle =
      stream(archive({file("b/hosts/h1/0/captured_at", "1"),
                      link("b/perftest/h1__h2/run", "../../hosts/h1/0/captured_at")}),
             sink);
  EXPECT_EQ(sink.discards, 1);
  ASSERT_EQ(bundle.perftests.size(), 1u);
  EXPECT_EQ(bundle.perftests.front().text, "1");
}

TEST_F(BundleStream, LayoutElsewhereThanTheFirstMachineSaidIsReadWhole) {
  // x/hosts/... came first, but bundle.json at the top makes the top the root.
  RecordingSink sink;
  const auto bundle =
      stream(archive({file("x/hosts/h1/0/captured_at"), file("bundle.json", "{}")}), sink);
  EXPECT_EQ(sink.discards, 1);
  EXPECT_TRUE(bundle.hosts.empty());
  EXPECT_EQ(bundle.manifest_json, "{}");
}

TEST_F(BundleStream, ProblemsOfAStreamedMachineKeepTheirPlace) {
  RecordingSink sink;
  stream(archive({file("b/hosts/h1/0/captured_at"), link("b/hosts/h1/1", "/etc"),
                  file("b/hosts/h2/0/captured_at"), link("b/hosts/h2/1", "../../h9/0"),
                  file("b/perftest/bad-name/run")}),
         sink);
  // h2's dangling sample link leaves h2: read whole; problems compared in stream() either way.
  RecordingSink grouped;
  const auto bundle =
      stream(archive({file("b/hosts/h1/0/captured_at"), link("b/hosts/h1/1", "/etc"),
                      file("b/perftest/bad-name/run")}),
             grouped);
  EXPECT_EQ(grouped.names(), (std::vector<std::string>{"host h1"}));
  ASSERT_EQ(bundle.problems.size(), 2u);
  EXPECT_NE(bundle.problems[0].describe().find("b/hosts/h1/1"), std::string::npos);
  EXPECT_NE(bundle.problems[1].describe().find("bad-name"), std::string::npos);
}

TEST_F(BundleStream, TruncatedArchiveNamesTheFileAndKeepsWhatCameBefore) {
  const auto full = archive({file("b/hosts/h1/0/captured_at", "1"),
                             file("b/hosts/h2/0/captured_at", std::string(4000, 'y')),
                             file("b/hosts/h3/0/captured_at", "3")},
                            testing::TarCompression::None);
  const std::string bytes = netdoctor::testing::read_text(full);
  const std::string cut = m_dir + "/cut.tar";
  {
    std::ofstream out(cut, std::ios::binary);
    out << bytes.substr(0, 3 * 512 + 1000);  // h1's header and data, h2's header, part of h2
  }
  RecordingSink sink;
  const auto bundle = stream(cut, sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"host h1"}));
  ASSERT_FALSE(bundle.problems.empty());
  const std::string problem = bundle.problems.front().describe();
  EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;
  EXPECT_NE(problem.find(cut), std::string::npos) << problem;
  EXPECT_NE(problem.find("b/hosts/h2/0/captured_at"), std::string::npos) << problem;
}

TEST_F(BundleStream, DirectoryIsOpenedAsBefore) {
  testing::write_file(m_dir + "/d/hosts/h1/0/captured_at", "1");
  RecordingSink sink;
  const auto bundle = stream(m_dir + "/d", sink);
  EXPECT_TRUE(sink.taken.empty());
  EXPECT_EQ(machine_names(bundle.hosts), (std::vector<std::string>{"h1"}));
}

}  // namespace
}  // namespace netdoctor
