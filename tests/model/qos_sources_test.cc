// A NIC's QoS configuration comes from mlnx_qos where it was captured, else from iproute2's dcb
// (any driver), text or JSON; the NIC records which tool it was read with.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/mem_bundle.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

const std::string k_ib = "/sys/class/infiniband/";

void add_nic(MemBundle& b, const std::string& device, const std::string& netdev,
             const std::string& ifindex) {
  b.file("node01", "0", k_ib + device + "/ports/1/state", "4: ACTIVE\n");
  b.file("node01", "0", k_ib + device + "/device/net/" + netdev + "/ifindex", ifindex + "\n");
}

const Nic& nic_named(const Fabric& fabric, const std::string& device) {
  for (const auto& nic : fabric.hosts.at(0).nics) {
    if (nic.device == device) {
      return nic;
    }
  }
  throw std::runtime_error("no NIC " + device);
}

Fabric load_capture() {
  MemBundle b;
  b.time("node01", "0", 10.0);
  add_nic(b, "bnxt_re0", "ens1f0np0", "3");
  add_nic(b, "bnxt_re1", "ens2f0np0", "4");
  add_nic(b, "mlx5_0", "ens3f0np0", "5");
  add_nic(b, "bnxt_re2", "ens4f0np0", "6");
  // bnxt_re0: text outputs, one per object.
  b.command("node01", "0", {"dcb", "pfc", "show", "dev", "ens1f0np0"},
            "pfc-cap 8 macsec-bypass off delay 0\n"
            "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off\n");
  b.command("node01", "0", {"dcb", "apptrust", "show", "dev", "ens1f0np0"}, "order dscp pcp\n");
  b.command("node01", "0", {"dcb", "app", "show", "dev", "ens1f0np0"}, "dscp-prio AF31:3 CS6:6\n");
  // bnxt_re1: JSON with statistics, PFC off on the RoCE priority, trusting PCP.
  b.command("node01", "0", {"dcb", "-j", "-s", "pfc", "show", "dev", "ens2f0np0"},
            R"({"pfc_cap":8,"macsec_bypass":false,"delay":0,)"
            R"("prio_pfc":[false,false,false,false,false,false,false,false],)"
            R"("requests":[0,0,0,0,0,0,0,0],"indications":[0,0,0,0,0,0,0,0]})");
  b.command("node01", "0", {"dcb", "-j", "apptrust", "show", "dev", "ens2f0np0"},
            R"({"order":["pcp"]})");
  // mlx5_0: mlnx_qos wins over dcb where both were captured.
  b.command("node01", "0", {"mlnx_qos", "-i", "ens3f0np0"},
            "DCBX mode: OS controlled\nPriority trust state: dscp\nPFC configuration:\n"
            "\tpriority    0   1   2   3   4   5   6   7\n"
            "\tenabled     0   0   0   1   0   0   0   0   \n");
  b.command("node01", "0", {"dcb", "pfc", "show", "dev", "ens3f0np0"},
            "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off\n");
  // bnxt_re2: dcb failed on this kernel: recorded as malformed, nothing guessed.
  b.command("node01", "0", {"dcb", "pfc", "show", "dev", "ens4f0np0"},
            "Attribute read: Operation not supported\n");
  auto fabric = load_fabric(b.build(), LoadOptions{});
  if (!fabric.ok()) {
    throw std::runtime_error(fabric.error().describe());
  }
  return std::move(fabric).value();
}

TEST(QosSources, DcbTextGivesPfcTrustAndDscpMap) {
  const Fabric fabric = load_capture();
  const Nic& nic = nic_named(fabric, "bnxt_re0");
  EXPECT_EQ(nic.qos.tool, source::k_dcb);
  EXPECT_EQ(nic.qos.pfc_enabled[3], true);
  EXPECT_EQ(nic.qos.pfc_enabled[0], false);
  EXPECT_EQ(nic.qos.trust, "dscp");
  EXPECT_EQ(nic.qos.dscp_to_priority.at(26), 3);
  EXPECT_EQ(nic.sources.at(source::k_dcb).availability, Availability::Observed);
  EXPECT_EQ(nic.qos_tool(), "dcb");
}

TEST(QosSources, DcbJsonWithStatisticsAndPcpTrust) {
  const Fabric fabric = load_capture();
  const Nic& nic = nic_named(fabric, "bnxt_re1");
  EXPECT_EQ(nic.qos.tool, source::k_dcb);
  EXPECT_EQ(nic.qos.pfc_enabled[3], false);
  EXPECT_EQ(nic.qos.trust, "pcp");
}

TEST(QosSources, MlnxQosIsPreferredWhereBothWereCaptured) {
  const Fabric fabric = load_capture();
  const Nic& nic = nic_named(fabric, "mlx5_0");
  EXPECT_EQ(nic.qos.tool, source::k_mlnx_qos);
  EXPECT_EQ(nic.qos.pfc_enabled[3], true);
}

TEST(QosSources, AFailedDcbIsMalformedAndNamesTheFile) {
  const Fabric fabric = load_capture();
  const Nic& nic = nic_named(fabric, "bnxt_re2");
  EXPECT_TRUE(nic.qos.tool.empty());
  EXPECT_FALSE(nic.qos.pfc_enabled[3].has_value());
  ASSERT_EQ(nic.sources.count(source::k_dcb), 1u);
  EXPECT_EQ(nic.sources.at(source::k_dcb).availability, Availability::Malformed);
  EXPECT_NE(nic.sources.at(source::k_dcb).detail.find("dcb"), std::string::npos);
  bool named = false;
  for (const auto& problem : fabric.problems) {
    named = named || problem.error.describe().find("dcb") != std::string::npos;
  }
  EXPECT_TRUE(named) << "a problem names the dcb capture";
}

}  // namespace
}  // namespace netdoctor::model
