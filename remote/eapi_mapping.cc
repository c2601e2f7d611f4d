#include "remote/eapi_mapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "base/sonic_table.h"
#include "base/strings.h"
#include "base/whole_number.h"
#include "remote/sonic_cells.h"

namespace netdoctor::remote {
namespace {

constexpr std::size_t k_counters = 0;
constexpr std::size_t k_errors = 1;
constexpr std::size_t k_status = 2;
constexpr std::size_t k_lldp = 3;

using Json = nlohmann::json;

// Both arms of a conditional must be lvalues, or the chosen subtree is copied.
const Json& member(const Json& object, const std::string& key) {
  static const Json k_empty = Json::object();
  if (!object.is_object()) {
    return k_empty;
  }
  auto it = object.find(key);
  return it == object.end() ? k_empty : *it;
}

std::optional<std::uint64_t> count(const Json& object, const char* key) {
  if (!object.is_object()) {
    return std::nullopt;
  }
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) {
    return std::nullopt;
  }
  return whole_count(it->get<double>());
}

std::string cell(std::optional<std::uint64_t> value) {
  return value ? grouped_count(*value) : std::string("N/A");
}

std::optional<std::uint64_t> sum(std::initializer_list<std::optional<std::uint64_t>> parts) {
  std::optional<std::uint64_t> total;
  for (const auto& part : parts) {
    if (part) {
      total = total.value_or(0) + *part;
    }
  }
  return total;
}

// A cell must be one word: the SONiC parsers split on column positions and spaces.
std::string word(const Json& object, const char* key) {
  const Json& field = member(object, key);
  return field.is_string() ? cell_word(field.get<std::string>()) : std::string("N/A");
}

std::vector<std::string> sorted_keys(const Json& object) {
  std::vector<std::string> keys;
  if (object.is_object()) {
    for (const auto& [key, value] : object.items()) {
      keys.push_back(key);
    }
  }
  std::sort(keys.begin(), keys.end(), NaturalLess());
  return keys;
}

std::string render_counters(const Json& counters, const Json& errors, const Json& status) {
  const Json& interfaces = member(counters, "interfaces");
  const Json& error_rows = member(errors, "interfaceErrorCounters");
  const Json& statuses = member(status, "interfaceStatuses");
  std::vector<std::vector<std::string>> rows;
  for (const auto& name : sorted_keys(interfaces)) {
    const Json& c = member(interfaces, name);
    const Json& e = member(error_rows, name);
    std::string state = "N/A";
    if (const Json& s = member(statuses, name); s.contains("linkStatus")) {
      const std::string link = s.value("linkStatus", "");
      state = link == "connected" ? "U" : (link == "disabled" ? "X" : "D");
    }
    rows.push_back({name, state,
                    cell(sum({count(c, "inUcastPkts"), count(c, "inMulticastPkts"),
                              count(c, "inBroadcastPkts")})),
                    "N/A", "N/A", cell(count(e, "inErrors")), cell(count(c, "inDiscards")), "N/A",
                    cell(sum({count(c, "outUcastPkts"), count(c, "outMulticastPkts"),
                              count(c, "outBroadcastPkts")})),
                    "N/A", "N/A", cell(count(e, "outErrors")), cell(count(c, "outDiscards")),
                    "N/A"});
  }
  return render_sonic_table({"IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP",
                             "RX_OVR", "TX_OK", "TX_BPS", "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR"},
                            rows);
}

std::string render_status(const Json& status) {
  const Json& statuses = member(status, "interfaceStatuses");
  std::vector<std::vector<std::string>> rows;
  for (const auto& name : sorted_keys(statuses)) {
    const Json& s = member(statuses, name);
    std::string speed = "N/A";
    if (auto bps = count(s, "bandwidth"); bps && *bps > 0) {
      speed = fmt::format("{}G", *bps / 1'000'000'000);
      if (*bps % 1'000'000'000 != 0) {
        speed = fmt::format("{}M", *bps / 1'000'000);
      }
    }
    const std::string link = s.is_object() ? s.value("linkStatus", "") : "";
    rows.push_back({name, "N/A", speed, "N/A", "N/A", "N/A", "N/A",
                    link == "connected" ? "up" : "down", link == "disabled" ? "down" : "up",
                    word(s, "interfaceType"), "N/A"});
  }
  return render_sonic_table({"Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper",
                             "Admin", "Type", "Asym PFC"},
                            rows);
}

std::string render_lldp(const Json& lldp) {
  std::vector<std::vector<std::string>> rows;
  if (const Json& neighbors = member(lldp, "lldpNeighbors"); neighbors.is_array()) {
    for (const auto& n : neighbors) {
      const std::string port = word(n, "neighborPort");
      rows.push_back({word(n, "port"), word(n, "neighborDevice"), port, "", port});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return natural_less(a[0], b[0]); });
  return "Capability codes: (R) Router, (B) Bridge, (O) Other\n" +
         render_sonic_table(
             {"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"}, rows) +
         std::string(50, '-') + fmt::format("\nTotal entries displayed:  {}\n", rows.size());
}

}  // namespace

const std::vector<std::string>& eapi_commands() {
  static const std::vector<std::string> k_commands = {
      "show interfaces counters", "show interfaces counters errors", "show interfaces status",
      "show lldp neighbors"};
  return k_commands;
}

std::string eapi_request_body() {
  const Json body = {{"jsonrpc", "2.0"},
                     {"method", "runCmds"},
                     {"params", {{"version", 1}, {"cmds", eapi_commands()}, {"format", "json"}}},
                     {"id", "netdoctor"}};
  return body.dump();
}

Result<EapiAnswer> map_eapi_answer(std::string_view body) {
  const Json json = Json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return make_error(ErrorCode::Parse, "eAPI answer is not JSON");
  }
  if (json.contains("error")) {
    const Json& error = json["error"];
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("eAPI error {}: {}", error.is_object() ? error.value("code", 0) : 0,
                    error.is_object() ? error.value("message", "") : ""));
  }
  if (!json.contains("result") || !json["result"].is_array() ||
      json["result"].size() != eapi_commands().size() ||
      !std::all_of(json["result"].begin(), json["result"].end(),
                   [](const Json& r) { return r.is_object(); })) {
    return make_error(ErrorCode::Parse,
                      fmt::format("eAPI answer lacks one result object per command ({})",
                                  eapi_commands().size()));
  }
  const Json& result = json["result"];
  EapiAnswer answer;
  answer.sonic_outputs["show interfaces counters"] =
      render_counters(result[k_counters], result[k_errors], result[k_status]);
  answer.sonic_outputs["show interfaces status"] = render_status(result[k_status]);
  answer.sonic_outputs["show lldp table"] = render_lldp(result[k_lldp]);
  return answer;
}

}  // namespace netdoctor::remote
