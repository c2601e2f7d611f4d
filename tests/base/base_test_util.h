// Helpers for tests/base: writing real files, links and archives into temp directories.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace netdoctor::testing {

inline void write_file(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  ASSERT_TRUE(out.good()) << path;
}

inline void make_link(const std::string& target, const std::string& link) {
  std::filesystem::create_directories(std::filesystem::path(link).parent_path());
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0) << link;
}

struct TarMember {
  enum class Type { File, Dir, Symlink, Hardlink };
  std::string name;
  std::string data;  // content, or the link target
  Type type = Type::File;
};

enum class TarCompression { None, Gzip, Xz };

// Writes `members` as a ustar archive with libarchive.
inline void write_tar(const std::string& path, const std::vector<TarMember>& members,
                      TarCompression compression = TarCompression::None) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (compression == TarCompression::Gzip) {
    archive_write_add_filter_gzip(a);
  } else if (compression == TarCompression::Xz) {
    archive_write_add_filter_xz(a);
  }
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK) << archive_error_string(a);
  for (const TarMember& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_perm(e, 0644);
    if (m.type == TarMember::Type::File) {
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_size(e, static_cast<la_int64_t>(m.data.size()));
    } else if (m.type == TarMember::Type::Dir) {
      archive_entry_set_filetype(e, AE_IFDIR);
      archive_entry_set_perm(e, 0755);
    } else if (m.type == TarMember::Type::Symlink) {
      archive_entry_set_filetype(e, AE_IFLNK);
      archive_entry_set_symlink(e, m.data.c_str());
    } else {
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_hardlink(e, m.data.c_str());
      archive_entry_set_size(e, 0);
    }
    // WARN: a name not valid in this locale is still written, as bytes.
    ASSERT_GE(archive_write_header(a, e), ARCHIVE_WARN) << archive_error_string(a);
    if (m.type == TarMember::Type::File && !m.data.empty()) {
      archive_write_data(a, m.data.data(), m.data.size());
    }
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

// Extracts an archive into `dir` with libarchive (symlinks kept as links).
inline void extract_tar(const std::string& archive_path, const std::string& dir) {
  archive* in = archive_read_new();
  archive_read_support_filter_all(in);
  archive_read_support_format_all(in);
  ASSERT_EQ(archive_read_open_filename(in, archive_path.c_str(), 1 << 16), ARCHIVE_OK);
  archive* out = archive_write_disk_new();
  archive_write_disk_set_options(out,
                                 ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  archive_entry* e = nullptr;
  while (archive_read_next_header(in, &e) == ARCHIVE_OK) {
    const std::string full = dir + "/" + archive_entry_pathname(e);
    archive_entry_set_pathname(e, full.c_str());
    if (const char* hard = archive_entry_hardlink(e)) {
      const std::string target = dir + "/" + hard;
      archive_entry_set_hardlink(e, target.c_str());
    }
    ASSERT_EQ(archive_write_header(out, e), ARCHIVE_OK) << archive_error_string(out);
    const void* buf = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    while (archive_read_data_block(in, &buf, &size, &offset) == ARCHIVE_OK) {
      archive_write_data_block(out, buf, size, offset);
    }
    archive_write_finish_entry(out);
  }
  archive_write_free(out);
  archive_read_free(in);
}

}  // namespace netdoctor::testing
