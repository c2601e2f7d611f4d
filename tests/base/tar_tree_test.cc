#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "base/file_tree.h"
#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

using testing::make_temp_dir;
using testing::TarCompression;
using testing::TarMember;
using testing::write_tar;
using Type = TarMember::Type;

std::vector<TarMember> sample_members() {
  return {
      {"b/", "", Type::Dir},
      {"b/hosts/n1/0/captured_at", "1765811758.5\n", Type::File},
      {"b/hosts/n1/0/sys/devices/pci0/net/eth0/mtu", "9000\n", Type::File},
      {"b/hosts/n1/0/sys/class/net/eth0", "../../devices/pci0/net/eth0", Type::Symlink},
      {"b/hosts/n1/0/mtu_again", "b/hosts/n1/0/sys/devices/pci0/net/eth0/mtu", Type::Hardlink},
  };
}

class TarTreeFormats : public ::testing::TestWithParam<TarCompression> {};

TEST_P(TarTreeFormats, LoadsMembersLinksAndHardlinksDetectedByContent) {
  // No suffix: the format is found from the bytes.
  const std::string path = make_temp_dir("tar") + "/bundle.bin";
  write_tar(path, sample_members(), GetParam());
  EXPECT_TRUE(looks_like_archive(path));
  TarTreeReport report;
  auto tree = open_tar_tree(path, {}, &report);
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  EXPECT_TRUE(report.problems.empty());
  EXPECT_EQ(*(*tree)->read("b/hosts/n1/0/captured_at"), "1765811758.5\n");
  EXPECT_EQ(*(*tree)->read("b/hosts/n1/0/sys/class/net/eth0/mtu"), "9000\n");
  EXPECT_EQ(*(*tree)->read("b/hosts/n1/0/mtu_again"), "9000\n");
  EXPECT_EQ((*tree)->display_path("b/x"), path + ":b/x");
}

INSTANTIATE_TEST_SUITE_P(Compression, TarTreeFormats,
                         ::testing::Values(TarCompression::None, TarCompression::Gzip,
                                           TarCompression::Xz));

TEST(TarTree, EscapingMembersAreRefusedAndReportedTheRestLoads) {
  const std::string path = make_temp_dir("tar") + "/evil.tar.gz";
  write_tar(path,
            {{"../../etc/x", "pwned", Type::File},
             {"/abs", "pwned", Type::File},
             {"ok/file", "fine", Type::File},
             {"ok/up", "../../../etc/passwd", Type::Symlink},
             {"ok/abs", "/etc/passwd", Type::Symlink},
             {"ok/hard", "../outside", Type::Hardlink}},
            TarCompression::Gzip);
  TarTreeReport report;
  auto tree = open_tar_tree(path, {}, &report);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(*(*tree)->read("ok/file"), "fine");
  ASSERT_EQ(report.problems.size(), 3u);
  for (const Error& e : report.problems) {
    EXPECT_EQ(e.code, ErrorCode::Refused);
  }
  EXPECT_NE(report.problems[0].message.find("../../etc/x"), std::string::npos);
  EXPECT_EQ((*tree)->read("ok/up").error().code, ErrorCode::Refused);
  EXPECT_EQ((*tree)->read("ok/abs").error().code, ErrorCode::Refused);
  EXPECT_EQ((*tree)->read("etc/x").error().code, ErrorCode::NotFound);
  EXPECT_EQ((*tree)->read("abs").error().code, ErrorCode::NotFound);
}

