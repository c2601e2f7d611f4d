// Tables rendered by python-tabulate (SONiC `show` commands): a header line, a dashes underline
// whose runs give the column spans, then rows until a blank line. Cells are found by position,
// so cells containing spaces ("QSFP-DD Double Density ...") and empty cells work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct TextTable {
  std::vector<std::string> headers;            // trimmed
  std::vector<std::vector<std::string>> rows;  // trimmed cells, one per header ("" when empty)
  std::size_t first_line = 0;                  // index of the header line in the input lines

  // Index of the first header equal to `name` (case-sensitive); nullopt when absent.
  std::optional<std::size_t> column(std::string_view name) const;
  // Cell text or "" when the column is absent.
  const std::string& cell(std::size_t row, std::string_view name) const;
};

// Every table in `text`. A table is a header line followed by a dashes underline; when
// `header_hint` is given, a line containing it with no underline after it also starts a table
// (saved copies that lost the underline), spans then come from the header words.
// Lines before a table (prompts, "Last cached time", legends) are skipped; a table ends at a
// blank line, a shell prompt or a footer starting with "Total".
std::vector<TextTable> parse_text_tables(std::string_view text, std::string_view header_hint = {});

// The first table whose headers include every name in `required`; Parse error otherwise.
Result<TextTable> find_text_table(std::string_view text, const std::vector<std::string>& required);

// "61,115,381" / "0" -> number; "N/A", "" and anything else -> nullopt.
std::optional<std::uint64_t> table_count(std::string_view cell);

}  // namespace netdoctor::parsers
