// base/sonic_table's tables read back by the SONiC table parser, whatever the cells hold.
#include <gtest/gtest.h>

#include "base/sonic_table.h"
#include "parsers/text_table.h"

namespace netdoctor::parsers {
namespace {

TEST(SonicTableRenderTest, LooksLikeTabulateSimple) {
  EXPECT_EQ(render_sonic_table({"IFACE", "RX_OK"}, {{"Ethernet0", "1,024"}, {"Ethernet4", "7"}}),
            "    IFACE  RX_OK\n"
            "---------  -----\n"
            "Ethernet0  1,024\n"
            "Ethernet4      7\n");
}

TEST(SonicTableRenderTest, MultiByteAndMissingCellsReadBackWhole) {
  // An alias of multi-byte characters is wider in bytes than in characters: the columns must
  // still line up with their dashes byte for byte, or the parser cuts the cell short.
  const std::vector<std::string> headers = {"Interface", "Alias", "Speed"};
  const std::vector<std::vector<std::string>> rows = {
      {"Ethernet0", "liaison→spine1 (étage 2)", "400G"},
      {"Ethernet8", "short", "100G"},
      {"Ethernet16"},  // a row with cells missing renders them empty
  };
  const auto tables = parse_text_tables(render_sonic_table(headers, rows));
  ASSERT_EQ(tables.size(), 1U);
  EXPECT_EQ(tables[0].headers, headers);
  ASSERT_EQ(tables[0].rows.size(), 3U);
  EXPECT_EQ(tables[0].rows[0], rows[0]);
  EXPECT_EQ(tables[0].rows[1], rows[1]);
  EXPECT_EQ(tables[0].rows[2], (std::vector<std::string>{"Ethernet16", "", ""}));
}

}  // namespace
}  // namespace netdoctor::parsers