// A ustar header declaring `size` bytes with almost no data after it: what a bomb or a
// corrupt archive looks like to the reader.
std::string header_declaring(const std::string& name, std::uint64_t size) {
  std::string h(512, '\0');
  std::memcpy(h.data(), name.data(), name.size());
  std::memcpy(h.data() + 100, "0000644", 7);
  std::memcpy(h.data() + 108, "0000000", 7);
  std::memcpy(h.data() + 116, "0000000", 7);
  char octal[13];
  std::snprintf(octal, sizeof(octal), "%011llo", static_cast<unsigned long long>(size));
  std::memcpy(h.data() + 124, octal, 11);
  std::memcpy(h.data() + 136, "00000000000", 11);
  h[156] = '0';
  std::memcpy(h.data() + 257, "ustar", 6);
  std::memcpy(h.data() + 263, "00", 2);
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (char c : h) {
    sum += static_cast<unsigned char>(c);
  }
  char check[8];
  std::snprintf(check, sizeof(check), "%06o", sum);
  std::memcpy(h.data() + 148, check, 7);
  return h;
}

TEST(TarTree, HugeDeclaredSizeStopsQuicklyWithoutAllocating) {
  const std::string path = make_temp_dir("tar") + "/bomb.tar";
  {
    std::ofstream out(path, std::ios::binary);
    out << header_declaring("huge-member", 077777777777ull) << std::string(4096, 'x');
  }
  const auto start = std::chrono::steady_clock::now();
  auto tree = open_tar_tree(path);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.error().code, ErrorCode::Refused);
  EXPECT_NE(tree.error().message.find("huge-member"), std::string::npos);
}

TEST(TarTree, MemberOverTheFileLimitIsSkippedAndReported) {
  const std::string path = make_temp_dir("tar") + "/big.tar";
  write_tar(path, {{"big", std::string(5000, 'x'), Type::File}, {"small", "1", Type::File}});
  TreeLimits limits;
  limits.max_file_bytes = 1000;
  TarTreeReport report;
  auto tree = open_tar_tree(path, limits, &report);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(*(*tree)->read("small"), "1");
  EXPECT_EQ((*tree)->read("big").error().code, ErrorCode::NotFound);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_NE(report.problems[0].message.find("5000 bytes"), std::string::npos);
}

TEST(TarTree, TooManyMembersOrBytesStopTheLoad) {
  const std::string path = make_temp_dir("tar") + "/many.tar";
  std::vector<TarMember> members;
  for (int i = 0; i < 20; ++i) {
    members.push_back({"f" + std::to_string(i), std::string(100, 'x'), Type::File});
  }
  write_tar(path, members);
  TreeLimits few;
  few.max_entries = 10;
  EXPECT_EQ(open_tar_tree(path, few).error().code, ErrorCode::Refused);
  TreeLimits small;
  small.max_total_bytes = 1000;
  EXPECT_EQ(open_tar_tree(path, small).error().code, ErrorCode::Refused);
}

TEST(TarTree, NonUtf8NamesAreKeptAsBytes) {
  const std::string path = make_temp_dir("tar") + "/latin1.tar";
  const std::string name = "caf\xe9";
  write_tar(path, {{name, "x", Type::File}});
  auto tree = open_tar_tree(path);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(*(*tree)->read(name), "x");
}

TEST(TarTree, NotAnArchiveIsUnsupportedAndMissingIsNotFound) {
  const std::string path = make_temp_dir("tar") + "/plain.txt";
  testing::write_file(path, "just text, not a tar archive at all\n");
  EXPECT_FALSE(looks_like_archive(path));
  EXPECT_EQ(open_tar_tree(path).error().code, ErrorCode::Unsupported);
  EXPECT_EQ(open_tar_tree(path + ".nope").error().code, ErrorCode::NotFound);
}

TEST(ArchiveNames, SuffixesAreRecognisedAndStripped) {
  EXPECT_TRUE(has_archive_suffix("sosreport-n1-2026.tar.xz"));
  EXPECT_TRUE(has_archive_suffix("b.TGZ"));
  EXPECT_FALSE(has_archive_suffix("captured_at"));
  EXPECT_EQ(strip_archive_suffix("sosreport-n1.tar.xz"), "sosreport-n1");
}

}  // namespace
}  // namespace netdoctor
