// The repo carries its own copy of shared/scenarios, shared/reference and shared/spec
// (tests/fixtures/shared) so that a clone tests on its own. Where the shared/ folder sits beside
// the checkout, the copy must match it file for file: a changed or added upstream file fails here
// until it is copied.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

namespace fs = std::filesystem;

// Regular files under root/<part>, as paths relative to root.
std::set<std::string> files_under(const fs::path& root, const std::string& part) {
  std::set<std::string> out;
  std::error_code error;
  fs::recursive_directory_iterator it(root / part, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file()) {
      out.insert(fs::relative(it->path(), root).string());
    }
  }
  return out;
}

TEST(FixturesSync, RepoCopyMatchesSharedFolderWhereItExists) {
  const fs::path upstream = upstream_shared_dir();
  const fs::path copy = source_dir() + "/tests/fixtures/shared";
  if (!fs::is_directory(upstream / "scenarios")) {
    GTEST_SKIP() << "no shared/ folder beside the checkout (" << upstream.string()
                 << "): the repo's fixtures are used as they are";
  }
  for (const std::string part : {"scenarios", "reference", "spec"}) {
    const auto theirs = files_under(upstream, part);
    const auto ours = files_under(copy, part);
    EXPECT_FALSE(ours.empty()) << "no fixtures under " << (copy / part).string();
    for (const auto& file : theirs) {
      if (ours.count(file) == 0) {
        ADD_FAILURE() << file << " is in " << upstream.string() << " but not in " << copy.string()
                      << ": copy it";
        continue;
      }
      EXPECT_EQ(read_text((upstream / file).string()), read_text((copy / file).string()))
          << file << " differs from " << (upstream / file).string();
    }
    for (const auto& file : ours) {
      EXPECT_EQ(theirs.count(file), 1U) << file << " is in the repo's copy but not upstream";
    }
  }
}

TEST(FixturesSync, TestsReadTheRepoCopyByDefault) {
  if (std::getenv("NETDOCTOR_SHARED_DIR") != nullptr) {
    GTEST_SKIP() << "NETDOCTOR_SHARED_DIR overrides the fixtures";
  }
  EXPECT_TRUE(fs::exists(shared_dir() + "/scenarios/expected.json")) << shared_dir();
}

}  // namespace
}  // namespace netdoctor::testing
