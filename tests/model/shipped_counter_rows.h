// The rows of model/counters.tsv read independently of model/counter_table, so tests can check
// the loaded table and the metric name list against the file as shipped.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/strings.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {

// Each non-comment row as its six tab-separated fields; a row of another width fails the test.
inline std::vector<std::vector<std::string>> shipped_counter_rows() {
  const auto text = testing::read_text(testing::source_dir() + "/model/counters.tsv");
  std::vector<std::vector<std::string>> rows;
  for (auto line : split_lines(text)) {
    if (trim(line).empty() || trim(line).front() == '#') {
      continue;
    }
    const auto fields = split(line, '\t');
    EXPECT_EQ(fields.size(), 6u) << line;
    if (fields.size() == 6) {
      rows.emplace_back(fields.begin(), fields.end());
    }
  }
  return rows;
}

}  // namespace netdoctor::model
