#include "tests/support/test_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::string make_temp_dir(const std::string& tag) {
  namespace fs = std::filesystem;
  // Under the build tree, not /tmp: scripts/test empties it before each run, so thousands of
  // test folders never pile up in the machine's temp dir.
  const fs::path parent = fs::path(NETDOCTOR_BINARY_DIR) / "test-tmp";
  std::error_code error;
  fs::create_directories(parent, error);
  std::string pattern = (parent / ("netdoctor-test-" + tag + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
  }
  return pattern;
}

}  // namespace netdoctor::testing
