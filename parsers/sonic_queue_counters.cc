#include "parsers/sonic_queue_counters.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_table.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {

Result<SonicQueueCounters> parse_sonic_queue_counters(std::string_view text) {
  ND_TRY_ASSIGN(TextTable table, find_text_table(text, {"Port", "TxQ", "Drop/pkts"}));
  SonicQueueCounters out;
  for (auto line : split_lines(text)) {
    std::string_view t = trim(line);
    if (t.starts_with("Last cached time was")) {
      out.last_cached_time = std::string(trim(t.substr(20)));
    }
  }
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    SonicQueueCounter q;
    q.port = table.cell(r, "Port");
    q.queue = table.cell(r, "TxQ");
    if (q.port.empty() || q.queue.empty()) {
      continue;
    }
    std::size_t digits = q.queue.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(q.queue[digits - 1])) != 0) {
      --digits;
    }
    q.queue_type = q.queue.substr(0, digits);
    if (auto index = parse_u64(std::string_view(q.queue).substr(digits))) {
      q.queue_index = static_cast<std::uint32_t>(*index);
    }
    q.packets = table_count(table.cell(r, "Counter/pkts"));
    q.bytes = table_count(table.cell(r, "Counter/bytes"));
    q.drop_packets = table_count(table.cell(r, "Drop/pkts"));
    q.drop_bytes = table_count(table.cell(r, "Drop/bytes"));
    out.queues.push_back(std::move(q));
  }
  return out;
}

nlohmann::json to_json(const SonicQueueCounters& counters) {
  using detail::opt;
  nlohmann::json array = nlohmann::json::array();
  for (const auto& q : counters.queues) {
    array.push_back({{"port", q.port},
                     {"queue", q.queue},
                     {"queue_type", q.queue_type},
                     {"queue_index", opt(q.queue_index)},
                     {"packets", opt(q.packets)},
                     {"bytes", opt(q.bytes)},
                     {"drop_packets", opt(q.drop_packets)},
                     {"drop_bytes", opt(q.drop_bytes)}});
  }
  return {{"last_cached_time", counters.last_cached_time}, {"queues", array}};
}

}  // namespace netdoctor::parsers
