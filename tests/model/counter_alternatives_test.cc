// Rows of model/counters.tsv that share a metric are alternatives in table order: the first
// row's counter wins wherever a capture has it, whatever order the capture lists counters in.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/counter_table.h"
#include "model/loader.h"
#include "tests/model/mem_bundle.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

TEST(CounterAlternatives, RowsSharingAMetricAreRankedInTableOrder) {
  auto table = CounterTable::parse(
      "x\tethtool\tnew_name\tport_rx_bytes\tbytes\t1\n"
      "x\tethtool\told_name\tport_rx_bytes\tbytes\t1\n"
      "x\tethtool\tother\tport_tx_bytes\tbytes\t1\n",
      "test.tsv");
  ASSERT_TRUE(table.ok()) << table.error().describe();
  const auto& map = table->map_for("x", CounterSource::Ethtool);
  EXPECT_EQ(map.find("new_name")->rank, 0);
  EXPECT_EQ(map.find("old_name")->rank, 1);
  EXPECT_EQ(map.find("other")->rank, 0);
}

// A Broadcom NIC whose ethtool -S prints the per-CoS bytes before the per-priority ones (as
// bnxt_en does), and an older one with per-CoS bytes only.
double tx_bytes_on_priority_3(const std::string& ethtool_s) {
  MemBundle b;
  b.time("node01", "0", 10.0);
  b.file("node01", "0", "/sys/class/infiniband/bnxt_re0/ports/1/state", "4: ACTIVE\n");
  b.file("node01", "0", "/sys/class/infiniband/bnxt_re0/device/net/ens1f0np0/ifindex", "3\n");
  b.command("node01", "0", {"ethtool", "-i", "ens1f0np0"},
            "driver: bnxt_en\nversion: 1.10.2\nfirmware-version: 230.0.157.0\n"
            "bus-info: 0000:17:00.0\n");
  b.command("node01", "0", {"ethtool", "-S", "ens1f0np0"}, ethtool_s);
  auto fabric = load_fabric(b.build(), LoadOptions{});
  if (!fabric.ok() || fabric->hosts.empty() || fabric->hosts[0].nics.empty()) {
    throw std::runtime_error("the NIC did not load");
  }
  const auto& nic = fabric->hosts[0].nics[0];
  EXPECT_EQ(nic.vendor, "bnxt");
  return nic.samples.at(0).get(MetricKey{"prio_tx_bytes", 3}).value_or(-1.0);
}

TEST(CounterAlternatives, PerPriorityBytesWinOverPerCosAndCosStandsInWithoutThem) {
  EXPECT_EQ(tx_bytes_on_priority_3("NIC statistics:\n     tx_bytes_cos3: 111\n"
                                   "     tx_bytes_pri3: 222\n"),
            222.0);
  EXPECT_EQ(tx_bytes_on_priority_3("NIC statistics:\n     tx_bytes_cos3: 111\n"), 111.0);
}

}  // namespace
}  // namespace netdoctor::model
