// The tar reader (base/tar_tree.cc) reads the headers itself: every header form tar writers use
// must come out as the same tree. Archives here are written by libarchive in each format.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/file_tree.h"
#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

using testing::make_temp_dir;

struct Member {
  std::string name;
  std::string data;  // content or symlink target
  bool symlink = false;
};

// `format` is one of libarchive's archive_write_set_format_* functions.
std::string write_archive(const std::vector<Member>& members, int (*format)(archive*), bool gzip) {
  const std::string path = make_temp_dir("tar-formats") + (gzip ? "/a.tar.gz" : "/a.tar");
  archive* a = archive_write_new();
  format(a);
  if (gzip) {
    archive_write_add_filter_gzip(a);
  }
  EXPECT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK) << archive_error_string(a);
  for (const Member& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_perm(e, 0644);
    if (m.symlink) {
      archive_entry_set_filetype(e, AE_IFLNK);
      archive_entry_set_symlink(e, m.data.c_str());
    } else {
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_size(e, static_cast<la_int64_t>(m.data.size()));
    }
    EXPECT_GE(archive_write_header(a, e), ARCHIVE_WARN) << archive_error_string(a);
    if (!m.symlink && !m.data.empty()) {
      archive_write_data(a, m.data.data(), m.data.size());
    }
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return path;
}

std::string long_dir(std::size_t length) {
  std::string out = "b/hosts";
  while (out.size() < length) {
    out += "/component-" + std::to_string(out.size());
  }
  return out;
}

struct Format {
  const char* name;
  int (*set)(archive*);
};

class TarFormats : public ::testing::TestWithParam<Format> {};

TEST_P(TarFormats, LongNamesLinksLargeAndReplacedMembersReadBack) {
  const std::string deep = long_dir(230);    // over ustar's 100, within prefix + name
  const std::string deeper = long_dir(400);  // beyond ustar: pax or GNU long names only
  const bool ustar = std::string(GetParam().name) == "ustar";
  std::string big(3u << 20, 'x');  // several decompressed blocks; a large member
  big[12345] = 'y';
  std::vector<Member> members = {
      {"b/hosts/n1/0/captured_at", "1765811758.5\n"},
      {deep + "/mtu", "9000\n"},
      {"b/hosts/n1/0/big", big},
      {"b/hosts/n1/0/link", "captured_at", true},
      {"b/hosts/n1/0/dup", "first\n"},
      {"b/hosts/n1/0/dup", "second\n"},
  };
  if (!ustar) {
    members.push_back({deeper + "/speed", "400000\n"});
    members.push_back({"b/hosts/n1/0/longlink", "../../../../" + deep + "/mtu", true});
  }
  for (const bool gzip : {false, true}) {
    const std::string path = write_archive(members, GetParam().set, gzip);
    TarTreeReport report;
    auto tree = open_tar_tree(path, {}, &report);
    ASSERT_TRUE(tree.ok()) << tree.error().describe();
    EXPECT_TRUE(report.problems.empty()) << report.problems.front().describe();
    const FileTree& t = **tree;
    EXPECT_EQ(*t.read("b/hosts/n1/0/captured_at"), "1765811758.5\n");
    EXPECT_EQ(*t.read(deep + "/mtu"), "9000\n");
    EXPECT_EQ(*t.read("b/hosts/n1/0/big"), big);
    EXPECT_EQ(*t.read("b/hosts/n1/0/link"), "1765811758.5\n");
    EXPECT_EQ(*t.read("b/hosts/n1/0/dup"), "second\n");  // a later member replaces
    if (!ustar) {
      EXPECT_EQ(*t.read(deeper + "/speed"), "400000\n");
      EXPECT_EQ(*t.read("b/hosts/n1/0/longlink"), "9000\n");
    }
    auto listing = t.list("b/hosts/n1/0");
    ASSERT_TRUE(listing.ok());
    std::vector<std::string> names;
    for (const DirEntry& entry : *listing) {
      names.push_back(entry.name);
      if (entry.name == "link") {
        EXPECT_EQ(entry.kind, DirEntry::Kind::File);  // through the link
      }
    }
    std::vector<std::string> expected = {"big", "captured_at", "dup", "link"};
    if (!ustar) {
      expected.emplace_back("longlink");
    }
    EXPECT_EQ(names, expected);
    auto hosts = t.list("b/hosts");  // implicit parents, each listed once
    ASSERT_TRUE(hosts.ok());
    ASSERT_EQ(hosts->size(), 2u);
    EXPECT_EQ((*hosts)[0].name, "component-7");
    EXPECT_EQ((*hosts)[0].kind, DirEntry::Kind::Dir);
    EXPECT_EQ((*hosts)[1].name, "n1");
    EXPECT_EQ(t.read("b/hosts/n1/0/missing").error().code, ErrorCode::NotFound);
    EXPECT_EQ(t.read("b/hosts/n1/0/dup/x").error().code, ErrorCode::NotFound);
    EXPECT_EQ(t.read("b/hosts").error().code, ErrorCode::InvalidArgument);
  }
}

INSTANTIATE_TEST_SUITE_P(Writers, TarFormats,
                         ::testing::Values(Format{"ustar", archive_write_set_format_ustar},
                                           Format{"pax", archive_write_set_format_pax},
                                           Format{"gnutar", archive_write_set_format_gnutar}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(TarStream, CorruptGzipAfterSomeMembersKeepsThemAndReportsTheBreak) {
  std::vector<Member> members;
  for (int i = 0; i < 400; ++i) {
    members.push_back(
        {"b/f" + std::to_string(i), std::string(3000, static_cast<char>('a' + i % 26))});
  }
  const std::string path = write_archive(members, archive_write_set_format_pax_restricted, true);
  std::string bytes = testing::read_text(path);
  bytes.resize(bytes.size() / 2);  // cut mid-stream
  const std::string cut = path + ".cut.tar.gz";
  testing::write_file(cut, bytes);
  TarTreeReport report;
  auto tree = open_tar_tree(cut, {}, &report);
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].code, ErrorCode::Io);
  EXPECT_NE(report.problems[0].message.find("truncated or corrupt"), std::string::npos);
  EXPECT_EQ(*(*tree)->read("b/f0"), std::string(3000, 'a'));
}

}  // namespace
}  // namespace netdoctor
