// Helpers for the bad-input suite: synthetic bundles, raw tar archives (written byte by byte
// so that hostile members are exactly what an attacker would ship), running the real binary
// without a shell, and canaries that prove nothing outside the bundle was read or written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/run_netdoctor.h"

namespace netdoctor::testing {

// Writes `content` at `path`, creating parent directories.
void write_file(const std::string& path, const std::string& content);

// A small simulated bundle (`netdoctor sim`, in process) of `hosts` hosts with one NIC each and
// two samples, at `dir`; returns the host names in order.
std::vector<std::string> make_sim_bundle(const std::string& dir, int hosts);

// The first sample directory of `host` in the bundle at `dir` ("<dir>/hosts/<host>/<sample>").
std::string first_sample_dir(const std::string& dir, const std::string& host);
// The last one, in name (= time) order.
std::string last_sample_dir(const std::string& dir, const std::string& host);

// Every regular file under `dir` with `name` as its last component.
std::vector<std::string> find_files_named(const std::string& dir, const std::string& name);

// A raw tar archive (ustar, optionally gzip'd). Sizes may lie: `declared_size` overrides the
// header's size field (base-256 when it does not fit in octal), to build bombs and truncations.
class RawTar {
 public:
  void add_file(const std::string& name, const std::string& data);
  void add_file_declaring(const std::string& name, const std::string& data,
                          std::uint64_t declared_size);
  void add_dir(const std::string& name);
  void add_symlink(const std::string& name, const std::string& target);
  // Every regular file and directory under `dir`, named "<prefix>/<relative path>".
  void add_tree(const std::string& dir, const std::string& prefix);
  // The archive, with the end-of-archive blocks unless `truncate_end`.
  std::string bytes(bool truncate_end = false) const;

 private:
  void header(const std::string& name, char type, std::uint64_t size, const std::string& link);
  std::string m_data;
};

// gzip of `data` (libarchive's raw format with the gzip filter).
std::string gzip(const std::string& data);

// A file outside the bundle whose content and mtime must survive the test, and a listing of
// the directory around it to show that no file appeared there.
class Canary {
 public:
  explicit Canary(const std::string& dir);
  const std::string& path() const { return m_path; }
  // Empty when untouched; otherwise what changed.
  std::string check() const;

 private:
  std::vector<std::string> listing() const;
  std::string m_dir;
  std::string m_path;
  std::string m_content;
  std::filesystem::file_time_type m_mtime;
  std::vector<std::string> m_listing;
};

}  // namespace netdoctor::testing
