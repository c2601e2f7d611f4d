#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim_test_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::sim::testing {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(SimDeterminism, SameSeedGivesIdenticalFiles) {
  const SimConfig config = config_for(6, 2, {"pfc-storm", "link-errors"}, 42);
  const Bundle first = run(config);
  const Bundle second = run(config);
  ASSERT_FALSE(first.files.empty());
  EXPECT_EQ(first.files, second.files);
}

TEST(SimDeterminism, OtherSeedGivesOtherCounters) {
  const Bundle first = run(config_for(4, 2, {}, 1));
  const Bundle second = run(config_for(4, 2, {}, 2));
  EXPECT_NE(first.files, second.files);
}

TEST(SimDeterminism, TarGzBytesAreIdenticalForTheSameSeed) {
  const std::string dir = netdoctor::testing::make_temp_dir("sim-det");
  auto simulation = simulate(config_for(3, 2, {"clock-skew"}, 5));
  ASSERT_TRUE(simulation.ok());
  for (const char* name : {"/a.tar.gz", "/b.tar.gz"}) {
    auto writer = open_tar_gz_writer(dir + name);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(write_bundle(simulation.value(), *writer.value(), "x/").ok());
    ASSERT_TRUE(writer.value()->finish().ok());
  }
  const std::string a = slurp(dir + "/a.tar.gz");
  EXPECT_GT(a.size(), 1000u);
  EXPECT_EQ(a, slurp(dir + "/b.tar.gz"));
}

TEST(SimDeterminism, TarGzHoldsTheBundleUnderOneRootDirectory) {
  const std::string dir = netdoctor::testing::make_temp_dir("sim-tar");
  auto simulation = simulate(config_for(2, 1, {}, 5));
  ASSERT_TRUE(simulation.ok());
  MemoryWriter memory;
  ASSERT_TRUE(write_bundle(simulation.value(), memory).ok());
  auto writer = open_tar_gz_writer(dir + "/h.tar.gz");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(write_bundle(simulation.value(), *writer.value(), "h/").ok());
  ASSERT_TRUE(writer.value()->finish().ok());

  struct archive* reader = archive_read_new();
  archive_read_support_filter_all(reader);
  archive_read_support_format_all(reader);
  ASSERT_EQ(archive_read_open_filename(reader, (dir + "/h.tar.gz").c_str(), 65536), ARCHIVE_OK);
  std::map<std::string, std::string> members;
  struct archive_entry* entry = nullptr;
  while (archive_read_next_header(reader, &entry) == ARCHIVE_OK) {
    const std::string name = archive_entry_pathname(entry);
    ASSERT_TRUE(starts_with(name, "h/")) << name;
    if (archive_entry_filetype(entry) == AE_IFREG) {
      std::string content(static_cast<size_t>(archive_entry_size(entry)), '\0');
      archive_read_data(reader, content.data(), content.size());
      members[name.substr(2)] = content;
    }
  }
  archive_read_free(reader);
  EXPECT_EQ(members, memory.files);
}

TEST(TreeWriter, DirectoryWriterCreatesParentsAndRejectsEscapes) {
  const std::string dir = netdoctor::testing::make_temp_dir("sim-dir");
  auto writer = open_dir_writer(dir + "/bundle");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer.value()->write_file("a/b/c.txt", "hello\n").ok());
  EXPECT_EQ(slurp(dir + "/bundle/a/b/c.txt"), "hello\n");
  EXPECT_FALSE(writer.value()->write_file("../escape", "x").ok());
  EXPECT_FALSE(writer.value()->write_file("/abs", "x").ok());
  EXPECT_FALSE(writer.value()->write_file("a//b", "x").ok());
}

}  // namespace
}  // namespace netdoctor::sim::testing
