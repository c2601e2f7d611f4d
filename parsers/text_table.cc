#include "parsers/text_table.h"

#include <algorithm>
#include <deque>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

struct Span {
  std::size_t begin = 0;  // first column
  std::size_t end = 0;    // one past the last column
};

// Without a trailing run of blanks or '\r'.
std::string_view trim_end(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  return line;
}

// Expands tabs to 8-column stops so positions line up with what a terminal shows.
std::string expand_tabs(std::string_view line) {
  std::string out;
  for (char c : line) {
    if (c == '\t') {
      out.append(8 - out.size() % 8, ' ');
    } else {
      out.push_back(c);
    }
  }
  return std::string(trim_end(out));
}

// Runs of non-blank characters with their positions, into `out` (reused: tables have thousands
// of rows).
void words_into(std::string_view line, std::vector<Span>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') {
      ++i;
    }
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ') {
      ++i;
    }
    if (i > start) {
      out.push_back({start, i});
    }
  }
}

std::vector<Span> words(std::string_view line) {
  std::vector<Span> out;
  words_into(line, out);
  return out;
}

bool is_underline(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty() || t.find("--") == std::string_view::npos) {
    return false;
  }
  return t.find_first_not_of("- ") == std::string_view::npos;
}

bool ends_table(std::string_view line) {
  std::string_view t = trim(line);
  return t.empty() || t.starts_with("Total ") || detail::is_prompt_line(t) || is_underline(t);
}

// Header spans without an underline: words separated by 2+ blanks form one header; each span
// reaches left to the previous header's end so right-aligned cells wider than the header fit.
std::vector<Span> spans_from_header(std::string_view header) {
  std::vector<Span> merged;
  for (const auto& w : words(header)) {
    if (!merged.empty() && w.begin - merged.back().end == 1) {
      merged.back().end = w.end;
    } else {
      merged.push_back(w);
    }
  }
  std::vector<Span> out = merged;
  for (std::size_t i = 1; i < out.size(); ++i) {
    out[i].begin = merged[i - 1].end + 1;
  }
  if (!out.empty()) {
    out[0].begin = 0;
  }
  return out;
}

std::size_t overlap(const Span& a, const Span& b) {
  std::size_t lo = std::max(a.begin, b.begin);
  std::size_t hi = std::min(a.end, b.end);
  return hi > lo ? hi - lo : 0;
}

std::size_t distance(const Span& a, const Span& b) {
  if (a.end <= b.begin) {
    return b.begin - a.end;
  }
  if (b.end <= a.begin) {
    return a.begin - b.end;
  }
  return 0;
}

// Each word goes to the column it overlaps most (nearest when none): robust to cells that
// spill a little past their column.
std::vector<std::string> split_row(std::string_view line, const std::vector<Span>& spans,
                                   std::vector<Span>& scratch) {
  std::vector<std::string> cells(spans.size());
  words_into(line, scratch);
  for (const auto& w : scratch) {
    std::size_t best = 0;
    std::size_t best_overlap = 0;
    std::size_t best_distance = std::string::npos;
    for (std::size_t c = 0; c < spans.size(); ++c) {
      std::size_t o = overlap(w, spans[c]);
      std::size_t d = distance(w, spans[c]);
      if (o > best_overlap || (best_overlap == 0 && o == 0 && d < best_distance)) {
        best = c;
        best_overlap = o;
        best_distance = d;
      }
    }
    if (!cells[best].empty()) {
      cells[best] += ' ';
    }
    cells[best] += line.substr(w.begin, w.end - w.begin);
  }
  return cells;
}

}  // namespace

std::optional<std::size_t> TextTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < headers.size(); ++i) {
    if (headers[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

const std::string& TextTable::cell(std::size_t row, std::string_view name) const {
  static const std::string k_empty;
  auto col = column(name);
  if (!col || row >= rows.size() || *col >= rows[row].size()) {
    return k_empty;
  }
  return rows[row][*col];
}

std::vector<TextTable> parse_text_tables(std::string_view text, std::string_view header_hint) {
  // Lines are views of `text`; only a line with tabs is copied (expanded) into `expanded`.
  std::deque<std::string> expanded;
  std::vector<std::string_view> lines;
  for (auto raw : split_lines(text)) {
    if (raw.find('\t') == std::string_view::npos) {
      lines.push_back(trim_end(raw));
    } else {
      lines.push_back(expanded.emplace_back(expand_tabs(raw)));
    }
  }
  std::vector<TextTable> tables;
  std::vector<Span> scratch;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view header = lines[i];
    bool underlined = i + 1 < lines.size() && !trim(header).empty() && !is_underline(header) &&
                      is_underline(lines[i + 1]);
    bool hinted = !underlined && !header_hint.empty() && contains(header, header_hint) &&
                  !detail::is_prompt_line(header);
    if (!underlined && !hinted) {
      ++i;
      continue;
    }
    std::vector<Span> spans = underlined ? words(lines[i + 1]) : spans_from_header(header);
    TextTable table;
    table.first_line = i;
    for (const auto& s : spans) {
      std::size_t b = std::min(s.begin, header.size());
      std::size_t e = std::min(s.end, header.size());
      table.headers.emplace_back(trim(header.substr(b, e - b)));
    }
    i += underlined ? 2 : 1;
    while (i < lines.size() && !ends_table(lines[i])) {
      // A new underlined header right after (no blank line) starts another table; a single
      // long dash run is a footer rule ("-----" before "Total entries displayed").
      if (i + 1 < lines.size() && is_underline(lines[i + 1]) && words(lines[i + 1]).size() > 1) {
        break;
      }
      table.rows.push_back(split_row(lines[i], spans, scratch));
      ++i;
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

Result<TextTable> find_text_table(std::string_view text, const std::vector<std::string>& required) {
  ND_TRY(detail::check_text(text));
  std::string hint = required.empty() ? std::string() : required.back();
  for (auto& table : parse_text_tables(text, hint)) {
    bool all = std::all_of(required.begin(), required.end(), [&table](const std::string& name) {
      return table.column(name).has_value();
    });
    if (all) {
      return std::move(table);
    }
  }
  return detail::parse_error("no table with columns " + join(required, ", ") + " found");
}

std::optional<std::uint64_t> table_count(std::string_view cell) {
  cell = trim(cell);
  if (cell.empty() || cell.find_first_not_of("0123456789,") != std::string_view::npos) {
    return std::nullopt;
  }
  return parse_grouped_u64(cell);
}

}  // namespace netdoctor::parsers
