// Host lists as Slurm and ClusterShell write them; the expected lists are what
// `nodeset -e` (ClusterShell 1.9) prints for the same input.
#include "collect/hostlist.h"

#include <gtest/gtest.h>

#include "base/strings.h"

namespace netdoctor::collect {
namespace {

std::string expand(const std::string& list) {
  auto hosts = expand_hostlist(list);
  if (!hosts.ok()) {
    return "ERROR: " + hosts.error().message;
  }
  return join(*hosts, " ");
}

TEST(Hostlist, PlainNamesAndCommaLists) {
  EXPECT_EQ(expand("node1"), "node1");
  EXPECT_EQ(expand("node1,node2,login.example.com"), "node1 node2 login.example.com");
}

TEST(Hostlist, ZeroPaddedRangeKeepsWidth) {
  // nodeset -e node[01-03] -> node01 node02 node03
  EXPECT_EQ(expand("node[01-03]"), "node01 node02 node03");
  // nodeset -e n[098-101] -> n098 n099 n100 n101
  EXPECT_EQ(expand("n[098-101]"), "n098 n099 n100 n101");
  // nodeset -e n[8-11] -> n8 n9 n10 n11 (no padding without a leading zero)
  EXPECT_EQ(expand("n[8-11]"), "n8 n9 n10 n11");
}

TEST(Hostlist, CommaListInsideBrackets) {
  // nodeset -e n[1,3,5-7] -> n1 n3 n5 n6 n7
  EXPECT_EQ(expand("n[1,3,5-7]"), "n1 n3 n5 n6 n7");
}

TEST(Hostlist, SeveralBracketGroupsFormTheProduct) {
  // nodeset -e rack[1-2]-node[01-03]
  EXPECT_EQ(expand("rack[1-2]-node[01-03]"),
            "rack1-node01 rack1-node02 rack1-node03 rack2-node01 rack2-node02 rack2-node03");
}

TEST(Hostlist, TopLevelListOfPatternsWithSuffixes) {
  // nodeset -e "gpu[1-2]-ib,cpu[3-4]"
  EXPECT_EQ(expand("gpu[1-2]-ib,cpu[3-4]"), "gpu1-ib gpu2-ib cpu3 cpu4");
}

TEST(Hostlist, StepRange) {
  // nodeset -e n[1-9/4] -> n1 n5 n9
  EXPECT_EQ(expand("n[1-9/4]"), "n1 n5 n9");
}

TEST(Hostlist, IssueExampleCounts) {
  auto hosts = expand_hostlist("node[01-32],gpu-a[001-128]");
  ASSERT_TRUE(hosts.ok());
  ASSERT_EQ(hosts->size(), 160u);
  EXPECT_EQ(hosts->front(), "node01");
  EXPECT_EQ((*hosts)[31], "node32");
  EXPECT_EQ((*hosts)[32], "gpu-a001");
  EXPECT_EQ(hosts->back(), "gpu-a128");
}

TEST(Hostlist, RepeatsAreDropped) {
  EXPECT_EQ(expand("n[1-3],n2,n[3-4]"), "n1 n2 n3 n4");
}

TEST(Hostlist, MalformedListsAreRefused) {
  for (const char* bad : {"n[1-3", "n1-3]", "n[3-1]", "n[a-b]", "n[[1-2]]", "", ",", "@group",
                          "n!1", "n[1-3/0]", "-n1", "n[1-99999999]"}) {
    EXPECT_FALSE(expand_hostlist(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace netdoctor::collect
