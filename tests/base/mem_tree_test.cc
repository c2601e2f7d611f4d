#include <gtest/gtest.h>

#include <memory>

#include "base/file_tree.h"

namespace netdoctor {
namespace {

std::vector<std::string> names(const std::vector<DirEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) {
    out.push_back(e.name);
  }
  return out;
}

TEST(NormaliseRelative, CollapsesSlashesDotsAndInnerParents) {
  EXPECT_EQ(*normalise_relative("a//b/./c/../d/"), "a/b/d");
  EXPECT_EQ(*normalise_relative(""), "");
  EXPECT_EQ(*normalise_relative("a/.."), "");
}

TEST(NormaliseRelative, RefusesClimbingAboveTheRoot) {
  auto r = normalise_relative("a/../../etc/passwd");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Refused);
}

TEST(MemTree, ImplicitParentsAreListedSortedWithKinds) {
  MemTree tree;
  tree.add_file("sys/class/net/eth1/mtu", "9000\n");
  tree.add_file("sys/class/net/eth0/mtu", "1500\n");
  tree.add_file("sys/class/net/eth0!odd", "x");
  tree.add_file("sys/class/net/eth0.100/mtu", "1500\n");
  tree.add_symlink("sys/class/net/link0", "eth0");
  auto listed = tree.list("sys/class/net");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(names(*listed),
            (std::vector<std::string>{"eth0", "eth0!odd", "eth0.100", "eth1", "link0"}));
  EXPECT_EQ((*listed)[0].kind, DirEntry::Kind::Dir);
  EXPECT_EQ((*listed)[1].kind, DirEntry::Kind::File);
  EXPECT_EQ((*listed)[4].kind, DirEntry::Kind::Dir);  // a link to a directory
  EXPECT_EQ(names(*tree.list("")), std::vector<std::string>{"sys"});
  EXPECT_EQ(tree.file_count(), 4u);
}

TEST(MemTree, SymlinksResolveInsideTheTree) {
  MemTree tree;
  tree.add_file("sys/devices/pci0/net/eth0/mtu", "9000\n");
  tree.add_symlink("sys/class/net/eth0", "../../devices/pci0/net/eth0");
  EXPECT_EQ(*tree.read("sys/class/net/eth0/mtu"), "9000\n");
  EXPECT_EQ(tree.files_read(), std::vector<std::string>{"sys/devices/pci0/net/eth0/mtu"});
}

TEST(MemTree, LinksLeavingTheTreeAreRefusedAndLoopsStop) {
  MemTree tree;
  tree.add_symlink("a/up", "../../../etc");
  tree.add_symlink("a/abs", "/etc/passwd");
  tree.add_symlink("loop1", "loop2");
  tree.add_symlink("loop2", "loop1");
  EXPECT_EQ(tree.read("a/up/passwd").error().code, ErrorCode::Refused);
  EXPECT_EQ(tree.read("a/abs").error().code, ErrorCode::Refused);
  EXPECT_EQ(tree.read("loop1").error().code, ErrorCode::Io);
  EXPECT_EQ(tree.read("missing").error().code, ErrorCode::NotFound);
  EXPECT_EQ(tree.read("../x").error().code, ErrorCode::Refused);
}

TEST(MemTree, InjectedErrorsComeBackForThatPathOnly) {
  MemTree tree;
  tree.add_file("a/ok", "1");
  tree.add_error("a/secret", make_error(ErrorCode::PermissionDenied, "permission denied"));
  EXPECT_EQ(tree.read("a/secret").error().code, ErrorCode::PermissionDenied);
  EXPECT_EQ(tree.read("a/secret").error().context, "memory:a/secret");
  EXPECT_EQ(*tree.read("a/ok"), "1");
}

TEST(Subtree, ReadsUnderThePrefixAndCannotClimbOut) {
  auto inner = std::make_shared<MemTree>();
  inner->add_file("top/hosts/n1/0/captured_at", "1.5");
  inner->add_file("secret", "s");
  auto sub = make_subtree(inner, "top");
  EXPECT_EQ(*sub->read("hosts/n1/0/captured_at"), "1.5");
  EXPECT_EQ(sub->read("../secret").error().code, ErrorCode::Refused);
  EXPECT_EQ(sub->display_path("hosts"), "memory:top/hosts");
  EXPECT_EQ(names(*sub->list("")), std::vector<std::string>{"hosts"});
}

}  // namespace
}  // namespace netdoctor
