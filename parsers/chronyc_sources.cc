#include "parsers/chronyc_sources.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_header = "MS Name/IP address";

std::string mode_word(char mode) {
  switch (mode) {
    case '^':
      return "server";
    case '=':
      return "peer";
    case '#':
      return "refclock";
    default:
      return "";
  }
}

std::string state_word(char state) {
  switch (state) {
    case '*':
      return "selected";
    case '+':
      return "combined";
    case '-':
      return "not_combined";
    case '?':
      return "unreachable";
    case 'x':
      return "falseticker";
    case '~':
      return "too_variable";
    default:
      return "";
  }
}

// Removes the first whitespace-separated word of `rest` and returns it ("" at the end).
std::string_view take_word(std::string_view& rest) {
  rest = trim_left(rest);
  std::size_t end = 0;
  while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t') {
    ++end;
  }
  std::string_view word = rest.substr(0, end);
  rest.remove_prefix(end);
  return word;
}

// "+1181us[+1072us] +/-   34ms" (the brackets may hold a space: "[ +429us]").
void read_last_sample(std::string_view sample, ChronySource& source) {
  source.last_sample = std::string(trim(sample));
  auto open = sample.find('[');
  auto close = sample.find(']');
  auto plus_minus = sample.find("+/-");
  source.adjusted_offset_s = suffixed_seconds(sample.substr(0, std::min(open, plus_minus)));
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    source.measured_offset_s = suffixed_seconds(sample.substr(open + 1, close - open - 1));
  }
  if (plus_minus != std::string_view::npos) {
    source.error_s = suffixed_seconds(sample.substr(plus_minus + 3));
  }
}

// One table row; nullopt when it is not a complete source line.
std::optional<ChronySource> read_row(std::string_view line) {
  std::string_view rest = trim(line);
  if (rest.size() < 3 || mode_word(rest[0]).empty() || state_word(rest[1]).empty() ||
      rest[2] != ' ') {
    return std::nullopt;
  }
  ChronySource s;
  s.mode = rest[0];
  s.mode_word = mode_word(s.mode);
  s.state = rest[1];
  s.state_word = state_word(s.state);
  rest.remove_prefix(2);
  s.name = std::string(take_word(rest));
  auto stratum = parse_u64(take_word(rest));
  auto poll = parse_i64(take_word(rest));
  s.reach_octal = std::string(take_word(rest));
  s.reach = reach_from_octal(s.reach_octal);
  s.last_rx = std::string(take_word(rest));
  s.last_rx_s = age_seconds(s.last_rx);
  read_last_sample(rest, s);
  if (!stratum || *stratum > 255 || !poll || *poll < -64 || *poll > 64 || !s.reach ||
      !s.adjusted_offset_s || !s.error_s) {
    return std::nullopt;
  }
  s.stratum = static_cast<std::uint32_t>(*stratum);
  s.poll_log2 = static_cast<std::int32_t>(*poll);
  return s;
}

// "210 Number of sources = 4" -> 4.
std::optional<std::uint32_t> number_of_sources(std::string_view line) {
  auto eq = line.find('=');
  if (!line.starts_with("210 Number of sources") || eq == std::string_view::npos) {
    return std::nullopt;
  }
  auto n = parse_u64(line.substr(eq + 1));
  return n && *n <= 0xffffffffu ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*n))
                                : std::nullopt;
}

void add_source(ChronySources& out, ChronySource source) {
  if (source.state == '*' && out.selected.empty()) {
    out.selected = source.name;
    out.status.selected_source = source.name;
    out.status.offset_s = source.adjusted_offset_s;
    out.status.synchronised = true;
  }
  out.combined += source.state == '+' ? 1 : 0;
  out.falsetickers += source.state == 'x' ? 1 : 0;
  out.unreachable += source.state == '?' ? 1 : 0;
  out.sources.push_back(std::move(source));
}

}  // namespace

Result<ChronySources> parse_chronyc_sources(std::string_view text) {
  ND_TRY(detail::check_text(text));
  ChronySources out;
  out.status.daemon = "chrony";
  bool in_table = false;
  bool header_seen = false;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (!in_table) {
      // Everything before the header (prompt, "-v" legend) is skipped.
      if (auto n = number_of_sources(line)) {
        out.number_of_sources = n;
      }
      in_table = line.starts_with(k_header);
      header_seen = header_seen || in_table;
      continue;
    }
    if (line.empty() || detail::is_prompt_line(line)) {
      in_table = false;
      continue;
    }
    if (line.starts_with("===")) {
      continue;
    }
    if (auto source = read_row(line)) {
      add_source(out, std::move(*source));
    } else {
      out.unparsed_rows.emplace_back(line);
    }
  }
  if (!header_seen) {
    return detail::parse_error("no 'MS Name/IP address' header of chronyc sources found");
  }
  return out;
}

nlohmann::json to_json(const ChronySources& sources) {
  using detail::opt;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& s : sources.sources) {
    rows.push_back({{"mode", std::string(1, s.mode)},
                    {"mode_word", s.mode_word},
                    {"state", std::string(1, s.state)},
                    {"state_word", s.state_word},
                    {"name", s.name},
                    {"stratum", opt(s.stratum)},
                    {"poll_log2", opt(s.poll_log2)},
                    {"reach_octal", s.reach_octal},
                    {"reach", opt(s.reach)},
                    {"last_rx", s.last_rx},
                    {"last_rx_s", opt(s.last_rx_s)},
                    {"adjusted_offset_s", opt(s.adjusted_offset_s)},
                    {"measured_offset_s", opt(s.measured_offset_s)},
                    {"error_s", opt(s.error_s)},
                    {"last_sample", s.last_sample}});
  }
  return {{"number_of_sources", opt(sources.number_of_sources)},
          {"sources", rows},
          {"unparsed_rows", sources.unparsed_rows},
          {"selected", sources.selected},
          {"combined", sources.combined},
          {"falsetickers", sources.falsetickers},
          {"unreachable", sources.unreachable},
          {"status", to_json(sources.status)}};
}

}  // namespace netdoctor::parsers
