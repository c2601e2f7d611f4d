// The string helpers every layer shares: shell quoting, edit distance, Markdown table cells.
#include "base/strings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"

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

TEST(NameSome, ListsAtMostTheShownNamesAndCountsTheRest) {
  EXPECT_EQ(name_some({"a", "b", "c"}, 2), "a, b (+1 more)");
  EXPECT_EQ(name_some({"a", "b"}, 2), "a, b");
  EXPECT_EQ(name_some({}, 3), "");
  const std::vector<std::string> ten = {"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"};
  EXPECT_EQ(name_some(ten), "h0, h1, h2, h3, h4, h5, h6, h7 (+2 more)");
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

TEST(Printable, C0AndDelAreShownAsBytes) {
  EXPECT_EQ(printable("evil\x1b]0;pwned\x07"), "evil\\x1b]0;pwned\\x07");
  EXPECT_EQ(printable("two\nlines\tand\rcr"), "two\\x0alines\\x09and\\x0dcr");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  EXPECT_EQ(printable("plain node07/mlx5_0 <b>|`"), "plain node07/mlx5_0 <b>|`");
}

TEST(Printable, C1ControlsAndBidiControlsAreShownAsCodePoints) {
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");  // U+009B, the 8-bit CSI
  EXPECT_EQ(printable("a\xc2\x80z\xc2\x9f"), "a\\u0080z\\u009f");
  EXPECT_EQ(printable("admin\xe2\x80\xae"
                      "gnp.exe"),
            "admin\\u202egnp.exe");  // RLO
  EXPECT_EQ(printable("\xe2\x80\xaa\xe2\x80\xad\xe2\x81\xa6\xe2\x81\xa9"),
            "\\u202a\\u202d\\u2066\\u2069");
}

TEST(Printable, OrdinaryUtf8IsKept) {
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(printable("\xc2\xa0nbsp"), "\xc2\xa0nbsp");  // U+00A0, just past C1
  EXPECT_EQ(printable("\xe2\x80\xa9\xe2\x80\xaf"), "\xe2\x80\xa9\xe2\x80\xaf");  // 2029, 202F
  EXPECT_EQ(printable("\xe2\x81\xa5\xe2\x81\xaa"), "\xe2\x81\xa5\xe2\x81\xaa");  // 2065, 206A
  EXPECT_EQ(printable("\xe2\x80\x94 \xf0\x9f\x98\x80"), "\xe2\x80\x94 \xf0\x9f\x98\x80");
}

TEST(Printable, RawEightBitControlsOutsideUtf8AreShownAsBytes) {
  EXPECT_EQ(printable("\x9b"
                      "31m"),
            "\\x9b31m");                                  // a lone 8-bit CSI
  EXPECT_EQ(printable("\xc2"), "\xc2");                   // truncated lead: not a control
  EXPECT_EQ(printable("\xc2\x1b"), "\xc2\\x1b");          // lead then ESC
  EXPECT_EQ(printable("\xc0\x9b"), "\xc0\\x9b");          // overlong: 0x9b stands alone
  EXPECT_EQ(printable("\xe2\x80"), "\xe2\\x80");          // truncated bidi sequence
  EXPECT_EQ(printable("\xed\xa0\x80"), "\xed\xa0\\x80");  // a surrogate is not UTF-8
  EXPECT_EQ(printable("\xff\xfe"), "\xff\xfe");           // other stray bytes are kept
}

TEST(TerminalText, KeepsLineBreaksAndTabsEscapesTheRest) {
  EXPECT_EQ(terminal_text("a\tb\nc\n"), "a\tb\nc\n");
  EXPECT_EQ(terminal_text("red\x1b[31m\r\n"), "red\\x1b[31m\\x0d\n");
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "2J\x9b\xe2\x81\xa7"),
            "\\u009b2J\\x9b\\u2067");
  EXPECT_EQ(terminal_text("bell\a"), "bell\\x07");
}

TEST(MarkdownCell, C1AndBidiControlsAreShownNotSent) {
  EXPECT_EQ(markdown_cell("x\xc2\x9b"
                          "1m\xe2\x80\xae"),
            "x\\u009b1m\\u202e");
  EXPECT_EQ(markdown_text("x\xc2\x9b"
                          "1m"),
            "x\\u009b1m");
}

