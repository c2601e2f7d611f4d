// The string helpers every layer shares: shell quoting, edit distance, Markdown table cells.
#include "base/strings.h"

#include <gtest/gtest.h>

namespace netdoctor {
namespace {

TEST(ShellQuote, PlainWordsStayBare) {
  EXPECT_EQ(shell_quote("150KB"), "150KB");
  EXPECT_EQ(shell_quote("3,4"), "3,4");
  EXPECT_EQ(shell_quote("nic:node07/mlx5_2"), "nic:node07/mlx5_2");
  EXPECT_EQ(shell_quote("--host=a_b.c"), "--host=a_b.c");
  EXPECT_EQ(shell_quote("user@host+50%"), "user@host+50%");
}

TEST(ShellQuote, EverythingElseIsSingleQuoted) {
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("two words"), "'two words'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("''"), "''\\'''\\'''");
  EXPECT_EQ(shell_quote("$(reboot)"), "'$(reboot)'");
  EXPECT_EQ(shell_quote("a;b|c&d"), "'a;b|c&d'");
  EXPECT_EQ(shell_quote("*.toml"), "'*.toml'");
  EXPECT_EQ(shell_quote("~root"), "'~root'");
  EXPECT_EQ(shell_quote("tab\there"), "'tab\there'");
  EXPECT_EQ(shell_quote("caf\xc3\xa9"), "'caf\xc3\xa9'");  // only ASCII letters are plain
}

TEST(ShellQuote, ACallerMayQuoteMorePunctuation) {
  EXPECT_EQ(shell_quote("a+b@c", "_-./:,="), "'a+b@c'");
  EXPECT_EQ(shell_quote("a-b:c", "_-./:,="), "a-b:c");
  EXPECT_EQ(shell_quote("a-b", ""), "'a-b'");
  EXPECT_EQ(shell_quote("abc09", ""), "abc09");
}

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("clock-skew", "clock-skew"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("lossy", "lossyy"), 1u);      // insertion
  EXPECT_EQ(edit_distance("diagnose", "dagnose"), 1u);  // deletion
  EXPECT_EQ(edit_distance("collect", "collent"), 1u);   // substitution
  EXPECT_EQ(edit_distance("storm", "strom"), 2u);       // a swap is two edits, not one
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("sitting", "kitten"), 3u);
  EXPECT_EQ(edit_distance("mtu", "mtu-mismatch"), 9u);
}

TEST(MarkdownCell, PipesAreEscapedAndLineBreaksBecomeSpaces) {
  EXPECT_EQ(markdown_cell("a|b"), "a\\|b");
  EXPECT_EQ(markdown_cell("two\nlines"), "two lines");
  EXPECT_EQ(markdown_cell("dos\r\nline"), "dos  line");
  EXPECT_EQ(markdown_cell(""), "");
  EXPECT_EQ(markdown_cell("plain text, 41 000 frames/s"), "plain text, 41 000 frames/s");
}

TEST(MarkdownCell, OtherControlBytesAreShownNotSent) {
  EXPECT_EQ(markdown_cell("red\x1b[31m"), "red\\x1b[31m");
  EXPECT_EQ(markdown_cell("tab\there"), "tab\\x09here");
  EXPECT_EQ(markdown_cell("del\x7f"), "del\\x7f");
  EXPECT_EQ(markdown_cell("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 is not a control byte
}

TEST(MarkdownCell, VerbatimTouchesOnlyPipesAndNewlines) {
  EXPECT_EQ(markdown_cell("a|b\nc", CellControls::Verbatim), "a\\|b c");
  EXPECT_EQ(markdown_cell("dos\r\nline", CellControls::Verbatim), "dos\r line");
  EXPECT_EQ(markdown_cell("tab\there\x1b", CellControls::Verbatim), "tab\there\x1b");
}

}  // namespace
}  // namespace netdoctor
