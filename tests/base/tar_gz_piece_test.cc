// Archive pieces: files compressed apart (on another thread) into a gzip member of tar members,
// appended to a .tar.gz writer as they are; the archive that results must be one ordinary
// .tar.gz for netdoctor's reader and for gzip and tar.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/file_tree.h"
#include "base/strings.h"
#include "base/tree_writer.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

// A piece holding `files` (path, content), compressed at `level`.
std::string piece_of(const std::vector<std::pair<std::string, std::string>>& files, int level) {
  std::string piece;
  auto writer = open_tar_gz_piece_writer(piece, "piece", level);
  EXPECT_TRUE(writer.ok()) << writer.error().describe();
  EXPECT_FALSE((*writer)->takes_pieces()) << "a piece is not an archive";
  for (const auto& [path, content] : files) {
    EXPECT_TRUE((*writer)->write_file(path, content).ok());
  }
  EXPECT_TRUE((*writer)->finish().ok());
  return piece;
}

class TarGzPieces : public ::testing::TestWithParam<int> {};

TEST_P(TarGzPieces, AppendedPiecesReadBackAsOneArchiveBetweenTheWritersOwnFiles) {
  const int level = GetParam();
  std::string archive;
  auto writer = open_tar_gz_stream_writer(
      [&](std::string_view bytes) {
        archive.append(bytes);
        return Status{};
      },
      "cluster", 0, level);
  ASSERT_TRUE(writer.ok()) << writer.error().describe();
  ASSERT_TRUE((*writer)->takes_pieces());
  // An odd-sized file just before a piece: its tar padding must come before the piece starts.
  ASSERT_TRUE((*writer)->write_file("hosts/n0/0/mtu", "9000\n").ok());
  const std::string big(300'000, 'x');
  ASSERT_TRUE(
      (*writer)
          ->append_piece(piece_of({{"hosts/n1/0/mtu", "1500\n"}, {"hosts/n1/0/big", big}}, level))
          .ok());
  ASSERT_TRUE((*writer)->append_piece(piece_of({{"hosts/n2/0/mtu", "4200\n"}}, level)).ok());
  ASSERT_TRUE((*writer)->append_piece(piece_of({}, level)).ok()) << "an empty piece is harmless";
  ASSERT_TRUE((*writer)->write_file("netdoctor_collect.log", "n1: ok\n").ok());
  ASSERT_TRUE((*writer)->finish().ok());
  EXPECT_FALSE((*writer)->append_piece("x").ok()) << "nothing after finish";

  TarTreeReport report;
  auto tree = open_tar_tree_from_memory(archive, "cluster", {}, &report);
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  EXPECT_TRUE(report.problems.empty());
  EXPECT_EQ((*tree)->read("hosts/n0/0/mtu").value_or(""), "9000\n");
  EXPECT_EQ((*tree)->read("hosts/n1/0/mtu").value_or(""), "1500\n");
  EXPECT_EQ((*tree)->read("hosts/n1/0/big").value_or(""), big);
  EXPECT_EQ((*tree)->read("hosts/n2/0/mtu").value_or(""), "4200\n");
  EXPECT_EQ((*tree)->read("netdoctor_collect.log").value_or(""), "n1: ok\n");
  auto hosts = (*tree)->list("hosts");
  ASSERT_TRUE(hosts.ok());
  EXPECT_EQ(hosts->size(), 3u) << "the repeated hosts/ directory members are one directory";

  // gzip and tar read it whole as well: the members end to end are one gzip stream, and the
  // tar end-of-archive blocks come only at the end.
  if (find_program("tar").empty()) {
    GTEST_SKIP() << "no tar to cross-check with";
  }
  const std::string path = testing::make_temp_dir("tar-gz-pieces") + "/cluster.tar.gz";
  std::ofstream(path, std::ios::binary) << archive;
  LiveCommandRunner runner;
  auto listed = runner.run({"tar", "-tzf", path});
  ASSERT_TRUE(listed.ok()) << listed.error().describe();
  EXPECT_EQ(listed->exit_code, 0) << listed->err;
  EXPECT_TRUE(listed->err.empty()) << listed->err;
  EXPECT_TRUE(contains(listed->out, "hosts/n2/0/mtu\nnetdoctor_collect.log\n")) << listed->out;
}

// 1: the fastest (ISA-L where the build has it); 6: zlib, the default.
INSTANTIATE_TEST_SUITE_P(Levels, TarGzPieces, ::testing::Values(1, 6));

TEST(TarGzPieces, OnlyArchiveWritersTakePieces) {
  auto dir = open_dir_writer(testing::make_temp_dir("tar-gz-pieces-dir") + "/b");
  ASSERT_TRUE(dir.ok());
  EXPECT_FALSE((*dir)->takes_pieces());
  const auto appended = (*dir)->append_piece(piece_of({{"a", "b"}}, 6));
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(appended.error().code, ErrorCode::Unsupported);
  std::string piece;
  EXPECT_FALSE(open_tar_gz_piece_writer(piece, "p", 0).ok()) << "levels are 1..9";
}

}  // namespace
}  // namespace netdoctor
