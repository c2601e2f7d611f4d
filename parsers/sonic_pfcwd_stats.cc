#include "parsers/sonic_pfcwd_stats.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

using Pair = std::pair<std::optional<std::uint64_t>, std::optional<std::uint64_t>>;

// "100/300", "1,234/0" -> both counts; "N/A" or "" -> neither.
Pair count_pair(std::string_view cell) {
  auto slash = cell.find('/');
  if (slash == std::string_view::npos) {
    return {};
  }
  return {table_count(cell.substr(0, slash)), table_count(cell.substr(slash + 1))};
}

// "100ms" / "200" -> milliseconds.
std::optional<std::uint64_t> milliseconds(std::string_view text) {
  text = trim(text);
  if (text.ends_with("ms")) {
    text.remove_suffix(2);
  }
  return parse_u64(text);
}

SonicPfcwdQueue read_queue(const TextTable& table, std::size_t r) {
  SonicPfcwdQueue q;
  q.queue = table.cell(r, "QUEUE");
  std::string_view name = q.queue;
  if (auto colon = name.rfind(':'); colon != std::string_view::npos) {
    q.port = std::string(name.substr(0, colon));
    if (auto index = parse_u64(name.substr(colon + 1)); index && *index < 1024) {
      q.queue_index = static_cast<std::uint32_t>(*index);
    }
  } else {
    q.port = q.queue;
  }
  q.status = table.cell(r, "STATUS");
  q.stormed = q.status == "stormed";
  std::tie(q.storms_detected, q.storms_restored) =
      count_pair(table.cell(r, "STORM DETECTED/RESTORED"));
  std::tie(q.tx_ok, q.tx_drop) = count_pair(table.cell(r, "TX OK/DROP"));
  std::tie(q.rx_ok, q.rx_drop) = count_pair(table.cell(r, "RX OK/DROP"));
  std::tie(q.tx_last_ok, q.tx_last_drop) = count_pair(table.cell(r, "TX LAST OK/DROP"));
  std::tie(q.rx_last_ok, q.rx_last_drop) = count_pair(table.cell(r, "RX LAST OK/DROP"));
  return q;
}

SonicPfcwdPort read_port(const TextTable& table, std::size_t r) {
  SonicPfcwdPort p;
  p.port = table.cell(r, "PORT");
  p.action = table.cell(r, "ACTION");
  p.detection_time = table.cell(r, "DETECTION TIME");
  p.restoration_time = table.cell(r, "RESTORATION TIME");
  p.detection_time_ms = milliseconds(p.detection_time);
  p.restoration_time_ms = milliseconds(p.restoration_time);
  p.history = table.cell(r, "HISTORY");
  return p;
}

// "Changed polling interval to 100ms[ on asic0]", "BIG_RED_SWITCH status is enable on asic0".
void read_notes(std::string_view text, SonicPfcwd& out) {
  constexpr std::string_view k_polling = "Changed polling interval to ";
  for (auto raw : split_lines(text)) {
    std::string_view line = trim(detail::strip_quote(raw));
    if (line.starts_with(k_polling)) {
      auto words = split_ws(line.substr(k_polling.size()));
      if (!out.polling_interval_ms && !words.empty()) {
        out.polling_interval_ms = milliseconds(words[0]);
      }
      out.notes.emplace_back(line);
    } else if (line.starts_with("BIG_RED_SWITCH ")) {
      out.notes.emplace_back(line);
    }
  }
}

}  // namespace

const SonicPfcwdQueue* SonicPfcwd::find_queue(std::string_view queue) const {
  for (const auto& q : queues) {
    if (q.queue == queue) {
      return &q;
    }
  }
  return nullptr;
}

const SonicPfcwdPort* SonicPfcwd::find_port(std::string_view port) const {
  for (const auto& p : ports) {
    if (p.port == port) {
      return &p;
    }
  }
  return nullptr;
}

Result<SonicPfcwd> parse_sonic_pfcwd_stats(std::string_view text) {
  ND_TRY(detail::check_text(text));
  SonicPfcwd out;
  bool found = false;
  for (const auto& table : parse_text_tables(text)) {
    if (table.column("QUEUE") && table.column("STATUS") &&
        table.column("STORM DETECTED/RESTORED")) {
      found = true;
      for (std::size_t r = 0; r < table.rows.size(); ++r) {
        if (!table.cell(r, "QUEUE").empty()) {
          out.queues.push_back(read_queue(table, r));
        }
      }
    } else if (table.column("PORT") && table.column("ACTION") && table.column("DETECTION TIME")) {
      found = true;
      for (std::size_t r = 0; r < table.rows.size(); ++r) {
        if (!table.cell(r, "PORT").empty()) {
          out.ports.push_back(read_port(table, r));
        }
      }
    }
  }
  if (!found) {
    return detail::parse_error(
        "no pfcwd stats table (QUEUE, STATUS, STORM DETECTED/RESTORED) or config table (PORT, "
        "ACTION, DETECTION TIME) found");
  }
  read_notes(text, out);
  return out;
}

nlohmann::json to_json(const SonicPfcwd& pfcwd) {
  using detail::opt;
  nlohmann::json queues = nlohmann::json::array();
  for (const auto& q : pfcwd.queues) {
    queues.push_back({{"queue", q.queue},
                      {"port", q.port},
                      {"queue_index", opt(q.queue_index)},
                      {"status", q.status},
                      {"stormed", q.stormed},
                      {"storms_detected", opt(q.storms_detected)},
                      {"storms_restored", opt(q.storms_restored)},
                      {"tx_ok", opt(q.tx_ok)},
                      {"tx_drop", opt(q.tx_drop)},
                      {"rx_ok", opt(q.rx_ok)},
                      {"rx_drop", opt(q.rx_drop)},
                      {"tx_last_ok", opt(q.tx_last_ok)},
                      {"tx_last_drop", opt(q.tx_last_drop)},
                      {"rx_last_ok", opt(q.rx_last_ok)},
                      {"rx_last_drop", opt(q.rx_last_drop)}});
  }
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : pfcwd.ports) {
    ports.push_back({{"port", p.port},
                     {"action", p.action},
                     {"detection_time_ms", opt(p.detection_time_ms)},
                     {"restoration_time_ms", opt(p.restoration_time_ms)},
                     {"detection_time", p.detection_time},
                     {"restoration_time", p.restoration_time},
                     {"history", p.history}});
  }
  return {{"queues", queues},
          {"ports", ports},
          {"polling_interval_ms", opt(pfcwd.polling_interval_ms)},
          {"notes", pfcwd.notes}};
}

}  // namespace netdoctor::parsers
