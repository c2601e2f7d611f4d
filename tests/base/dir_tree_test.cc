#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_tree.h"
#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

using testing::make_link;
using testing::make_temp_dir;
using testing::write_file;

// Every containment test runs against openat2 and against the component-by-component walk.
class DirTreeTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    m_outside = make_temp_dir("outside");
    write_file(m_outside + "/secret", "top secret\n");
    m_root = make_temp_dir("dirtree");
    write_file(m_root + "/hosts/n1/0/sys/devices/pci0/net/eth0/mtu", "9000\n");
    make_link("../../devices/pci0/net/eth0", m_root + "/hosts/n1/0/sys/class/net/eth0");
  }

  std::unique_ptr<FileTree> open(TreeLimits limits = {}) {
    auto tree =
        GetParam() ? open_dir_tree(m_root, limits) : open_dir_tree_without_openat2(m_root, limits);
    EXPECT_TRUE(tree.ok());
    return std::move(tree).value();
  }

  std::string m_root;
  std::string m_outside;
};

TEST_P(DirTreeTest, RelativeLinkInsideTheBundleIsFollowed) {
  auto tree = open();
  EXPECT_EQ(*tree->read("hosts/n1/0/sys/class/net/eth0/mtu"), "9000\n");
}

TEST_P(DirTreeTest, LinkToEtcPasswdIsRefusedNamingThePath) {
  make_link("/etc/passwd", m_root + "/hosts/n1/0/passwd");
  auto r = open()->read("hosts/n1/0/passwd");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Refused);
  EXPECT_NE(r.error().message.find("hosts/n1/0/passwd"), std::string::npos);
  EXPECT_NE(r.error().message.find("leaves the bundle"), std::string::npos);
}

TEST_P(DirTreeTest, AbsoluteLinkToSysIsRefusedNotFollowedToTheHost) {
  make_link("/sys/class/net", m_root + "/hosts/n1/0/sys/class/hostnet");
  EXPECT_EQ(open()->read("hosts/n1/0/sys/class/hostnet/lo/mtu").error().code, ErrorCode::Refused);
}

TEST_P(DirTreeTest, RelativeLinkClimbingOutIsRefused) {
  make_link("../../../../" + std::string(std::filesystem::path(m_outside).filename()) + "/secret",
            m_root + "/hosts/n1/0/escape");
  // The target exists, so only containment can stop the read.
  EXPECT_EQ(open()->read("hosts/n1/0/escape").error().code, ErrorCode::Refused);
  make_link(m_outside, m_root + "/hosts/n1/0/outdir");
  EXPECT_EQ(open()->read("hosts/n1/0/outdir/secret").error().code, ErrorCode::Refused);
}

TEST_P(DirTreeTest, DotDotPathsAreRefused) {
  EXPECT_EQ(open()->read("../outside/secret").error().code, ErrorCode::Refused);
  EXPECT_EQ(open()->read("hosts/../../x").error().code, ErrorCode::Refused);
}

TEST_P(DirTreeTest, LinkLoopIsAnIoErrorNotAHang) {
  make_link("b", m_root + "/a");
  make_link("a", m_root + "/b");
  EXPECT_EQ(open()->read("a").error().code, ErrorCode::Io);
}

TEST_P(DirTreeTest, OutcomesStayDistinct) {
  auto tree = open();
  EXPECT_EQ(tree->read("hosts/n1/0/missing").error().code, ErrorCode::NotFound);
  EXPECT_EQ(tree->read("hosts/n1/0/sys/devices/pci0/net/eth0/mtu/x").error().code,
            ErrorCode::NotFound);
  write_file(m_root + "/locked", "x");
  ::chmod((m_root + "/locked").c_str(), 0);
  if (::geteuid() != 0) {  // root reads anything
    EXPECT_EQ(tree->read("locked").error().code, ErrorCode::PermissionDenied);
  }
  ASSERT_EQ(::mkfifo((m_root + "/fifo").c_str(), 0600), 0);
  EXPECT_EQ(tree->read("fifo").error().code, ErrorCode::Refused);
  EXPECT_FALSE(tree->read("hosts").ok());
}

TEST_P(DirTreeTest, FileOverTheLimitIsRefusedWithItsSize) {
  write_file(m_root + "/big", std::string(2000, 'x'));
  TreeLimits limits;
  limits.max_file_bytes = 1000;
  auto r = open(limits)->read("big");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Refused);
  EXPECT_NE(r.error().message.find("2000 bytes"), std::string::npos);
  EXPECT_NE(r.error().message.find("big"), std::string::npos);
  EXPECT_EQ(open(limits)->read("hosts/n1/0/sys/class/net/eth0/mtu")->size(), 5u);
}

TEST_P(DirTreeTest, ListIsSortedWithKindsThroughLinks) {
  make_link("/etc", m_root + "/hosts/n1/0/sys/class/net/zzz");
  write_file(m_root + "/hosts/n1/0/sys/class/net/afile", "1");
  auto listed = open()->list("hosts/n1/0/sys/class/net");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].name, "afile");
  EXPECT_EQ((*listed)[0].kind, DirEntry::Kind::File);
  EXPECT_EQ((*listed)[1].name, "eth0");
  EXPECT_EQ((*listed)[1].kind, DirEntry::Kind::Dir);
  EXPECT_EQ((*listed)[2].kind, DirEntry::Kind::Other);  // leaves the bundle
  EXPECT_EQ(open()->list("nope").error().code, ErrorCode::NotFound);
}

INSTANTIATE_TEST_SUITE_P(Resolution, DirTreeTest, ::testing::Values(true, false),
                         [](const auto& param_info) {
                           return param_info.param ? "openat2" : "walk";
                         });

TEST(DirTree, MissingRootIsNotFound) {
  EXPECT_EQ(open_dir_tree("/nonexistent/netdoctor").error().code, ErrorCode::NotFound);
}

TEST(DirTree, DisplayPathNamesTheFileOnDisk) {
  const std::string root = make_temp_dir("display");
  auto tree = open_dir_tree(root + "/");
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ((*tree)->display_path("hosts/x"), root + "/hosts/x");
}

}  // namespace
}  // namespace netdoctor
