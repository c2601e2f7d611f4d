#include "parsers/rdma_statistic.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/rdma_text.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// The tokens of one "link ..." record and the lines they came from.
struct Record {
  std::vector<std::string_view> tokens;
  std::vector<std::string_view> lines;
};

std::vector<std::string> comma_list(std::string_view text) {
  std::vector<std::string> out;
  for (auto item : split(text, ',')) {
    if (!trim(item).empty()) {
      out.emplace_back(trim(item));
    }
  }
  return out;
}

// One pair into `link`: counters, the counter id, lists and everything else kept as text.
void add_pair(std::string_view name, std::string_view value, RdmaStatisticLink& link) {
  auto number = parse_u64(value);
  if (name == "optional-counters") {
    link.optional_counters = comma_list(value);
  } else if (name == "cntn" && number) {
    link.cntn = number;
  } else if (number && name != "pid") {
    link.counters[std::string(name)] = *number;
  } else {
    link.extra[std::string(name)] = std::string(value);
  }
}

// The record as a link's statistics; nullopt when it is not one (see the header).
std::optional<RdmaStatisticLink> read_record(const Record& record) {
  const auto& tokens = record.tokens;
  auto dev_port = tokens.size() >= 3 ? detail::split_dev_port(tokens[1]) : std::nullopt;
  if (!dev_port) {
    return std::nullopt;
  }
  RdmaStatisticLink link;
  link.device = std::string(dev_port->device);
  link.port = dev_port->port;
  std::span<const std::string_view> rest = std::span(tokens).subspan(2);
  if (rest.size() >= 3 && rest[0] == "supported" && rest[1] == "optional-counters") {
    link.supported_optional_counters = comma_list(rest[2]);
    rest = rest.subspan(3);
  }
  for (auto [name, value] : detail::name_value_pairs(rest)) {
    if (name == "state" || name == "physical_state") {
      return std::nullopt;
    }
    add_pair(name, value, link);
  }
  if (link.counters.empty() && link.optional_counters.empty() &&
      link.supported_optional_counters.empty()) {
    return std::nullopt;
  }
  return link;
}

void merge_into(RdmaStatisticLink& into, RdmaStatisticLink&& from) {
  for (auto& [name, value] : from.counters) {
    into.counters[name] = value;
  }
  for (auto& [name, value] : from.extra) {
    into.extra[name] = std::move(value);
  }
  if (!from.optional_counters.empty()) {
    into.optional_counters = std::move(from.optional_counters);
  }
  if (!from.supported_optional_counters.empty()) {
    into.supported_optional_counters = std::move(from.supported_optional_counters);
  }
}

void take(Record& record, RdmaStatistics& out) {
  if (record.lines.empty()) {
    return;
  }
  if (auto link = read_record(record)) {
    auto same = std::find_if(out.links.begin(), out.links.end(), [&link](const auto& l) {
      return l.device == link->device && l.port == link->port && l.cntn == link->cntn;
    });
    if (same == out.links.end()) {
      out.links.push_back(std::move(*link));
    } else {
      merge_into(*same, std::move(*link));
    }
  } else {
    out.unparsed_lines.insert(out.unparsed_lines.end(), record.lines.begin(), record.lines.end());
  }
  record = {};
}

}  // namespace

const RdmaStatisticLink* RdmaStatistics::find(std::string_view device, std::uint32_t port) const {
  for (const auto& link : links) {
    if (link.device == device && link.port == port && !link.cntn) {
      return &link;
    }
  }
  return nullptr;
}

Result<RdmaStatistics> parse_rdma_statistic(std::string_view text) {
  ND_TRY(detail::check_text(text));
  RdmaStatistics out;
  Record record;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      take(record, out);
      continue;
    }
    auto tokens = split_ws(line);
    if (tokens[0] == "link") {
      take(record, out);
    } else if (record.lines.empty()) {
      out.unparsed_lines.emplace_back(line);
      continue;
    }
    record.tokens.insert(record.tokens.end(), tokens.begin(), tokens.end());
    record.lines.push_back(line);
  }
  take(record, out);
  if (out.links.empty()) {
    return detail::parse_error("no 'link <dev>/<port> <counter> <value> ...' statistic record");
  }
  return out;
}

nlohmann::json to_json(const RdmaStatistics& statistics) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& link : statistics.links) {
    array.push_back({{"device", link.device},
                     {"port", detail::opt(link.port)},
                     {"cntn", detail::opt(link.cntn)},
                     {"counters", link.counters},
                     {"extra", link.extra},
                     {"optional_counters", link.optional_counters},
                     {"supported_optional_counters", link.supported_optional_counters}});
  }
  return {{"links", array}, {"unparsed_lines", statistics.unparsed_lines}};
}

}  // namespace netdoctor::parsers
