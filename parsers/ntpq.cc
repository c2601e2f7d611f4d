#include "parsers/ntpq.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// Columns after the tally: remote refid st t when poll reach delay offset jitter.
constexpr std::size_t k_columns = 10;

std::string tally_word(char tally) {
  switch (tally) {
    case '*':
      return "sys_peer";
    case 'o':
      return "pps_peer";
    case '+':
      return "candidate";
    case '#':
      return "backup";
    case '-':
      return "outlier";
    case '.':
      return "excess";
    case 'x':
      return "falseticker";
    case ' ':
      return "reject";
    default:
      return "";
  }
}

bool is_header(const std::vector<std::string_view>& words) {
  return words.size() >= k_columns && words[0] == "remote" && words[1] == "refid" &&
         words[2] == "st" && words[8] == "offset";
}

// The column of the tally code: where the '=' rule starts, else 5 left of "remote".
std::size_t tally_column(std::string_view header, std::string_view next_line) {
  if (trim(next_line).starts_with("===")) {
    return next_line.find('=');
  }
  auto remote = header.find("remote");
  return remote >= 5 ? remote - 5 : 0;
}

// `data` holds the nine columns after the remote.
std::optional<NtpqPeer> make_peer(char tally, std::string_view remote,
                                  const std::vector<std::string_view>& data) {
  NtpqPeer p;
  p.tally = tally;
  p.tally_word = tally_word(tally);
  p.remote = std::string(remote);
  p.refid = std::string(data[0]);
  auto stratum = parse_u64(data[1]);
  p.type = std::string(data[2]);
  p.when = std::string(data[3]);
  p.when_s = age_seconds(p.when);
  auto poll = parse_u64(data[4]);
  p.reach_octal = std::string(data[5]);
  p.reach = reach_from_octal(p.reach_octal);
  p.delay_s = seconds_from(data[6], TimeUnit::Milliseconds);
  p.offset_ms = parse_double(data[7]);
  p.jitter_s = seconds_from(data[8], TimeUnit::Milliseconds);
  if (!stratum || *stratum > 255 || !poll || *poll > 0xffffffffu || !p.reach || !p.delay_s ||
      !p.offset_ms || !p.jitter_s) {
    return std::nullopt;
  }
  p.stratum = static_cast<std::uint32_t>(*stratum);
  p.poll_s = static_cast<std::uint32_t>(*poll);
  // Server relative to host -> host relative to server.
  p.offset_s = to_seconds(-*p.offset_ms, TimeUnit::Milliseconds);
  return p;
}

// Reads the rows after one header; a long remote in NTPsec's wide form is alone on its line
// and the other columns follow, indented, on the next.
class RowReader {
 public:
  RowReader(NtpqPeers& out, std::size_t tally_col) : m_out(out), m_tally_col(tally_col) {}

  void line(std::string_view raw) {
    auto words = split_ws(raw);
    if (m_pending && words.size() == k_columns - 1) {
      add(make_peer(m_pending_tally, m_pending_remote, words), raw);
      m_pending = false;
      return;
    }
    flush();
    // The tally sits in its column with only blanks before it; the remote follows it at once.
    if (raw.size() <= m_tally_col + 1 || !trim(raw.substr(0, m_tally_col)).empty() ||
        tally_word(raw[m_tally_col]).empty() || raw[m_tally_col + 1] == ' ') {
      m_out.unparsed_rows.emplace_back(trim(raw));
      return;
    }
    const char tally = raw[m_tally_col];
    auto cells = split_ws(raw.substr(m_tally_col + 1));
    if (cells.size() == 1) {
      m_pending = true;
      m_pending_tally = tally;
      m_pending_remote = std::string(cells[0]);
      return;
    }
    if (cells.size() != k_columns) {
      m_out.unparsed_rows.emplace_back(trim(raw));
      return;
    }
    add(make_peer(tally, cells[0], {cells.begin() + 1, cells.end()}), raw);
  }

  // A wrapped remote whose second line never came is kept as it was read.
  void flush() {
    if (m_pending) {
      m_out.unparsed_rows.push_back(std::string(1, m_pending_tally) + m_pending_remote);
      m_pending = false;
    }
  }

 private:
  void add(std::optional<NtpqPeer> peer, std::string_view raw) {
    if (peer) {
      m_out.peers.push_back(std::move(*peer));
    } else {
      m_out.unparsed_rows.emplace_back(trim(raw));
    }
  }

  NtpqPeers& m_out;
  std::size_t m_tally_col;
  bool m_pending = false;
  char m_pending_tally = ' ';
  std::string m_pending_remote;
};

void select_peer(NtpqPeers& out) {
  out.status.daemon = "ntpd";
  for (const auto& p : out.peers) {
    if (p.tally == '*' || p.tally == 'o') {
      out.selected = p.remote;
      out.status.selected_source = p.remote;
      out.status.offset_s = p.offset_s;
      out.status.synchronised = true;
      return;
    }
  }
}

}  // namespace

Result<NtpqPeers> parse_ntpq(std::string_view text) {
  ND_TRY(detail::check_text(text));
  NtpqPeers out;
  const auto lines = split_lines(text);
  bool header_seen = false;
  std::optional<RowReader> rows;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = trim_right(lines[i]);
    std::string_view line = trim(raw);
    if (is_header(split_ws(line))) {
      std::string_view next = i + 1 < lines.size() ? lines[i + 1] : std::string_view();
      rows.emplace(out, tally_column(raw, next));
      header_seen = true;
      continue;
    }
    out.no_associations = out.no_associations || line.starts_with("No association ID");
    if (!rows) {
      continue;
    }
    if (line.empty() || detail::is_prompt_line(line)) {
      rows->flush();
      rows.reset();
    } else if (!line.starts_with("===")) {
      rows->line(raw);
    }
  }
  if (rows) {
    rows->flush();
  }
  if (!header_seen && !out.no_associations) {
    return detail::parse_error(
        "no ntpq peers header ('remote refid st t when poll reach delay offset jitter') found");
  }
  select_peer(out);
  return out;
}

nlohmann::json to_json(const NtpqPeers& peers) {
  using detail::opt;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : peers.peers) {
    rows.push_back({{"tally", std::string(1, p.tally)},
                    {"tally_word", p.tally_word},
                    {"remote", p.remote},
                    {"refid", p.refid},
                    {"stratum", opt(p.stratum)},
                    {"type", p.type},
                    {"when", p.when},
                    {"when_s", opt(p.when_s)},
                    {"poll_s", opt(p.poll_s)},
                    {"reach_octal", p.reach_octal},
                    {"reach", opt(p.reach)},
                    {"delay_s", opt(p.delay_s)},
                    {"offset_ms", opt(p.offset_ms)},
                    {"offset_s", opt(p.offset_s)},
                    {"jitter_s", opt(p.jitter_s)}});
  }
  return {{"peers", rows},
          {"unparsed_rows", peers.unparsed_rows},
          {"selected", peers.selected},
          {"no_associations", peers.no_associations},
          {"status", to_json(peers.status)}};
}

}  // namespace netdoctor::parsers
