#include "parsers/pmc.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::array<std::string_view, 5> k_actions = {"GET", "SET", "RESPONSE", "COMMAND",
                                                       "ACKNOWLEDGE"};

// "123456.fffe.780102-2 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP"; nullopt for other lines.
std::optional<PmcResponse> read_header(std::string_view line) {
  auto words = split_ws(line);
  if (words.size() < 4 || words[1] != "seq" ||
      std::find(k_actions.begin(), k_actions.end(), words[3]) == k_actions.end()) {
    return std::nullopt;
  }
  auto seq = parse_u64(words[2]);
  if (!seq || *seq > 0xffff) {
    return std::nullopt;
  }
  PmcResponse r;
  r.port_identity = std::string(words[0]);
  auto dash = words[0].rfind('-');
  r.clock_identity = std::string(words[0].substr(0, dash));
  if (dash != std::string_view::npos) {
    auto port = parse_u64(words[0].substr(dash + 1));
    if (port && *port <= 0xffff) {
      r.port = static_cast<std::uint32_t>(*port);
    }
  }
  r.seq = static_cast<std::uint32_t>(*seq);
  r.action = std::string(words[3]);
  r.tlv = words.size() > 4 ? std::string(words[4]) : "";
  for (std::size_t i = 5; i < words.size(); ++i) {
    r.management_id += (i > 5 ? " " : "") + std::string(words[i]);
  }
  return r;
}

void add_field(PmcResponse& response, std::string_view line) {
  auto space = line.find_first_of(" \t");
  std::string key(line.substr(0, space));
  std::string value(space == std::string_view::npos ? "" : trim(line.substr(space)));
  auto [it, inserted] = response.fields.emplace(key, value);
  if (!inserted) {
    it->second += "\n" + value;
  }
}

// The value of `key` in the first response with `id`; nullptr when there is none.
const std::string* field(const PmcRecord& record, std::string_view id, const std::string& key) {
  for (const auto& r : record.responses) {
    if (r.management_id != id) {
      continue;
    }
    if (auto it = r.fields.find(key); it != r.fields.end()) {
      return &it->second;
    }
  }
  return nullptr;
}

void read_port_state(PmcRecord& record) {
  for (const auto& r : record.responses) {
    auto it = r.fields.find("portState");
    if (r.management_id != "PORT_DATA_SET" || it == r.fields.end()) {
      continue;
    }
    if (record.port_state.empty() || is_receiving_port_state(it->second)) {
      record.port_state = it->second;
    }
    if (is_receiving_port_state(it->second)) {
      return;
    }
  }
}

void derive(PmcRecord& record) {
  if (const auto* v = field(record, "TIME_STATUS_NP", "master_offset")) {
    record.offset_s = seconds_from(*v, TimeUnit::Nanoseconds);
  }
  if (const auto* v = field(record, "TIME_STATUS_NP", "gmPresent")) {
    record.gm_present = *v == "true"    ? std::optional<bool>(true)
                        : *v == "false" ? std::optional<bool>(false)
                                        : std::nullopt;
  }
  if (const auto* v = field(record, "TIME_STATUS_NP", "gmIdentity")) {
    record.gm_identity = *v;
  } else if (const auto* g = field(record, "PARENT_DATA_SET", "grandmasterIdentity")) {
    record.gm_identity = *g;
  }
  if (const auto* v = field(record, "CURRENT_DATA_SET", "offsetFromMaster");
      v && !record.offset_s) {
    record.offset_s = seconds_from(*v, TimeUnit::Nanoseconds);
  }
  if (const auto* v = field(record, "CURRENT_DATA_SET", "meanPathDelay")) {
    record.mean_path_delay_s = seconds_from(*v, TimeUnit::Nanoseconds);
  }
  if (const auto* v = field(record, "CURRENT_DATA_SET", "stepsRemoved")) {
    auto n = parse_u64(*v);
    record.steps_removed = n && *n <= 0xffff
                               ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*n))
                               : std::nullopt;
  }
  read_port_state(record);
  bool has_master = record.gm_present.value_or(record.steps_removed.value_or(0) >= 1);
  record.status.daemon = "linuxptp";
  record.status.offset_s = record.offset_s;
  record.status.synchronised =
      has_master && (record.port_state.empty() || is_receiving_port_state(record.port_state));
  record.status.selected_source = has_master ? record.gm_identity : "";
}

}  // namespace

Result<PmcRecord> parse_pmc(std::string_view text) {
  ND_TRY(detail::check_text(text));
  PmcRecord out;
  PmcResponse* current = nullptr;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (line.starts_with("sending:")) {
      out.requests.emplace_back(trim(line.substr(8)));
      current = nullptr;
    } else if (auto header = read_header(line)) {
      out.responses.push_back(std::move(*header));
      current = &out.responses.back();
    } else if (current != nullptr) {
      add_field(*current, line);
    } else {
      ++out.other_lines;
    }
  }
  if (out.requests.empty() && out.responses.empty()) {
    return detail::parse_error(
        "no pmc 'sending:' line or '<port identity> seq N RESPONSE MANAGEMENT <ID>' header found");
  }
  derive(out);
  return out;
}

nlohmann::json to_json(const PmcRecord& record) {
  using detail::opt;
  nlohmann::json responses = nlohmann::json::array();
  for (const auto& r : record.responses) {
    responses.push_back({{"port_identity", r.port_identity},
                         {"clock_identity", r.clock_identity},
                         {"port", opt(r.port)},
                         {"seq", opt(r.seq)},
                         {"action", r.action},
                         {"tlv", r.tlv},
                         {"management_id", r.management_id},
                         {"fields", r.fields}});
  }
  return {{"requests", record.requests},
          {"responses", responses},
          {"offset_s", opt(record.offset_s)},
          {"mean_path_delay_s", opt(record.mean_path_delay_s)},
          {"steps_removed", opt(record.steps_removed)},
          {"gm_present", opt(record.gm_present)},
          {"gm_identity", record.gm_identity},
          {"port_state", record.port_state},
          {"other_lines", record.other_lines},
          {"status", to_json(record.status)}};
}

}  // namespace netdoctor::parsers
