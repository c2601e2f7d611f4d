#include "tests/reliability/reliability_support.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cli/command.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace fs = std::filesystem;

void write_file(const std::string& path, const std::string& content) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  ASSERT_TRUE(out.good()) << path;
}

std::vector<std::string> make_sim_bundle(const std::string& dir, int hosts) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = cli::run_cli({"netdoctor", "sim", "--hosts", std::to_string(hosts), "--nics",
                                 "1", "--samples", "2", "--seed", "7", "--out", dir},
                                out, err);
  EXPECT_EQ(code, 0) << err.str();
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir + "/hosts")) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names.size(), static_cast<std::size_t>(hosts));
  return names;
}

namespace {

std::vector<std::string> sample_dirs(const std::string& dir, const std::string& host) {
  std::vector<std::string> samples;
  for (const auto& entry : fs::directory_iterator(dir + "/hosts/" + host)) {
    samples.push_back(entry.path().string());
  }
  std::sort(samples.begin(), samples.end());
  EXPECT_FALSE(samples.empty()) << host;
  return samples;
}

}  // namespace

std::string first_sample_dir(const std::string& dir, const std::string& host) {
  const auto samples = sample_dirs(dir, host);
  return samples.empty() ? dir : samples.front();
}

std::string last_sample_dir(const std::string& dir, const std::string& host) {
  const auto samples = sample_dirs(dir, host);
  return samples.empty() ? dir : samples.back();
}

std::vector<std::string> find_files_named(const std::string& dir, const std::string& name) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename() == name) {
      found.push_back(entry.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

namespace {

constexpr std::size_t k_block = 512;

void put_octal(char* field, std::size_t width, std::uint64_t value) {
  // width-1 octal digits and a NUL.
  std::string digits(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0 && value != 0;) {
    digits[i] = static_cast<char>('0' + (value & 7u));
    value >>= 3;
  }
  std::copy(digits.begin(), digits.end(), field);
}

bool fits_octal(std::uint64_t value, std::size_t width) {
  return value < (std::uint64_t{1} << (3 * (width - 1)));
}

}  // namespace

void RawTar::header(const std::string& name, char type, std::uint64_t size,
                    const std::string& link) {
  std::string block(k_block, '\0');
  if (name.size() > 100) {
    // GNU long name: a pseudo-member holding the name.
    header("././@LongLink", 'L', name.size() + 1, "");
    std::string payload = name + '\0';
    payload.resize((payload.size() + k_block - 1) / k_block * k_block, '\0');
    m_data += payload;
  }
  std::copy_n(name.begin(), std::min<std::size_t>(name.size(), 100), block.begin());
  put_octal(&block[100], 8, type == '5' ? 0755 : 0644);
  put_octal(&block[108], 8, 0);
  put_octal(&block[116], 8, 0);
  if (fits_octal(size, 12)) {
    put_octal(&block[124], 12, size);
  } else {
    block[124] = static_cast<char>(0x80);
    for (std::size_t i = 0; i < 8; ++i) {
      block[135 - i] = static_cast<char>((size >> (8 * i)) & 0xffu);
    }
  }
  put_octal(&block[136], 12, 1764662400);
  block[156] = type;
  std::copy_n(link.begin(), std::min<std::size_t>(link.size(), 100), block.begin() + 157);
  const std::string magic = "ustar";
  std::copy(magic.begin(), magic.end(), block.begin() + 257);
  block[263] = '0';
  block[264] = '0';
  std::fill_n(block.begin() + 148, 8, ' ');
  unsigned sum = 0;
  for (char c : block) {
    sum += static_cast<unsigned char>(c);
  }
  put_octal(&block[148], 7, sum);
  block[155] = ' ';
  m_data += block;
}

void RawTar::add_file(const std::string& name, const std::string& data) {
  add_file_declaring(name, data, data.size());
}

void RawTar::add_file_declaring(const std::string& name, const std::string& data,
                                std::uint64_t declared_size) {
  header(name, '0', declared_size, "");
  std::string payload = data;
  payload.resize((payload.size() + k_block - 1) / k_block * k_block, '\0');
  m_data += payload;
}

void RawTar::add_dir(const std::string& name) {
  header(name, '5', 0, "");
}

void RawTar::add_symlink(const std::string& name, const std::string& target) {
  header(name, '2', 0, target);
}

void RawTar::add_tree(const std::string& dir, const std::string& prefix) {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    const std::string name = prefix + "/" + fs::relative(p, dir).string();
    if (fs::is_directory(fs::symlink_status(p))) {
      add_dir(name + "/");
    } else if (fs::is_regular_file(fs::symlink_status(p))) {
      add_file(name, read_text(p.string()));
    }
  }
}

std::string RawTar::bytes(bool truncate_end) const {
  return truncate_end ? m_data : m_data + std::string(2 * k_block, '\0');
}

std::string gzip(const std::string& data) {
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_raw(a);
  std::string out(data.size() + (1u << 20), '\0');
  std::size_t used = 0;
  EXPECT_EQ(archive_write_open_memory(a, out.data(), out.size(), &used), ARCHIVE_OK);
  archive_entry* e = archive_entry_new();
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_pathname(e, "data");
  archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
  EXPECT_EQ(archive_write_header(a, e), ARCHIVE_OK) << archive_error_string(a);
  EXPECT_EQ(archive_write_data(a, data.data(), data.size()), static_cast<la_ssize_t>(data.size()));
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  out.resize(used);
  return out;
}

Canary::Canary(const std::string& dir) : m_dir(dir), m_path(dir + "/canary-secret") {
  m_content = "CANARY-4242-must-never-be-read\n";
  write_file(m_path, m_content);
  m_mtime = fs::last_write_time(m_path);
  m_listing = listing();
}

std::vector<std::string> Canary::listing() const {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string Canary::check() const {
  std::string problems;
  if (read_text(m_path) != m_content) {
    problems += "canary content changed; ";
  }
  if (fs::last_write_time(m_path) != m_mtime) {
    problems += "canary rewritten; ";
  }
  if (listing() != m_listing) {
    problems += "files appeared or vanished next to the canary; ";
  }
  return problems;
}

}  // namespace netdoctor::testing
