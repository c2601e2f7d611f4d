// ArchiveTree (a directory tree of short names, built in bulk) must answer exactly as MemTree,
// the reference in-memory tree, for the same members in the same order.
#include "base/archive_tree.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/file_tree.h"

namespace netdoctor {
namespace {

struct Member {
  enum class Kind { File, Dir, Link } kind;
  std::string path;
  std::string data;
};

const std::vector<Member> k_members = {
    {Member::Kind::Dir, "top", ""},
    {Member::Kind::File, "top/a/b/file1", "one\n"},
    {Member::Kind::Link, "top/a/b/inner", "file1"},
    {Member::Kind::Link, "top/a/dirlink", "b"},
    {Member::Kind::File, "top/c", "was a file\n"},
    {Member::Kind::Dir, "top/c", ""},  // a directory replaces the file
    {Member::Kind::File, "top/c/x", "x\n"},
    {Member::Kind::File, "top/d/y", "y\n"},
    {Member::Kind::Dir, "top/d", ""},
    {Member::Kind::File, "top/d", "a file replaces the directory\n"},
    {Member::Kind::File, "top/e/f", "f\n"},
    {Member::Kind::Dir, "top/e", ""},  // explicit after its entries
    {Member::Kind::File, "./top/g//h", "not normal\n"},
    {Member::Kind::Link, "top/link_up", "../top/a/b/file1"},
    {Member::Kind::Link, "top/abs", "/etc/passwd"},
    {Member::Kind::Link, "top/escape", "../../x"},
    {Member::Kind::Link, "top/loop1", "loop2"},
    {Member::Kind::Link, "top/loop2", "loop1"},
    {Member::Kind::File, "top/dup", "first\n"},
    {Member::Kind::File, "top/dup", "second\n"},
    {Member::Kind::File, "top/empty", ""},
    {Member::Kind::File, "top/a-b", "sorts between a and a/\n"},
    {Member::Kind::File, "top/a.b", "and so does this\n"},
    {Member::Kind::File, "rootfile", "at the root\n"},
};

const std::vector<std::string> k_paths = {
    "",
    "top",
    "top/a",
    "top/a/b",
    "top/a/b/file1",
    "top/a/b/inner",
    "top/a/dirlink",
    "top/a/dirlink/file1",
    "top/a/dirlink/inner",
    "top/c",
    "top/c/x",
    "top/d",
    "top/d/y",
    "top/e",
    "top/e/f",
    "top/g",
    "top/g/h",
    "top/link_up",
    "top/abs",
    "top/escape",
    "top/loop1",
    "top/dup",
    "top/empty",
    "top/a-b",
    "top/a.b",
    "rootfile",
    "nothing",
    "top/nothing",
    "top/a/b/file1/x",
    "top/./a//b/../b/file1",
    "../top",
    "top/a/dirlink/../b/file1",
};

std::string describe(const Result<std::string>& result) {
  return result.ok() ? "ok: " + *result : std::string("error: ") + to_string(result.error().code);
}

std::string describe(const Result<std::vector<DirEntry>>& result) {
  if (!result.ok()) {
    return std::string("error: ") + to_string(result.error().code);
  }
  std::string out = "ok:";
  for (const DirEntry& entry : *result) {
    out += " " + entry.name + "/" + std::to_string(static_cast<int>(entry.kind));
  }
  return out;
}

TEST(ArchiveTree, AnswersAsMemTreeDoes) {
  MemTree reference("ref");
  ArchiveTreeBuilder builder("archive");
  for (const Member& m : k_members) {
    switch (m.kind) {
      case Member::Kind::File:
        reference.add_file(m.path, m.data);
        builder.add_file(m.path, m.data);
        break;
      case Member::Kind::Dir:
        reference.add_dir(m.path);
        builder.add_dir(m.path);
        break;
      case Member::Kind::Link:
        reference.add_symlink(m.path, m.data);
        builder.add_symlink(m.path, m.data);
        break;
    }
  }
  const std::unique_ptr<FileTree> tree = builder.finish();
  for (const std::string& path : k_paths) {
    EXPECT_EQ(describe(tree->read(path)), describe(reference.read(path))) << "read " << path;
    EXPECT_EQ(describe(tree->list(path)), describe(reference.list(path))) << "list " << path;
  }
  // Spot checks that the comparison is not vacuous.
  EXPECT_EQ(*tree->read("top/a/dirlink/inner"), "one\n");
  EXPECT_EQ(*tree->read("top/dup"), "second\n");
  EXPECT_EQ(tree->read("top/abs").error().code, ErrorCode::Refused);
  EXPECT_EQ(tree->list("top/c")->size(), 1u);
}

// Many members, in an order where directories' entries are scattered: every file reads back.
TEST(ArchiveTree, ScatteredMembersOfManyDirectoriesAllReadBack) {
  ArchiveTreeBuilder builder("archive");
  for (int i = 0; i < 3000; ++i) {
    const int dir = (i * 7919) % 97;
    builder.add_file("d" + std::to_string(dir) + "/s/f" + std::to_string(i), std::to_string(i));
  }
  const std::unique_ptr<FileTree> tree = builder.finish();
  for (int i = 0; i < 3000; ++i) {
    const int dir = (i * 7919) % 97;
    const auto text = tree->read("d" + std::to_string(dir) + "/s/f" + std::to_string(i));
    ASSERT_TRUE(text.ok()) << i;
    EXPECT_EQ(*text, std::to_string(i));
  }
  const auto top = tree->list("");
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->size(), 97u);
  std::size_t listed = 0;
  for (const DirEntry& entry : *top) {
    EXPECT_EQ(entry.kind, DirEntry::Kind::Dir);
    listed += tree->list(entry.name + "/s")->size();
  }
  EXPECT_EQ(listed, 3000u);
}

}  // namespace
}  // namespace netdoctor
