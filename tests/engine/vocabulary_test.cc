// One vocabulary: the probe ids, cost classes, reads and signals are defined once, by the
// probes in the registry. The hand-kept lists elsewhere are checked against it here, so none
// can drift: docs/signals.md (what an operator reads) and tests/kb/documented_probes.h (the kb
// suite's stand-in, since the kb tests must not link the probes).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "probes/probe.h"
#include "tests/kb/documented_probes.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

struct DocumentedRow {
  std::string cost;
  std::set<std::string> reads;
  std::set<std::string> backticked;  // every `word` of the signals cell
};

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  const auto last = text.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// The table rows of docs/signals.md: | `id` | cost | reads, ... | `signal` (meaning), ... |
std::map<std::string, DocumentedRow> signals_md() {
  std::map<std::string, DocumentedRow> rows;
  std::istringstream in(
      netdoctor::testing::read_text(netdoctor::testing::source_dir() + "/docs/signals.md"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) {
      continue;
    }
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      cells.push_back(trimmed(cell));
    }
    if (cells.size() < 4) {
      ADD_FAILURE() << "docs/signals.md: a row without four cells: " << line;
      continue;
    }
    DocumentedRow doc;
    doc.cost = cells[1].substr(0, cells[1].find(' '));
    std::istringstream reads(cells[2]);
    for (std::string read; std::getline(reads, read, ',');) {
      doc.reads.insert(trimmed(read));
    }
    for (std::size_t open = cells[3].find('`'); open != std::string::npos;) {
      const std::size_t close = cells[3].find('`', open + 1);
      if (close == std::string::npos) {
        break;
      }
      doc.backticked.insert(cells[3].substr(open + 1, close - open - 1));
      open = cells[3].find('`', close + 1);
    }
    rows[cells[0].substr(1, cells[0].size() - 2)] = doc;
  }
  return rows;
}

probes::ProbeRegistry registry() {
  probes::ProbeRegistry out;
  probes::register_builtin_probes(out);
  return out;
}

TEST(Vocabulary, SignalsDocumentListsEveryProbeAsTheRegistryDefinesIt) {
  const auto registered = registry();
  const auto documented = signals_md();
  EXPECT_EQ(documented.size(), registered.all().size())
      << "docs/signals.md and the registry list different probes";
  for (const probes::Probe* probe : registered.all()) {
    const auto row = documented.find(probe->id());
    if (row == documented.end()) {
      ADD_FAILURE() << probe->id() << " is registered but has no row in docs/signals.md";
      continue;
    }
    EXPECT_EQ(row->second.cost, probes::to_string(probe->cost())) << probe->id();
    const auto reads = probe->reads();
    EXPECT_EQ(row->second.reads, std::set<std::string>(reads.begin(), reads.end()))
        << probe->id() << ": the reads of docs/signals.md differ from the probe's reads()";
    const auto signals = probe->signals();
    EXPECT_EQ(row->second.backticked, std::set<std::string>(signals.begin(), signals.end()))
        << probe->id() << ": the signals of docs/signals.md differ from the probe's signals()";
  }
}

TEST(Vocabulary, KbTestsStandInMatchesTheRegistry) {
  const auto registered = registry();
  const auto stand_in = kb::testing::documented_probes();
  ASSERT_EQ(stand_in.size(), registered.all().size());
  for (const probes::Probe* probe : registered.all()) {
    const kb::ProbeInfo* info = kb::find_probe(stand_in, probe->id());
    ASSERT_NE(info, nullptr) << probe->id() << " is missing from tests/kb/documented_probes.h";
    EXPECT_EQ(info->cost, probes::to_string(probe->cost())) << probe->id();
    EXPECT_EQ(info->signals, probe->signals()) << probe->id();
  }
}

}  // namespace
}  // namespace netdoctor::engine
