#include "tests/support/test_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace netdoctor::testing {

std::string shared_dir() {
  if (const char* env = std::getenv("NETDOCTOR_SHARED_DIR")) {
    return env;
  }
  return NETDOCTOR_SHARED_DIR;
}

std::string upstream_shared_dir() {
  return NETDOCTOR_UPSTREAM_SHARED_DIR;
}

std::string source_dir() {
  return NETDOCTOR_SOURCE_DIR;
}

std::string netdoctor_binary() {
  return std::string(NETDOCTOR_BINARY_DIR) + "/cli/netdoctor";
}

std::string reference_file(const std::string& relative) {
  return shared_dir() + "/reference/" + relative;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read test data " << path;
    return {};
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

namespace {

// The folders this test process made. They are removed when it exits after every test passed
// (a simulated fleet is hundreds of MB, and a whole suite makes thousands of folders) and kept
// for a look when a test failed or NETDOCTOR_KEEP_TEST_TMP is set.
struct TempDirs {
  std::mutex mutex;
  std::vector<std::string> made;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

void remove_temp_dirs_if_passed() {
  if (std::getenv("NETDOCTOR_KEEP_TEST_TMP") != nullptr ||
      !::testing::UnitTest::GetInstance()->Passed()) {
    return;
  }
  TempDirs& dirs = temp_dirs();
  const std::lock_guard<std::mutex> lock(dirs.mutex);
  for (const std::string& dir : dirs.made) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
}

}  // namespace

std::string make_temp_dir(const std::string& tag) {
  namespace fs = std::filesystem;
  // Under the build tree (or NETDOCTOR_TEST_TMP), not /tmp: scripts/test empties it before each
  // run, so thousands of test folders never pile up in the machine's temp dir.
  // The list is made before the exit handler is registered, so it outlives the handler's run.
  TempDirs& dirs = temp_dirs();
  static const int registered = std::atexit(remove_temp_dirs_if_passed);
  (void)registered;
  const char* chosen = std::getenv("NETDOCTOR_TEST_TMP");  // scripts/test: a tmpfs when it can
  const fs::path parent = chosen != nullptr && *chosen != '\0'
                              ? fs::path(chosen)
                              : fs::path(NETDOCTOR_BINARY_DIR) / "test-tmp";
  std::error_code error;
  fs::create_directories(parent, error);
  std::string pattern = (parent / ("netdoctor-test-" + tag + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
    return pattern;
  }
  const std::lock_guard<std::mutex> lock(dirs.mutex);
  dirs.made.push_back(pattern);
  return pattern;
}

}  // namespace netdoctor::testing
