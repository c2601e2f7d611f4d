// open_and_load_bundle (model/streamed_load.h) gives exactly the fabric of open_bundle then
// load_fabric: for shared scenario archives, for one whose machines are scattered over the
// archive (read again whole), and for a truncated one (the break named, the rest loaded).
#include "model/streamed_load.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "base/bundle.h"
#include "base/tree_writer.h"
#include "model/loader.h"
#include "tests/model/fabric_dump.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

namespace fs = std::filesystem;

// A few shared scenarios (each is loaded three times): a fault on the hosts, one on the
// switches, a healthy fabric, link errors.
std::vector<std::string> scenario_archives() {
  std::vector<std::string> out;
  for (const char* name : {"pfc-storm", "buffer-exhaustion", "healthy", "link-errors"}) {
    const auto path = testing::shared_dir() + "/scenarios/" + name + ".tar.gz";
    if (fs::exists(path)) {
      out.push_back(path);
    }
  }
  return out;
}

nlohmann::json whole_load(const std::string& archive) {
  auto bundle = open_bundle(archive);
  EXPECT_TRUE(bundle.ok()) << bundle.error().describe();
  if (!bundle.ok()) {
    return {};
  }
  auto fabric = load_fabric(*bundle);
  EXPECT_TRUE(fabric.ok());
  return fabric.ok() ? testing::fabric_dump(*fabric) : nlohmann::json();
}

nlohmann::json streamed_load(const std::string& archive, int threads) {
  LoadOptions options;
  options.threads = threads;
  auto loaded = open_and_load_bundle(archive, options);
  EXPECT_TRUE(loaded.ok()) << loaded.error().describe();
  return loaded.ok() ? testing::fabric_dump(loaded->fabric) : nlohmann::json();
}

// Every file of `tree` with its path, depth first in name order.
void files_of(const FileTree& tree, const std::string& path,
              std::vector<std::pair<std::string, std::string>>& out) {
  auto entries = tree.list(path);
  ASSERT_TRUE(entries.ok()) << path;
  for (const auto& entry : *entries) {
    const std::string child = path.empty() ? entry.name : path + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      files_of(tree, child, out);
    } else if (entry.kind == DirEntry::Kind::File) {
      auto text = tree.read(child);
      ASSERT_TRUE(text.ok()) << child;
      out.emplace_back(child, *text);
    }
  }
}

void write_archive(const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& files) {
  auto writer = open_tar_gz_writer(path);
  ASSERT_TRUE(writer.ok());
  for (const auto& [name, content] : files) {
    ASSERT_TRUE((*writer)->write_file(name, content).ok()) << name;
  }
  ASSERT_TRUE((*writer)->finish().ok());
}

std::string pfc_storm() {
  return testing::shared_dir() + "/scenarios/pfc-storm.tar.gz";
}

TEST(StreamedLoad, ScenarioArchivesLoadAsWhenHeldWhole) {
  const auto archives = scenario_archives();
  ASSERT_FALSE(archives.empty());
  for (const auto& archive : archives) {
    const auto whole = whole_load(archive);
    EXPECT_EQ(streamed_load(archive, 1), whole) << archive;
    EXPECT_EQ(streamed_load(archive, 3), whole) << archive;
  }
}

TEST(StreamedLoad, MachinesScatteredOverTheArchiveLoadAsWhenHeldWhole) {
  auto packed = open_bundle(pfc_storm());
  ASSERT_TRUE(packed.ok());
  std::vector<std::pair<std::string, std::string>> files;
  files_of(*packed->tree, "", files);
  // Every machine's last file moved to the end: each machine's members are split in two.
  std::vector<std::pair<std::string, std::string>> scattered;
  std::vector<std::pair<std::string, std::string>> tails;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const bool last_of_dir =
        i + 1 == files.size() ||
        fs::path(files[i].first).parent_path() != fs::path(files[i + 1].first).parent_path();
    (last_of_dir && files[i].first.starts_with("hosts/") ? tails : scattered).push_back(files[i]);
  }
  scattered.insert(scattered.end(), tails.begin(), tails.end());
  const auto dir = testing::make_temp_dir("streamed-scattered");
  const auto archive = dir + "/scattered.tar.gz";
  write_archive(archive, scattered);
  EXPECT_EQ(streamed_load(archive, 2), whole_load(archive));
  fs::remove_all(dir);
}

TEST(StreamedLoad, TruncatedArchiveNamesTheBreakAndLoadsTheRestAsBefore) {
  auto packed = open_bundle(pfc_storm());
  ASSERT_TRUE(packed.ok());
  std::vector<std::pair<std::string, std::string>> files;
  files_of(*packed->tree, "", files);
  const auto dir = testing::make_temp_dir("streamed-truncated");
  const auto full = dir + "/full.tar.gz";
  write_archive(full, files);
  const auto archive = dir + "/cut.tar.gz";
  {
    const std::string bytes = testing::read_text(full);
    std::ofstream out(archive, std::ios::binary);
    out << bytes.substr(0, bytes.size() / 2);
  }
  const auto whole = whole_load(archive);
  LoadOptions options;
  options.threads = 2;
  auto loaded = open_and_load_bundle(archive, options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  EXPECT_EQ(testing::fabric_dump(loaded->fabric), whole);
  ASSERT_FALSE(loaded->bundle.problems.empty());
  const std::string first = loaded->bundle.problems.front().describe();
  EXPECT_NE(first.find("truncated or corrupt"), std::string::npos) << first;
  EXPECT_NE(first.find(archive), std::string::npos) << first;
  // Hosts before the break were loaded, as open_bundle loads them.
  EXPECT_FALSE(loaded->fabric.hosts.empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace netdoctor::model
