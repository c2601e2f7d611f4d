#include "parsers/nccl_tests.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

bool starts_numeric(std::string_view token) {
  return !token.empty() &&
         (std::isdigit(static_cast<unsigned char>(token.front())) != 0 || token.front() == '-');
}

// "nThread 1 nGpus 1 ... step: 2(factor) warmup iters: 50 iters: 50 agg iters: 1 ..."
void parse_params(std::string_view line, std::map<std::string, std::string>& params) {
  std::string key;
  for (auto token : split_ws(line)) {
    if (!key.empty() && starts_numeric(token)) {
      if (key.ends_with(':')) {
        key.pop_back();
      }
      params[key] = std::string(token);
      key.clear();
    } else {
      if (!key.empty()) {
        key += ' ';
      }
      key += token;
    }
  }
}

// "Rank  0 Group  0 Pid   1164 on host device  0 [0x10] NVIDIA A800-SXM4-80GB" (Group optional)
std::optional<NcclRank> parse_rank(std::string_view line) {
  auto tokens = split_ws(line);
  if (tokens.size() < 2 || tokens[0] != "Rank") {
    return std::nullopt;
  }
  NcclRank rank;
  std::size_t i = 0;
  while (i + 1 < tokens.size()) {
    std::string_view key = tokens[i];
    std::string_view value = tokens[i + 1];
    if (key == "Rank") {
      rank.rank = static_cast<std::uint32_t>(parse_u64(value).value_or(0));
    } else if (key == "Group") {
      rank.group = static_cast<std::uint32_t>(parse_u64(value).value_or(0));
    } else if (key == "Pid") {
      rank.pid = parse_u64(value).value_or(0);
    } else if (key == "on") {
      rank.host = std::string(value);
    } else if (key == "device") {
      rank.device = static_cast<std::uint32_t>(parse_u64(value).value_or(0));
      i += 2;
      if (i < tokens.size() && tokens[i].starts_with('[')) {
        std::string_view bus = tokens[i];
        bus.remove_prefix(1);
        if (bus.ends_with(']')) {
          bus.remove_suffix(1);
        }
        rank.bus_id = std::string(bus);
        ++i;
      }
      std::vector<std::string> name;
      for (; i < tokens.size(); ++i) {
        name.emplace_back(tokens[i]);
      }
      rank.gpu_name = join(name, " ");
      break;
    } else {
      ++i;
      continue;
    }
    i += 2;
  }
  return rank;
}

NcclLeg parse_leg(const std::vector<std::string_view>& t, std::size_t at, bool new_format) {
  NcclLeg leg;
  leg.time_us = parse_double(t[at]);
  leg.algbw_gbyte_s = parse_double(t[at + 1]);
  leg.busbw_gbyte_s = parse_double(t[at + 2]);
  if (new_format) {
    leg.wrong = parse_u64(t[at + 3]);
    leg.error = std::string(t[at + 3]);
  } else {
    leg.error = std::string(t[at + 3]);
  }
  return leg;
}

// The columns a table header declares: "size count type redop [root] time algbw busbw
// error|#wrong time algbw busbw error|#wrong".
struct TableColumns {
  bool redop = false;
  bool root = false;
  bool wrong = false;  // "#wrong" (newer nccl-tests) instead of "error"
};

std::optional<TableColumns> parse_table_header(std::string_view body) {
  auto words = split_ws(body);
  if (words.size() < 5 || words[0] != "size" || words[1] != "count") {
    return std::nullopt;
  }
  TableColumns columns;
  for (auto word : words) {
    columns.redop = columns.redop || word == "redop";
    columns.root = columns.root || word == "root";
    columns.wrong = columns.wrong || word == "#wrong";
  }
  return columns;
}

// A result row: size, count and type first, the two legs (4 cells each) last; between them the
// redop and root cells the collective prints ("sum -1", "none -1", "sum", "" for alltoall in
// older nccl-tests). `header` is the table's header when one was seen.
std::optional<NcclRow> parse_row(const std::vector<std::string_view>& t,
                                 const std::optional<TableColumns>& header) {
  constexpr std::size_t k_leading = 3;
  constexpr std::size_t k_legs = 8;
  if (t.size() < k_leading + k_legs || t.size() > k_leading + k_legs + 2 || !parse_u64(t[0]) ||
      !parse_u64(t[1]) || parse_double(t[2])) {
    return std::nullopt;
  }
  NcclRow row;
  row.size_bytes = *parse_u64(t[0]);
  row.count = *parse_u64(t[1]);
  row.type = std::string(t[2]);
  const std::size_t middle = t.size() - k_leading - k_legs;
  for (std::size_t i = k_leading; i < k_leading + middle; ++i) {
    auto root = parse_i64(t[i]);
    if (root && (middle == 2 ? i == k_leading + 1 : true)) {
      row.root = root;
    } else {
      row.redop = std::string(t[i]);
    }
  }
  const bool wrong = header ? header->wrong : middle == 2;
  const std::size_t at = k_leading + middle;
  row.out_of_place = parse_leg(t, at, wrong);
  row.in_place = parse_leg(t, at + 4, wrong);
  return row;
}

}  // namespace

