#include "model/metric_values.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>

#include "base/strings.h"
#include "model/metric_names.h"
#include "tests/model/shipped_counter_rows.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

std::vector<std::pair<MetricKey, double>> entries(const MetricValues& values) {
  std::vector<std::pair<MetricKey, double>> out;
  for (const auto& [key, value] : values) {
    out.emplace_back(key, value);
  }
  return out;
}

std::vector<std::pair<MetricKey, double>> entries(const std::map<MetricKey, double>& values) {
  return {values.begin(), values.end()};
}

TEST(MetricNames, EveryMetricOfTheShippedTsvIsKnown) {
  int checked = 0;
  for (const auto& fields : shipped_counter_rows()) {
    const std::string_view metric = trim(fields[3]).substr(0, trim(fields[3]).find('['));
    const auto id = known_metric_id(metric);
    ASSERT_TRUE(id) << metric << " is missing from model/metric_names.cc";
    EXPECT_EQ(known_metric_name(*id), metric);
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(MetricNames, UnknownNamesHaveNoId) {
  EXPECT_FALSE(known_metric_id("no_such_metric"));
  EXPECT_FALSE(known_metric_id(""));
  EXPECT_FALSE(known_metric_id("rx_packet"));        // a prefix of a known name
  EXPECT_TRUE(known_metric_id("queue_drop_bytes"));  // switch metrics too
}

TEST(MetricValues, BehavesAsAMapOfKeysInOrder) {
  MetricValues values;
  EXPECT_TRUE(values.empty());
  EXPECT_TRUE(values.emplace(MetricKey{"pfc_tx_pause_frames", 3}, 7.0).second);
  EXPECT_TRUE(values.emplace(MetricKey{"cnp_sent", -1}, 1.0).second);
  EXPECT_TRUE(values.emplace(MetricKey{"pfc_tx_pause_frames", 0}, 2.0).second);
  EXPECT_FALSE(values.emplace(MetricKey{"cnp_sent", -1}, 9.0).second);  // emplace keeps the old
  EXPECT_FALSE(values.try_emplace(MetricKey{"cnp_sent", -1}, 9.0).second);
  EXPECT_EQ(values.size(), 3u);
  EXPECT_DOUBLE_EQ(values.at(MetricKey{"cnp_sent", -1}), 1.0);
  EXPECT_FALSE(values.insert_or_assign(MetricKey{"cnp_sent", -1}, 4.0).second);
  EXPECT_DOUBLE_EQ(values.at(MetricKey{"cnp_sent", -1}), 4.0);
  values[MetricKey{"rx_bits", -1}] += 5.0;  // operator[] inserts zero first
  values[MetricKey{"rx_bits", -1}] += 5.0;
  EXPECT_DOUBLE_EQ(values.at(MetricKey{"rx_bits", -1}), 10.0);

  const auto all = entries(values);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].first, (MetricKey{"cnp_sent", -1}));
  EXPECT_EQ(all[1].first, (MetricKey{"pfc_tx_pause_frames", 0}));
  EXPECT_EQ(all[2].first, (MetricKey{"pfc_tx_pause_frames", 3}));
  EXPECT_EQ(all[3].first, (MetricKey{"rx_bits", -1}));

  EXPECT_EQ(values.count(MetricKey{"pfc_tx_pause_frames", 3}), 1u);
  EXPECT_EQ(values.count(MetricKey{"pfc_tx_pause_frames", 4}), 0u);
  EXPECT_EQ(values.find(MetricKey{"pfc_tx_pause_frames", 4}), values.end());
  EXPECT_DOUBLE_EQ(values.find(MetricKey{"pfc_tx_pause_frames", 3})->second, 7.0);
  EXPECT_EQ(values.get("pfc_tx_pause_frames", 0), 2.0);
  EXPECT_FALSE(values.get("pfc_rx_pause_frames", 0));
  EXPECT_THROW((void)values.at(MetricKey{"cnp_handled", -1}), std::out_of_range);

  EXPECT_EQ(values.erase(MetricKey{"pfc_tx_pause_frames", 0}), 1u);
  EXPECT_EQ(values.erase(MetricKey{"pfc_tx_pause_frames", 0}), 0u);
  EXPECT_EQ(values.size(), 3u);
  values.clear();
  EXPECT_TRUE(values.empty());
  EXPECT_EQ(values.begin(), values.end());
}

