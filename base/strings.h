// Small string helpers shared by parsers and renderers. Pure functions, no allocation surprises.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace netdoctor {

std::string_view trim(std::string_view s);
std::string_view trim_left(std::string_view s);
std::string_view trim_right(std::string_view s);

// Splits on '\n', dropping a trailing '\r' from each line; no final empty line.
std::vector<std::string_view> split_lines(std::string_view s);
// Splits on runs of spaces and tabs; no empty fields.
std::vector<std::string_view> split_ws(std::string_view s);
// Splits on every occurrence of `sep` (empty fields kept).
std::vector<std::string_view> split(std::string_view s, char sep);
// Splits on runs of two or more whitespace characters (tabulated columns, perftest pairs).
std::vector<std::string_view> split_wide(std::string_view s);

bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
bool contains(std::string_view s, std::string_view part);
std::string to_lower(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "a, b, c (+12 more)": at most `shown` of the names, for a message naming hosts or NICs.
std::string name_some(const std::vector<std::string>& names, std::size_t shown = 8);
// Name order with runs of digits compared as numbers: "2" < "10", "s9" < "s10", "s010" ==
// "s10" broken by length then bytes, so the order is total. Sample directories sort this way
// (spec/bundle.md: `0`, `1`, ... in time order, past 9 too).
bool natural_less(std::string_view a, std::string_view b);

// Whole-string numbers: no leading/trailing junk allowed (surrounding whitespace is).
std::optional<std::uint64_t> parse_u64(std::string_view s);
std::optional<std::int64_t> parse_i64(std::string_view s);
std::optional<double> parse_double(std::string_view s);  // finite values only
// `s` safe for a terminal on one line, so text from files never acts as escape sequences or
// reorders what follows it: control bytes (C0 including '\n' and '\t', DEL) become "\xNN";
// the C1 controls as UTF-8 writes them (U+0080..U+009F: U+009B is the 8-bit CSI xterm obeys)
// and the bidi embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069,
// "trojan source") become "\u009b", "\u202e"; a byte 0x80..0x9F outside a valid UTF-8
// sequence (a raw 8-bit C1 control) becomes "\xNN". Other UTF-8, valid or not, is kept.
std::string printable(std::string_view s);
// printable() for a whole rendered text: the same escapes, but '\n' and '\t' are kept, so an
// ordinary report is byte-for-byte what it was. What every text renderer returns.
std::string terminal_text(std::string_view s);
// What markdown_cell does with control bytes other than '\n'.
enum class CellControls {
  Printable,  // '\r' becomes a space too, the rest "\xNN" as printable() writes them: for text
              // that may come from a capture, which must not reach a terminal as escapes
  Verbatim,   // left as they are: the runbook's cells of embedded kb text, which have always
              // been written so (bundle text, such as annotated summaries, goes through
              // markdown_text)
};
// `s` as one Markdown table cell: '|' escaped as "\|", '\n' as a space, other control bytes as
// `controls` says.
std::string markdown_cell(std::string_view s, CellControls controls = CellControls::Printable);
// Untrusted text (host names, tool output) as Markdown that reads as itself, in a cell or in
// running text: the punctuation that opens inline markup, links, raw HTML or entities
// backslash-escaped, then markdown_cell's escapes ('|', newlines, control bytes).
std::string markdown_text(std::string_view s);
// Untrusted text as one Markdown code span that reads as itself: fenced by one backtick more
// than the longest backtick run inside it (padded with a space where it starts or ends with
// one), newlines as spaces, control bytes as printable() writes them. Not for table cells ('|'
// is left as it is).
std::string markdown_code(std::string_view s);
// Kb-authored running text into which bundle values (host, NIC, port names) were filled, as
// Markdown: its backtick code spans, found as CommonMark finds them, stay code spans; all the
// rest is markdown_text. A backtick, bracket or '<' in a filled-in name therefore yields code or
// literal text, never a link, raw HTML or a span the kb did not open. Not for table cells.
std::string markdown_with_code(std::string_view s);

// The punctuation a POSIX shell word may hold unquoted, besides ASCII letters and digits.
inline constexpr std::string_view k_shell_plain_punctuation = "_-./=:,@%+";
// `word` as one POSIX shell word: as it is when it is non-empty and made only of ASCII letters,
// digits and `plain_punctuation` (a subset of k_shell_plain_punctuation: a caller may quote
// more, never less); otherwise in single quotes, each ' written '\''.
std::string shell_quote(std::string_view word,
                        std::string_view plain_punctuation = k_shell_plain_punctuation);

// The Levenshtein distance: the fewest single-byte insertions, deletions and substitutions
// that turn `a` into `b` (what makes a typo's nearest known word).
std::size_t edit_distance(std::string_view a, std::string_view b);
// "61,115,381" -> 61115381 (SONiC tables); also accepts plain digits.
std::optional<std::uint64_t> parse_grouped_u64(std::string_view s);
// Hex with or without 0x.
std::optional<std::uint64_t> parse_hex(std::string_view s);

}  // namespace netdoctor
