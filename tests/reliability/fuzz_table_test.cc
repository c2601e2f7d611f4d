// Keeps the fuzzing set-up honest: every parser kind has a harness and seeds, and every saved
// crasher (tests/reliability/crashers/<harness>-*) still runs cleanly through the same entry
// points its harness used.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "model/loader.h"
#include "parsers/registry.h"
#include "tests/reliability/reliability_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;

std::string harness_of(std::string_view kind) {
  std::string id(kind);
  std::replace(id.begin(), id.end(), '-', '_');
  return "fuzz_parser_" + id;
}

TEST(FuzzTable, EveryParserKindHasAHarnessAndSeeds) {
  const std::string cmake = read_text(source_dir() + "/fuzz/CMakeLists.txt");
  for (const auto& kind : parsers::parser_kinds()) {
    const std::string word = " " + std::string(kind.name);
    EXPECT_TRUE(cmake.find(word + " ") != std::string::npos ||
                cmake.find(word + "\n") != std::string::npos ||
                cmake.find(word + ")") != std::string::npos)
        << kind.name << " is missing from NETDOCTOR_FUZZ_PARSER_KINDS";
    const fs::path seeds = fs::path(source_dir()) / "fuzz" / "corpus" / harness_of(kind.name);
    EXPECT_TRUE(fs::is_directory(seeds) && !fs::is_empty(seeds)) << "no seeds in " << seeds;
  }
}

// Each parser on the classic hostile inputs: returns (a record or an Error), promptly.
TEST(ParsersOnHostileText, EveryKindSurvivesGarbageHugeLinesAndHostileNumbers) {
  std::string binary(1u << 16, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) {
    binary[i] = static_cast<char>((i * 2654435761u) >> 13);
  }
  const std::vector<std::string> inputs = {
      "",
      "\n\n\n",
      binary,
      std::string(8u << 20, 'x'),
      "rx_packets: " + std::string(4u << 20, '9'),
      "\xff\xfe\xfd invalid utf-8 \xc3\x28 : \xe2\x82\n",
      "rx_packets: 18446744073709551616\ntx_packets: -5\nrx_bytes: nan\ntx_bytes: 1e400\n",
      "Stratum: 18446744073709551616\nSystem time : nan seconds fast of NTP time\n"
      "Frequency: 1e400 ppm slow\n",
      "{\"lldp\": {\"interface\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}",
      std::string(100000, '[') + std::string(100000, ']'),
  };
  for (const auto& kind : parsers::parser_kinds()) {
    for (const std::string& text : inputs) {
      const auto start = std::chrono::steady_clock::now();
      auto json = parsers::parse_to_json(kind.name, text);
      if (json.ok()) {
        EXPECT_NO_THROW((void)json->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      } else {
        EXPECT_FALSE(json.error().describe().empty());
      }
      EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20))
          << kind.name << " on a " << text.size() << "-byte input";
    }
  }
}

TEST(SavedCrashers, StillRunCleanly) {
  const fs::path dir = fs::path(source_dir()) / "tests" / "reliability" / "crashers";
  if (!fs::is_directory(dir)) {
    GTEST_SKIP() << "no saved crashers";
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string bytes = read_text(entry.path().string());
    SCOPED_TRACE(name);
    for (const auto& kind : parsers::parser_kinds()) {
      if (name.rfind(harness_of(kind.name) + "-", 0) == 0) {
        auto json = parsers::parse_to_json(kind.name, bytes);
        if (json.ok()) {
          (void)json->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
      }
    }
    if (name.rfind("fuzz_bundle_tar-", 0) == 0) {
      const std::string sandbox = make_temp_dir("crasher");
      write_file(sandbox + "/crasher.tar", bytes);
      auto bundle = open_bundle(sandbox + "/crasher.tar");
      if (bundle.ok()) {
        EXPECT_TRUE(model::load_fabric(*bundle).ok());
      }
    }
  }
}

}  // namespace
}  // namespace netdoctor::testing