TEST(MarkdownCode, TheFenceOutgrowsEveryBacktickRunInside) {
  EXPECT_EQ(markdown_code("node07/mlx5_0"), "`node07/mlx5_0`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("a``b`c"), "```a``b`c```");
  EXPECT_EQ(markdown_code("`x"), "`` `x ``");
  EXPECT_EQ(markdown_code("x`"), "`` x` ``");
  EXPECT_EQ(markdown_code("two\nlines\x1b[0m"), "`two lines\\x1b[0m`");
}

TEST(MarkdownWithCode, KbCodeSpansStayAndTheRestIsText) {
  EXPECT_EQ(markdown_with_code("On node07: `sudo chronyc makestep`, then fix it."),
            "On node07: `sudo chronyc makestep`, then fix it.");
  EXPECT_EQ(markdown_with_code("raise <ip> of [port]_x"), "raise \\<ip> of \\[port\\]\\_x");
  EXPECT_EQ(markdown_with_code("``a`b`` and `c`"), "``a`b`` and `c`");
  EXPECT_EQ(markdown_with_code("one ` alone"), "one \\` alone");
  EXPECT_EQ(markdown_with_code("``"), "\\`\\`");
}

TEST(MarkdownWithCode, AFilledInNameCannotEscapeOrOpenASpan) {
  // `show queue counters {port}` with the port named "a`<img src=x>`b" splits into two code
  // spans around text, whose '<' is escaped: no raw HTML.
  EXPECT_EQ(markdown_with_code("`show queue counters a`<img src=x>`b`"),
            "`show queue counters a`\\<img src=x>`b`");
  // Outside a span, a name's brackets and '<' are escaped, a backtick pair becomes code.
  EXPECT_EQ(markdown_with_code("On a|b](javascript:alert(1)): reboot"),
            "On a\\|b\\](javascript:alert(1)): reboot");
  EXPECT_EQ(markdown_with_code("On x`[y](z)`: go"), "On x`[y](z)`: go");
  EXPECT_EQ(markdown_with_code("On \x1b]0;t\x07: `ip -d link`"),
            "On \\x1b\\]0;t\\x07: `ip -d link`");
}

TEST(NaturalLess, DigitRunsCompareAsNumbers) {
  EXPECT_TRUE(natural_less("2", "10"));
  EXPECT_FALSE(natural_less("10", "2"));
  EXPECT_TRUE(natural_less("s9", "s10"));
  EXPECT_TRUE(natural_less("sample-2-b", "sample-10-a"));
  EXPECT_TRUE(natural_less("s000", "s001"));
  EXPECT_TRUE(natural_less("a", "b"));
  EXPECT_TRUE(natural_less("s1", "s1x"));
  EXPECT_FALSE(natural_less("s1", "s1"));
  // Equal as numbers, different as text: still a strict order, one way only.
  EXPECT_NE(natural_less("s010", "s10"), natural_less("s10", "s010"));
  std::vector<std::string> names = {"10", "1", "0", "19", "2", "11", "9"};
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  EXPECT_EQ(names, (std::vector<std::string>{"0", "1", "2", "9", "10", "11", "19"}));
}

TEST(NaturalLess, TwentySampleDirectoriesOfABundleOpenInTimeOrder) {
  auto tree = std::make_shared<MemTree>("twenty");
  for (int k = 0; k < 20; ++k) {
    tree->add_file("hosts/h1/" + std::to_string(k) + "/captured_at", std::to_string(1000 + k));
  }
  auto bundle = open_bundle_tree(tree, "twenty");
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  ASSERT_EQ(bundle->hosts.size(), 1u);
  ASSERT_EQ(bundle->hosts[0].samples.size(), 20u);
  for (int k = 0; k < 20; ++k) {
    EXPECT_EQ(bundle->hosts[0].samples[static_cast<std::size_t>(k)].name, std::to_string(k));
  }
}

}  // namespace
}  // namespace netdoctor
