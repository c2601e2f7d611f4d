#include "model/counter_table.h"

#include <gtest/gtest.h>

#include "base/strings.h"
#include "tests/model/shipped_counter_rows.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

const CounterTable& builtin() {
  static const CounterTable table = [] {
    auto loaded = CounterTable::builtin();
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().describe());
    return loaded.ok() ? std::move(loaded).value() : CounterTable{};
  }();
  return table;
}

TEST(CounterTable, BuiltinTableLoadsWithEveryVendor) {
  const auto vendors = builtin().vendors();
  EXPECT_NE(std::find(vendors.begin(), vendors.end(), "mlx5"), vendors.end());
  EXPECT_NE(std::find(vendors.begin(), vendors.end(), "bnxt"), vendors.end());
  EXPECT_NE(std::find(vendors.begin(), vendors.end(), "any"), vendors.end());
  EXPECT_GT(builtin().row_count(), 100u);
}

TEST(CounterTable, EveryRowOfTheShippedTsvMapsForItsVendor) {
  // Read the tsv independently and check each row (with {p}/{q} = 3) resolves as written.
  int checked = 0;
  for (const auto& fields : shipped_counter_rows()) {
    const std::string line = fields[0] + " " + fields[2];
    std::string counter(fields[2]);
    std::string metric(fields[3]);
    int index = -1;
    for (std::string token : {"{p}", "{q}"}) {
      if (auto pos = counter.find(token); pos != std::string::npos) {
        counter.replace(pos, 3, "3");
        metric.resize(metric.size() - 5);  // "[{p}]"
        index = 3;
      }
    }
    auto source = parse_counter_source(fields[1]);
    ASSERT_TRUE(source) << line;
    auto mapped = builtin().map(fields[0], *source, counter, 10);
    ASSERT_TRUE(mapped) << line;
    EXPECT_EQ(mapped->first, (MetricKey{metric, index})) << line;
    EXPECT_DOUBLE_EQ(mapped->second, 10.0 * *parse_double(fields[5])) << line;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(CounterTable, CounterNamesAreThoseOfTheWantedMetrics) {
  const auto all = builtin().counter_names(CounterSource::Ethtool);
  const auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  EXPECT_TRUE(has(all, "rx_prio5_pause"));
  EXPECT_TRUE(has(all, "rx_prio5_bytes"));
  const auto wanted = builtin().counter_names(CounterSource::Ethtool, [](const MetricKey& key) {
    return key.index < 0 || key.index == 3 || key.name == "pfc_rx_pause_frames";
  });
  EXPECT_TRUE(has(wanted, "rx_prio5_pause"));   // mlx5's pfc_rx_pause_frames[5]
  EXPECT_FALSE(has(wanted, "rx_prio5_bytes"));  // prio_rx_bytes[5]
  EXPECT_TRUE(has(wanted, "rx_prio3_bytes"));
  EXPECT_TRUE(has(wanted, "rx_out_of_buffer"));
  EXPECT_LT(wanted.size(), all.size());
}

TEST(CounterTable, Mlx5AndBnxtPfcCountersMeetInOneMetric) {
  auto mlx5 = builtin().map("mlx5", CounterSource::Ethtool, "tx_prio3_pause", 7);
  auto bnxt = builtin().map("bnxt", CounterSource::Ethtool, "tx_pfc_ena_frames_pri3", 7);
  ASSERT_TRUE(mlx5 && bnxt);
  EXPECT_EQ(mlx5->first, (MetricKey{"pfc_tx_pause_frames", 3}));
  EXPECT_EQ(bnxt->first, mlx5->first);
  auto duration = builtin().map("mlx5", CounterSource::Ethtool, "rx_prio7_pause_duration", 5);
  ASSERT_TRUE(duration);
  EXPECT_EQ(duration->first, (MetricKey{"pfc_rx_pause_us", 7}));
}

TEST(CounterTable, IbDataCountersAreScaledToBytesForAnyVendor) {
  for (std::string vendor : {"mlx5", "bnxt", "someone-new"}) {
    auto mapped = builtin().map(vendor, CounterSource::IbCounters, "port_xmit_data", 1000);
    ASSERT_TRUE(mapped) << vendor;
    EXPECT_EQ(mapped->first, (MetricKey{"ib_tx_bytes", -1}));
    EXPECT_DOUBLE_EQ(mapped->second, 4000.0);
  }
}

TEST(CounterTable, VendorRowsWinAndVendorsDoNotLeakIntoEachOther) {
  // bnxt_re's hw_counters rx_bytes is RDMA traffic; for mlx5 it is not a mapped hw counter.
  auto bnxt = builtin().map("bnxt", CounterSource::HwCounters, "rx_bytes", 1);
  ASSERT_TRUE(bnxt);
  EXPECT_EQ(bnxt->first.name, "rdma_rx_bytes");
  EXPECT_FALSE(builtin().map("mlx5", CounterSource::HwCounters, "rx_bytes", 1));
  // The shared RDMA names reach bnxt through the "any" rows.
  auto seq = builtin().map("bnxt", CounterSource::HwCounters, "packet_seq_err", 1);
  auto old_seq = builtin().map("bnxt", CounterSource::HwCounters, "seq_err_naks_rcvd", 1);
  ASSERT_TRUE(seq && old_seq);
  EXPECT_EQ(seq->first, old_seq->first);
  EXPECT_FALSE(builtin().map("mlx5", CounterSource::Ethtool, "rx_pfc_ena_frames_pri3", 1));
}

TEST(CounterTable, UnknownCountersAreIgnored) {
  EXPECT_FALSE(builtin().map("mlx5", CounterSource::Ethtool, "rx0_xdp_drop", 1));
  EXPECT_FALSE(builtin().map("mlx5", CounterSource::Ethtool, "rx_prio8_pause", 1));
  EXPECT_FALSE(builtin().map("unknown", CounterSource::Ethtool, "tx_prio3_pause", 1));
  EXPECT_EQ(builtin().map_for("nobody", CounterSource::NetdevStats).find("rx_bytes")->key.name,
            "netdev_rx_bytes");
}

void expect_rejected(const std::string& text, const std::string& where, const std::string& why) {
  auto table = CounterTable::parse(text, "t.tsv");
  ASSERT_FALSE(table.ok()) << text;
  EXPECT_NE(table.error().message.find(where), std::string::npos) << table.error().message;
  EXPECT_NE(table.error().message.find(why), std::string::npos) << table.error().message;
}

TEST(CounterTable, BadRowsAreRejectedWithFileAndLine) {
  const std::string good = "# header\nmlx5\tethtool\trx_x\tfoo\tcount\t1\n";
  EXPECT_TRUE(CounterTable::parse(good, "t.tsv").ok());
  expect_rejected(good + "mlx5\tethtool\trx_y\tfoo\tcount\n", "t.tsv:3", "6 TAB-separated");
  expect_rejected(good + "\nmlx5\tsnmp\trx_y\tfoo\tcount\t1\n", "t.tsv:4", "unknown source");
  expect_rejected(good + "mlx5\tethtool\trx_{p}_y\tfoo\tcount\t1\n", "t.tsv:3", "[{p}]");
  expect_rejected(good + "mlx5\tethtool\trx_{x}\tfoo\tcount\t1\n", "t.tsv:3", "placeholder");
  expect_rejected(good + "mlx5\tethtool\trx_y\tFoo Bar\tcount\t1\n", "t.tsv:3", "bad metric");
  expect_rejected(good + "mlx5\tethtool\trx_y\tfoo2\tparsecs\t1\n", "t.tsv:3", "unknown unit");
  expect_rejected(good + "mlx5\tethtool\trx_y\tfoo2\tcount\t-4\n", "t.tsv:3", "scale");
  expect_rejected(good + "mlx5\tethtool\trx_x\tbar\tcount\t1\n", "t.tsv:3", "line 2");
  expect_rejected("# only comments\n", "t.tsv", "no rows");
}

TEST(CounterTable, PriorityPatternsExpandToEightExactNames) {
  auto table = CounterTable::parse("x\tethtool\tp{p}_drops\tdrops[{p}]\tpackets\t1\n", "t.tsv");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->map_for("x", CounterSource::Ethtool).size(), 8u);
  EXPECT_EQ(table->map("x", CounterSource::Ethtool, "p7_drops", 1)->first, (MetricKey{"drops", 7}));
}

}  // namespace
}  // namespace netdoctor::model
