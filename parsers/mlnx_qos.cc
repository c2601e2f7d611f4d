#include "parsers/mlnx_qos.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

std::vector<std::uint32_t> numbers_after_label(std::string_view line) {
  std::vector<std::uint32_t> out;
  auto tokens = split_ws(line);
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (auto n = parse_u64(tokens[i])) {
      out.push_back(static_cast<std::uint32_t>(*n));
    }
  }
  return out;
}

// "tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%"
MlnxQosTc parse_tc(std::string_view line) {
  MlnxQosTc tc;
  for (auto part : split(line, ',')) {
    // Each comma part holds one or two "key: value" pairs ("tc: 0 ratelimit: unlimited").
    auto tokens = split_ws(part);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
      std::string_view key = tokens[i];
      std::string_view value = tokens[i + 1];
      if (key == "tc:") {
        tc.tc = static_cast<std::uint32_t>(parse_u64(value).value_or(0));
      } else if (key == "ratelimit:") {
        tc.ratelimit = std::string(value);
      } else if (key == "tsa:") {
        tc.tsa = std::string(value);
      } else if (key == "bw:") {
        if (value.ends_with('%')) {
          value.remove_suffix(1);
        }
        if (auto bw = parse_u64(value)) {
          tc.bw_percent = static_cast<std::uint32_t>(*bw);
        }
      }
    }
  }
  return tc;
}

}  // namespace

std::optional<std::uint32_t> MlnxQos::priority_of_dscp(std::uint32_t dscp) const {
  for (const auto& [prio, dscps] : dscp2prio) {
    if (std::find(dscps.begin(), dscps.end(), dscp) != dscps.end()) {
      return prio;
    }
  }
  return std::nullopt;
}

std::optional<bool> MlnxQos::pfc_enabled_on(std::uint32_t priority) const {
  if (priority >= pfc_enabled.size()) {
    return std::nullopt;
  }
  return pfc_enabled[priority];
}

Result<MlnxQos> parse_mlnx_qos(std::string_view text) {
  ND_TRY(detail::check_text(text));
  MlnxQos out;
  bool recognised = false;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (line.starts_with("DCBX mode:")) {
      out.dcbx_mode = std::string(trim(line.substr(10)));
      recognised = true;
    } else if (line.starts_with("Priority trust state:")) {
      out.trust_state = std::string(trim(line.substr(21)));
      recognised = true;
    } else if (line.starts_with("prio:")) {
      // "prio:3 dscp:31,30,29,28,27,26,25,24,"
      auto tokens = split_ws(line);
      auto prio = parse_u64(tokens[0].substr(5));
      if (!prio || tokens.size() < 2 || !tokens[1].starts_with("dscp:")) {
        continue;
      }
      auto& list = out.dscp2prio[static_cast<std::uint32_t>(*prio)];
      for (auto d : split(tokens[1].substr(5), ',')) {
        if (auto dscp = parse_u64(d)) {
          list.push_back(static_cast<std::uint32_t>(*dscp));
        }
      }
      recognised = true;
    } else if (line.starts_with("Receive buffer size (bytes):")) {
      for (auto item : split(line.substr(28), ',')) {
        item = trim(item);
        if (item.starts_with("max_buffer_size=")) {
          out.max_buffer_size = parse_u64(item.substr(16));
        } else if (auto size = parse_u64(item)) {
          out.receive_buffer_bytes.push_back(*size);
        }
      }
    } else if (line.starts_with("Cable len:")) {
      if (auto len = detail::leading_u64(line.substr(10))) {
        out.cable_len = static_cast<std::uint32_t>(*len);
      }
    } else if (line.starts_with("PFC configuration")) {
      recognised = true;
    } else if (line.starts_with("enabled ") || line.starts_with("enabled\t")) {
      out.pfc_enabled.clear();
      for (auto v : numbers_after_label(line)) {
        out.pfc_enabled.push_back(v != 0);
      }
    } else if (line.starts_with("buffer ") || line.starts_with("buffer\t")) {
      out.pfc_buffer = numbers_after_label(line);
    } else if (line.starts_with("tc:")) {
      out.tcs.push_back(parse_tc(line));
      recognised = true;
    } else if (line.starts_with("priority:") && !out.tcs.empty()) {
      if (auto prio = parse_u64(line.substr(9))) {
        out.tcs.back().priorities.push_back(static_cast<std::uint32_t>(*prio));
      }
    }
  }
  if (!recognised) {
    return detail::parse_error(
        "no 'Priority trust state', 'dscp2prio', 'PFC configuration' or 'tc:' line found");
  }
  return out;
}

nlohmann::json to_json(const MlnxQos& qos) {
  nlohmann::json dscp2prio = nlohmann::json::object();
  for (const auto& [prio, dscps] : qos.dscp2prio) {
    dscp2prio[std::to_string(prio)] = dscps;
  }
  nlohmann::json tcs = nlohmann::json::array();
  for (const auto& tc : qos.tcs) {
    tcs.push_back({{"tc", tc.tc},
                   {"ratelimit", tc.ratelimit},
                   {"tsa", tc.tsa},
                   {"bw_percent", detail::opt(tc.bw_percent)},
                   {"priorities", tc.priorities}});
  }
  return {{"dcbx_mode", qos.dcbx_mode},
          {"trust_state", qos.trust_state},
          {"dscp2prio", dscp2prio},
          {"receive_buffer_bytes", qos.receive_buffer_bytes},
          {"max_buffer_size", detail::opt(qos.max_buffer_size)},
          {"cable_len", detail::opt(qos.cable_len)},
          {"pfc_enabled", qos.pfc_enabled},
          {"pfc_buffer", qos.pfc_buffer},
          {"tcs", tcs}};
}

}  // namespace netdoctor::parsers
