#include "parsers/perfquery.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

bool is_select(std::string_view name) {
  return name.ends_with("Select") || name.ends_with("Select2");
}

// "# Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)".
std::optional<PerfqueryBlock> read_header(std::string_view line) {
  if (!line.starts_with("# ")) {
    return std::nullopt;
  }
  auto colon = line.find(": Lid ");
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  PerfqueryBlock block;
  block.title = std::string(trim(line.substr(2, colon - 2)));
  block.extended = block.title.find("extended") != std::string::npos;
  auto words = split_ws(line.substr(colon + 2));
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    std::string_view next = words[i + 1];
    if (next.ends_with(')')) {
      next.remove_suffix(1);
    }
    if (words[i] == "Lid") {
      block.lid = ib::u32(next);
    } else if (words[i] == "port") {
      block.port = std::string(next);
    } else if (words[i] == "(CapMask:") {
      block.cap_mask = parse_hex(next);
    } else if (words[i] == "CapMask2:") {
      block.cap_mask2 = parse_hex(next);
    }
  }
  return block;
}

// "PortXmitWait:....................22730501"; the dots may be cut off in a fragment.
std::optional<PerfCounter> read_counter(std::string_view line, bool extended) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return std::nullopt;
  }
  std::string_view name = line.substr(0, colon);
  for (char c : name) {  // per-VL forms (-X, --rcvsl) index names: "PortVLXmitWait[0]"
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '[' && c != ']') {
      return std::nullopt;
    }
  }
  std::string_view rest = line.substr(colon + 1);
  bool dotted = rest.starts_with('.');
  rest = trim(rest.substr(std::min(rest.find_first_not_of('.'), rest.size())));
  if (!dotted && ib::port_counter_bits(name) == 0) {
    return std::nullopt;
  }
  PerfCounter c{std::string(name), std::string(rest), parse_u64(rest), 64, false, extended};
  if (!extended && ib::port_counter_bits(name) != 0) {
    c.bits = ib::port_counter_bits(name);
  }
  c.saturated = c.value && ib::saturated(*c.value, c.bits);
  return c;
}

void merge_counter(PerfqueryPort& port, const PerfCounter& c) {
  for (auto& have : port.counters) {
    if (have.name == c.name) {
      if (c.extended || !have.extended) {
        have = c;
      }
      return;
    }
  }
  port.counters.push_back(c);
}

// PortXmitData/PortRcvData count 4-octet words (IBA 16.1.3.5).
std::optional<std::uint64_t> octets(const PerfCounter* words) {
  constexpr std::uint64_t k_octets_per_word = 4;
  if (words == nullptr || *words->value > std::numeric_limits<std::uint64_t>::max() / 4) {
    return std::nullopt;
  }
  return *words->value * k_octets_per_word;
}

void merge_ports(Perfquery& out) {
  for (const auto& block : out.blocks) {
    PerfqueryPort* port = nullptr;
    for (auto& p : out.ports) {
      if (p.lid == block.lid && p.port == block.port) {
        port = &p;
      }
    }
    if (port == nullptr) {
      port = &out.ports.emplace_back();
      port->lid = block.lid;
      port->port = block.port;
    }
    for (const auto& c : block.counters) {
      if (c.value && !is_select(c.name)) {
        merge_counter(*port, c);
      }
    }
  }
  for (auto& p : out.ports) {
    p.xmit_data_octets = octets(p.find("PortXmitData"));
    p.rcv_data_octets = octets(p.find("PortRcvData"));
  }
}

nlohmann::json counters_json(const std::vector<PerfCounter>& counters) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : counters) {
    out.push_back({{"name", c.name},
                   {"text", c.text},
                   {"value", detail::opt(c.value)},
                   {"bits", c.bits},
                   {"saturated", c.saturated},
                   {"extended", c.extended}});
  }
  return out;
}

}  // namespace

const PerfCounter* PerfqueryBlock::find(std::string_view name) const {
  for (const auto& c : counters) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

const PerfCounter* PerfqueryPort::find(std::string_view name) const {
  for (const auto& c : counters) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

const PerfqueryPort* Perfquery::find_port(std::uint32_t lid, std::string_view port) const {
  for (const auto& p : ports) {
    if (p.lid == lid && p.port == port) {
      return &p;
    }
  }
  return nullptr;
}

Result<Perfquery> parse_perfquery(std::string_view text) {
  ND_TRY(detail::check_text(text));
  Perfquery out;
  for (auto line : ib::lines(text)) {
    line = trim(line);
    if (line.empty()) {
      continue;
    }
    if (auto header = read_header(line)) {
      out.blocks.push_back(std::move(*header));
      continue;
    }
    bool extended = !out.blocks.empty() && out.blocks.back().extended;
    if (auto counter = read_counter(line, extended)) {
      if (out.blocks.empty()) {
        out.blocks.emplace_back();  // a fragment cut before its header
      }
      out.blocks.back().counters.push_back(std::move(*counter));
    } else if (!detail::is_prompt_line(line)) {
      out.unparsed.emplace_back(line);
    }
  }
  if (out.blocks.empty()) {
    return detail::parse_error(
        "no perfquery counters found (a '# Port counters: Lid <lid> port <port>' header or "
        "'PortXmitData:....<n>' lines)");
  }
  merge_ports(out);
  return out;
}

nlohmann::json to_json(const Perfquery& perf) {
  using detail::opt;
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& b : perf.blocks) {
    blocks.push_back({{"title", b.title},
                      {"extended", b.extended},
                      {"lid", opt(b.lid)},
                      {"port", b.port},
                      {"cap_mask", opt(b.cap_mask)},
                      {"cap_mask2", opt(b.cap_mask2)},
                      {"counters", counters_json(b.counters)}});
  }
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : perf.ports) {
    ports.push_back({{"lid", opt(p.lid)},
                     {"port", p.port},
                     {"xmit_data_octets", opt(p.xmit_data_octets)},
                     {"rcv_data_octets", opt(p.rcv_data_octets)},
                     {"counters", counters_json(p.counters)}});
  }
  return {{"blocks", blocks}, {"ports", ports}, {"unparsed", perf.unparsed}};
}

}  // namespace netdoctor::parsers