std::vector<NcclIbDevice> parse_nccl_net_ib_devices(std::string_view line, bool& relaxed_ordering) {
  std::vector<NcclIbDevice> devices;
  auto at = line.find("Using ");
  if (at == std::string_view::npos) {
    return devices;
  }
  std::string_view rest = line.substr(at + 6);
  rest = rest.substr(0, rest.find(';'));
  for (auto token : split_ws(rest)) {
    if (token == "[RO]") {
      relaxed_ordering = true;
      continue;
    }
    auto close = token.find(']');
    if (!token.starts_with('[') || close == std::string_view::npos) {
      continue;
    }
    NcclIbDevice dev;
    dev.index = static_cast<std::uint32_t>(parse_u64(token.substr(1, close - 1)).value_or(0));
    auto parts = split(token.substr(close + 1), '/');
    std::string_view name_port = parts[0];
    auto colon = name_port.rfind(':');
    dev.name = std::string(name_port.substr(0, colon));
    if (colon != std::string_view::npos) {
      dev.port = static_cast<std::uint32_t>(parse_u64(name_port.substr(colon + 1)).value_or(0));
    }
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (parts[i] == "SHARP") {
        dev.sharp = true;
      } else if (dev.link.empty()) {
        dev.link = std::string(parts[i]);
      }
    }
    devices.push_back(std::move(dev));
  }
  return devices;
}

Result<NcclTestsResult> parse_nccl_tests(std::string_view text) {
  ND_TRY(detail::check_text(text));
  NcclTestsResult out;
  bool saw_header = false;
  std::optional<TableColumns> header;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(detail::strip_quote(raw));
    if (line.empty()) {
      continue;
    }
    if (contains(line, "Test NCCL failure") || contains(line, "Test failure") ||
        contains(line, "Test CUDA failure")) {
      out.failures.emplace_back(line);
      continue;
    }
    if (contains(line, "NCCL WARN")) {
      out.warnings.emplace_back(line);
    }
    if (contains(line, "NET/IB : Using")) {
      for (auto& dev : parse_nccl_net_ib_devices(line, out.relaxed_ordering)) {
        out.ib_devices.push_back(std::move(dev));
      }
      continue;
    }
    if (auto at = line.find("NCCL INFO Using network "); at != std::string_view::npos) {
      auto tokens = split_ws(line.substr(at + 24));
      if (!tokens.empty()) {
        out.network = std::string(tokens[0]);
      }
      continue;
    }
    if (line.starts_with('#')) {
      std::string_view body = trim(line.substr(1));
      if (body.starts_with("nThread")) {
        parse_params(body, out.params);
        saw_header = true;
      } else if (body.starts_with("Rank")) {
        if (auto rank = parse_rank(body)) {
          out.ranks.push_back(std::move(*rank));
        }
      } else if (auto columns = parse_table_header(body)) {
        out.new_format = columns->root || columns->wrong;
        header = columns;
        saw_header = true;
      } else if (body.starts_with("Avg bus bandwidth")) {
        if (auto kv = detail::split_key_value(body)) {
          out.avg_bus_bandwidth_gbyte_s = parse_double(kv->value);
        }
      } else if (body.starts_with("Out of bounds values")) {
        if (auto kv = detail::split_key_value(body)) {
          out.out_of_bounds = detail::leading_u64(kv->value);
        }
      }
      continue;
    }
    if (auto row = parse_row(split_ws(line), header)) {
      out.rows.push_back(std::move(*row));
    }
  }
  if (!saw_header && out.rows.empty() && !out.avg_bus_bandwidth_gbyte_s && out.failures.empty()) {
    return detail::parse_error(
        "no nccl-tests header ('# nThread'), result row, 'Avg bus bandwidth' or failure found");
  }
  return out;
}

nlohmann::json to_json(const NcclTestsResult& r) {
  using detail::opt;
  auto leg = [](const NcclLeg& l) {
    return nlohmann::json{{"time_us", opt(l.time_us)},
                          {"algbw_gbyte_s", opt(l.algbw_gbyte_s)},
                          {"busbw_gbyte_s", opt(l.busbw_gbyte_s)},
                          {"wrong", opt(l.wrong)},
                          {"error", l.error}};
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    rows.push_back({{"size_bytes", row.size_bytes},
                    {"count", row.count},
                    {"type", row.type},
                    {"redop", row.redop},
                    {"root", opt(row.root)},
                    {"out_of_place", leg(row.out_of_place)},
                    {"in_place", leg(row.in_place)}});
  }
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& rank : r.ranks) {
    ranks.push_back({{"rank", rank.rank},
                     {"group", rank.group},
                     {"pid", rank.pid},
                     {"host", rank.host},
                     {"device", rank.device},
                     {"bus_id", rank.bus_id},
                     {"gpu_name", rank.gpu_name}});
  }
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& dev : r.ib_devices) {
    devices.push_back({{"index", dev.index},
                       {"name", dev.name},
                       {"port", dev.port},
                       {"link", dev.link},
                       {"sharp", dev.sharp}});
  }
  return {{"params", r.params},
          {"ranks", ranks},
          {"new_format", r.new_format},
          {"rows", rows},
          {"out_of_bounds", opt(r.out_of_bounds)},
          {"avg_bus_bandwidth_gbyte_s", opt(r.avg_bus_bandwidth_gbyte_s)},
          {"failures", r.failures},
          {"warnings", r.warnings},
          {"network", r.network},
          {"ib_devices", devices},
          {"relaxed_ordering", r.relaxed_ordering}};
}

}  // namespace netdoctor::parsers