TEST(MetricValues, NamesOutsideTheTableAreKeptAndOrderedByText) {
  MetricValues values;
  values[MetricKey{"zz_custom", -1}] = 1.0;
  values[MetricKey{"cnp_sent", -1}] = 2.0;
  values[MetricKey{"aa_custom", 2}] = 3.0;
  values[MetricKey{"drops", 7}] = 4.0;
  values[MetricKey{"aa_custom", 1}] = 5.0;
  const auto all = entries(values);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].first, (MetricKey{"aa_custom", 1}));
  EXPECT_EQ(all[1].first, (MetricKey{"aa_custom", 2}));
  EXPECT_EQ(all[2].first, (MetricKey{"cnp_sent", -1}));
  EXPECT_EQ(all[3].first, (MetricKey{"drops", 7}));
  EXPECT_EQ(all[4].first, (MetricKey{"zz_custom", -1}));
  EXPECT_EQ(values.get("drops", 7), 4.0);
  EXPECT_FALSE(values.get("drops", 6));
  EXPECT_FALSE(values.get("other_custom", -1));
  const MetricValues copy = values;  // names held as text travel with a copy
  EXPECT_EQ(copy.get("zz_custom", -1), 1.0);
}

TEST(MetricValues, BuilderSortsAndKeepsTheFirstOfEqualKeys) {
  MetricValues::Builder builder;
  builder.add("tx_packets", -1, 1.0);
  builder.add("my_counter", 0, 2.0);
  builder.add("cnp_sent", -1, 3.0);
  builder.add("tx_packets", -1, 4.0);  // a second reading of the same metric: ignored
  builder.add("my_counter", 0, 5.0);
  const MetricValues values = std::move(builder).finish();
  const auto all = entries(values);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], (std::pair{MetricKey{"cnp_sent", -1}, 3.0}));
  EXPECT_EQ(all[1], (std::pair{MetricKey{"my_counter", 0}, 2.0}));
  EXPECT_EQ(all[2], (std::pair{MetricKey{"tx_packets", -1}, 1.0}));
}

// Random operations against std::map: the same answers and the same order throughout.
TEST(MetricValues, AgreesWithAStdMapUnderRandomOperations) {
  const std::vector<std::string> names = {
      "cnp_sent", "pfc_rx_pause_frames", "rx_bits", "custom_one", "queue_tx_bytes", "zzz", "a"};
  std::mt19937 random(7);
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  MetricValues values;
  std::map<MetricKey, double> reference;
  for (int step = 0; step < 4000; ++step) {
    const MetricKey key{names[pick(names.size())], static_cast<int>(pick(5)) - 1};
    const double value = static_cast<double>(step);
    switch (pick(5)) {
      case 0:
        EXPECT_EQ(values.emplace(key, value).second, reference.emplace(key, value).second);
        break;
      case 1:
        EXPECT_EQ(values.insert_or_assign(key, value).second,
                  reference.insert_or_assign(key, value).second);
        break;
      case 2:
        values[key] += value;
        reference[key] += value;
        break;
      case 3:
        EXPECT_EQ(values.erase(key), reference.erase(key));
        break;
      default:
        EXPECT_EQ(values.count(key), reference.count(key));
        break;
    }
    ASSERT_EQ(values.size(), reference.size());
  }
  EXPECT_EQ(entries(values), entries(reference));

  MetricValues::Builder builder;
  std::map<MetricKey, double> first_added;
  for (int step = 0; step < 500; ++step) {
    const MetricKey key{names[pick(names.size())], static_cast<int>(pick(5)) - 1};
    builder.add(key.name, key.index, static_cast<double>(step));
    first_added.try_emplace(key, static_cast<double>(step));
  }
  EXPECT_EQ(entries(std::move(builder).finish()), entries(first_added));
}

}  // namespace
}  // namespace netdoctor::model
