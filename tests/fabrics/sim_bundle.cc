#include "tests/fabrics/sim_bundle.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {

SimBundle simulate(const std::string& tag, const std::string& flags) {
  SimBundle bundle;
  bundle.path = make_temp_dir("sim-" + tag) + "/bundle";
  std::vector<std::string> argv = {"sim"};
  std::istringstream in(flags);
  for (std::string word; in >> word;) {
    argv.push_back(word);
  }
  argv.insert(argv.end(), {"--out", bundle.path});
  const RunOutput result = run_netdoctor(argv, RunOptions{});
  EXPECT_EQ(result.exit_code, 0) << "netdoctor sim " << flags << "\n" << result.err;
  if (result.exit_code == 0) {
    bundle.expected = nlohmann::json::parse(read_text(bundle.path + ".expected.json"));
  }
  return bundle;
}

}  // namespace netdoctor::testing
