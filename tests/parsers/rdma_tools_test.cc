// The older `rdma link` form (more host RDMA tools follow).
#include <gtest/gtest.h>

#include "parsers/rdma_link.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

std::string reference(const char* name) {
  return read_text(reference_file(name));
}

// ---- rdma link: the older iproute2 form ---------------------------------------------------

TEST(RdmaLinkTest, OlderIndexPortForm) {
  auto links =
      parse_rdma_link("3/1: mlx5_1/1: state ACTIVE physical_state LINK_UP netdev ens803f1\n");
  ASSERT_TRUE(links.ok()) << links.error().describe();
  ASSERT_EQ(links->links.size(), 1u);
  const auto& link = links->links[0];
  EXPECT_EQ(link.device, "mlx5_1");
  EXPECT_EQ(link.port, 1u);
  EXPECT_EQ(link.index, 3u);
  EXPECT_EQ(link.state, "ACTIVE");
  EXPECT_EQ(link.physical_state, "LINK_UP");
  EXPECT_EQ(link.netdev, "ens803f1");
  EXPECT_FALSE(parse_rdma_link("3/x: mlx5_1/1: state ACTIVE\n").ok());
  EXPECT_FALSE(parse_rdma_link("3/1: mlx5_1/1 state ACTIVE\n").ok());  // no ':' after dev/port
}

TEST(RdmaLinkTest, AlignedColumnsReferenceStillParses) {
  auto links = parse_rdma_link(reference("rdma/rdma_link_gx10_dgxspark_aligned_columns.txt"));
  ASSERT_TRUE(links.ok()) << links.error().describe();
  ASSERT_EQ(links->links.size(), 4u);
  EXPECT_EQ(links->links[2].device, "roceP2p1s0f0");
  EXPECT_EQ(links->links[2].netdev, "enP2p1s0f0np0");
  EXPECT_EQ(links->links[2].state, "ACTIVE");
  EXPECT_FALSE(links->links[2].index.has_value());
}

}  // namespace
}  // namespace netdoctor::parsers
