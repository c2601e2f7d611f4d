#include "parsers/perftest.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "base/whole_number.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr double k_mib_per_s_to_gbps = 1048576.0 * 8.0 / 1e9;

bool is_dash_line(std::string_view line) {
  line = trim(line);
  return line.size() >= 20 && line.find_first_not_of('-') == std::string_view::npos;
}

// " Dual-port       : OFF\t\tDevice         : mlx5_0" -> two pairs. Blanks around ':' are
// removed first so that runs of 2+ blanks only separate pairs ("rdma_cm QPs\t :" quirk).
std::vector<PerftestParam> parse_param_line(std::string_view line) {
  std::string squeezed;
  std::string_view t = trim(line);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ':') {
      while (!squeezed.empty() && (squeezed.back() == ' ' || squeezed.back() == '\t')) {
        squeezed.pop_back();
      }
      squeezed.push_back(':');
      while (i + 1 < t.size() && (t[i + 1] == ' ' || t[i + 1] == '\t')) {
        ++i;
      }
    } else {
      squeezed.push_back(t[i]);
    }
  }
  std::vector<PerftestParam> out;
  for (auto piece : split_wide(squeezed)) {
    auto colon = piece.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      continue;
    }
    out.push_back(
        {std::string(trim(piece.substr(0, colon))), std::string(trim(piece.substr(colon + 1)))});
  }
  return out;
}

// "00:00:...:255:255:10:00:00:12" (decimal bytes) -> "10.0.0.12" when IPv4-mapped.
std::string gid_ipv4(std::string_view gid) {
  auto parts = split(gid, ':');
  if (parts.size() != 16) {
    return {};
  }
  std::vector<std::uint64_t> bytes;
  for (auto p : parts) {
    auto b = parse_u64(p);
    if (!b || *b > 255) {
      return {};
    }
    bytes.push_back(*b);
  }
  bool mapped = std::all_of(bytes.begin(), bytes.begin() + 10, [](auto b) { return b == 0; }) &&
                bytes[10] == 255 && bytes[11] == 255;
  if (!mapped) {
    return {};
  }
  return std::to_string(bytes[12]) + "." + std::to_string(bytes[13]) + "." +
         std::to_string(bytes[14]) + "." + std::to_string(bytes[15]);
}

std::optional<std::vector<double>> numeric_row(std::string_view line) {
  auto tokens = split_ws(line);
  if (tokens.size() < 2) {
    return std::nullopt;
  }
  std::vector<double> values;
  for (auto token : tokens) {
    auto v = parse_double(token);
    if (!v) {
      return std::nullopt;
    }
    values.push_back(*v);
  }
  return values;
}

std::string unit_of(std::string_view header, std::string_view column) {
  auto at = header.find(column);
  if (at == std::string_view::npos) {
    return {};
  }
  auto open = header.find('[', at);
  auto close = header.find(']', at);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return {};
  }
  return std::string(header.substr(open + 1, close - open - 1));
}

double to_gbps(double value, std::string_view unit) {
  return unit == "Gb/sec" ? value : value * k_mib_per_s_to_gbps;
}

// Records a perftest error message; false when `line` is not one.
bool add_errors(std::string_view line, PerftestResult& out) {
  if (auto at = line.find("Couldn't connect to "); at != std::string_view::npos) {
    PerftestError e{"connect", std::string(trim(line.substr(at))), {}, {}, {}};
    auto rest = split_ws(line.substr(at + 20));
    if (!rest.empty()) {
      e.peer = std::string(rest[0]);
    }
    out.errors.push_back(std::move(e));
    return true;
  }
  if (contains(line, "Completion with error") || contains(line, "Failed status")) {
    if (contains(line, "Completion with error") || out.errors.empty() ||
        out.errors.back().kind != "completion") {
      out.errors.push_back({"completion", std::string(trim(line)), {}, {}, {}});
    } else {
      out.errors.back().message += " " + std::string(trim(line));
    }
    if (auto at = line.find("Failed status "); at != std::string_view::npos) {
      if (auto status = detail::leading_u64(line.substr(at + 14))) {
        out.errors.back().wc_status = static_cast<std::uint32_t>(*status);
        out.errors.back().wc_status_name = wc_status_name(static_cast<std::uint32_t>(*status));
      }
    }
    return true;
  }
  // Old builds print several "Unable to ..." messages run together on one line.
  std::string_view t = trim(line);
  bool unable = contains(t, "Unable to ");
  if (unable) {
    std::size_t pos = t.find("Unable to ");
    while (pos != std::string_view::npos) {
      std::size_t next = t.find("Unable to ", pos + 10);
      std::string_view msg =
          trim(t.substr(pos, next == std::string_view::npos ? next : next - pos));
      out.errors.push_back(
          {contains(msg, "socket") ? "socket" : "other", std::string(msg), {}, {}, {}});
      pos = next;
    }
    return true;
  }
  if (t.starts_with("Couldn't") || t.starts_with("Failed to") || t.starts_with("Error") ||
      t.starts_with("ERROR") || contains(t, ": Couldn't ")) {
    out.errors.push_back({"other", std::string(t), {}, {}, {}});
    return true;
  }
  return false;
}

}  // namespace

std::string wc_status_name(std::uint32_t status) {
  static constexpr const char* k_names[] = {"IBV_WC_SUCCESS",
                                            "IBV_WC_LOC_LEN_ERR",
                                            "IBV_WC_LOC_QP_OP_ERR",
                                            "IBV_WC_LOC_EEC_OP_ERR",
                                            "IBV_WC_LOC_PROT_ERR",
                                            "IBV_WC_WR_FLUSH_ERR",
                                            "IBV_WC_MW_BIND_ERR",
                                            "IBV_WC_BAD_RESP_ERR",
                                            "IBV_WC_LOC_ACCESS_ERR",
                                            "IBV_WC_REM_INV_REQ_ERR",
                                            "IBV_WC_REM_ACCESS_ERR",
                                            "IBV_WC_REM_OP_ERR",
                                            "IBV_WC_RETRY_EXC_ERR",
                                            "IBV_WC_RNR_RETRY_EXC_ERR",
                                            "IBV_WC_LOC_RDD_VIOL_ERR",
                                            "IBV_WC_REM_INV_RD_REQ_ERR",
                                            "IBV_WC_REM_ABORT_ERR",
                                            "IBV_WC_INV_EECN_ERR",
                                            "IBV_WC_INV_EEC_STATE_ERR",
                                            "IBV_WC_FATAL_ERR",
                                            "IBV_WC_RESP_TIMEOUT_ERR",
                                            "IBV_WC_GENERAL_ERR",
                                            "IBV_WC_TM_ERR",
                                            "IBV_WC_TM_RNDV_INCOMPLETE"};
  if (status >= std::size(k_names)) {
    return {};
  }
  return k_names[status];
}

Result<PerftestResult> parse_perftest(std::string_view text) {
  ND_TRY(detail::check_text(text));
  PerftestResult out;
  std::vector<std::string_view> lines;
  for (auto raw : split_lines(text)) {
    lines.push_back(detail::strip_quote(raw));
  }
  enum class Section { Preamble, Params, Addresses, Table };
  Section section = Section::Preamble;
  std::string table_header;
  for (std::string_view raw : lines) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (is_dash_line(line)) {
      if (section == Section::Params) {
        section = Section::Addresses;
      } else if (section == Section::Table) {
        table_header.clear();
      }
      continue;
    }
    if (line.starts_with("WARNING:") || line.starts_with("Conflicting CPU frequency")) {
      out.warnings.emplace_back(line);
      if (contains(line, "BW peak won't be measured")) {
        out.bw_peak_measured = false;
      }
      continue;
    }
    if (line.starts_with("*")) {
      continue;  // the server's "Waiting for client to connect" box
    }
    if (out.title.empty() && line.ends_with(" Test") &&
        (contains(line, " BW ") || contains(line, " Latency ") ||
         contains(line, "Bidirectional"))) {
      out.title = std::string(line);
      out.kind = contains(line, "Latency") ? PerftestKind::Latency : PerftestKind::Bandwidth;
      out.bidirectional = contains(line, "Bidirectional");
      auto cut = line.find(' ');
      out.verb = std::string(line.substr(0, cut));
      section = Section::Params;
      continue;
    }
    if (line.starts_with("#bytes")) {
      table_header = std::string(line);
      section = Section::Table;
      if (contains(line, "BW average")) {
        out.kind = PerftestKind::Bandwidth;
        out.bw_unit = unit_of(line, "BW average");
      } else if (contains(line, "t_min") || contains(line, "t_avg")) {
        out.kind = PerftestKind::Latency;
      }
      continue;
    }
    if (line.starts_with("local address:") || line.starts_with("remote address:")) {
      PerftestAddress addr;
      addr.side = line.starts_with("local") ? "local" : "remote";
      auto tokens = split_ws(line.substr(line.find(':') + 1));
      for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (tokens[i] == "LID") {
          addr.lid = std::string(tokens[i + 1]);
        } else if (tokens[i] == "QPN") {
          addr.qpn = std::string(tokens[i + 1]);
        } else if (tokens[i] == "PSN") {
          addr.psn = std::string(tokens[i + 1]);
        }
      }
      out.addresses.push_back(std::move(addr));
      section = Section::Addresses;
      continue;
    }
    if (line.starts_with("GID:") && !out.addresses.empty()) {
      auto& addr = out.addresses.back();
      addr.gid = std::string(trim(line.substr(4)));
      addr.gid_ipv4 = gid_ipv4(addr.gid);
      continue;
    }
    if (section == Section::Table && !table_header.empty()) {
      if (auto values = numeric_row(line)) {
        const auto& v = *values;  // at least two numbers
        const auto bytes = whole_count(v[0]);
        const auto iterations = whole_count(v[1]);
        if (!bytes || !iterations) {
          continue;  // not a result row: sizes and counts are whole and not negative
        }
        if (out.kind == PerftestKind::Latency && v.size() >= 5) {
          PerftestLatRow row;
          row.bytes = *bytes;
          row.iterations = *iterations;
          row.t_min_us = v[2];
          row.t_max_us = v[3];
          row.t_typical_us = v[4];
          if (v.size() >= 7) {
            row.t_avg_us = v[5];
            row.t_stdev_us = v[6];
          }
          if (v.size() >= 9) {
            row.p99_us = v[7];
            row.p999_us = v[8];
          }
          out.lat_rows.push_back(row);
        } else if (out.kind == PerftestKind::Bandwidth && v.size() >= 4) {
          PerftestBwRow row;
          row.bytes = *bytes;
          row.iterations = *iterations;
          row.bw_average = v[3];
          row.bw_average_gbps = to_gbps(v[3], out.bw_unit);
          // A peak below the average is impossible when measured: perftest prints 0.00.
          bool peak_valid = out.bw_peak_measured && !(v[2] == 0.0 && v[3] > 0.0);
          if (peak_valid) {
            row.bw_peak = v[2];
            row.bw_peak_gbps = to_gbps(v[2], out.bw_unit);
          }
          if (v.size() >= 5) {
            row.msg_rate_mpps = v[4];
          }
          if (v.size() >= 6 && contains(table_header, "BW min")) {
            std::string min_unit = unit_of(table_header, "BW min");
            row.bw_min = v[5];
            row.bw_min_gbps = to_gbps(v[5], min_unit.empty() ? out.bw_unit : min_unit);
          }
          out.bw_rows.push_back(row);
        }
        continue;
      }
    }
    if (add_errors(line, out)) {
      continue;
    }
    if (section == Section::Params && contains(line, ":")) {
      for (auto& p : parse_param_line(line)) {
        out.param_map[p.key] = p.value;
        out.params.push_back(std::move(p));
      }
      continue;
    }
  }
  auto param = [&out](const char* key) {
    auto it = out.param_map.find(key);
    return it == out.param_map.end() ? std::string() : it->second;
  };
  out.device = param("Device");
  out.link_type = param("Link type");
  out.connection_type = param("Connection type");
  if (auto mtu = detail::leading_u64(param("Mtu"))) {
    out.mtu_bytes = static_cast<std::uint32_t>(*mtu);
  }
  if (auto qps = parse_u64(param("Number of qps"))) {
    out.num_qps = static_cast<std::uint32_t>(*qps);
  }
  if (auto gid = parse_u64(param("GID index"))) {
    out.gid_index = static_cast<std::uint32_t>(*gid);
  }
  if (!out.bw_rows.empty() && std::none_of(out.bw_rows.begin(), out.bw_rows.end(),
                                           [](const auto& r) { return r.bw_peak.has_value(); })) {
    out.bw_peak_measured = false;
  }
  if (out.title.empty() && out.bw_rows.empty() && out.lat_rows.empty() && out.errors.empty()) {
    return detail::parse_error("no perftest title, result table or known error message found");
  }
  return out;
}

nlohmann::json to_json(const PerftestResult& r) {
  using detail::opt;
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : r.params) {
    params.push_back({{"key", p.key}, {"value", p.value}});
  }
  nlohmann::json addresses = nlohmann::json::array();
  for (const auto& a : r.addresses) {
    addresses.push_back({{"side", a.side},
                         {"lid", a.lid},
                         {"qpn", a.qpn},
                         {"psn", a.psn},
                         {"gid", a.gid},
                         {"gid_ipv4", a.gid_ipv4}});
  }
  nlohmann::json bw = nlohmann::json::array();
  for (const auto& row : r.bw_rows) {
    bw.push_back({{"bytes", row.bytes},
                  {"iterations", row.iterations},
                  {"bw_peak", opt(row.bw_peak)},
                  {"bw_average", row.bw_average},
                  {"msg_rate_mpps", opt(row.msg_rate_mpps)},
                  {"bw_min", opt(row.bw_min)},
                  {"bw_peak_gbps", opt(row.bw_peak_gbps)},
                  {"bw_average_gbps", row.bw_average_gbps},
                  {"bw_min_gbps", opt(row.bw_min_gbps)}});
  }
  nlohmann::json lat = nlohmann::json::array();
  for (const auto& row : r.lat_rows) {
    lat.push_back({{"bytes", row.bytes},
                   {"iterations", row.iterations},
                   {"t_min_us", row.t_min_us},
                   {"t_max_us", row.t_max_us},
                   {"t_typical_us", opt(row.t_typical_us)},
                   {"t_avg_us", opt(row.t_avg_us)},
                   {"t_stdev_us", opt(row.t_stdev_us)},
                   {"p99_us", opt(row.p99_us)},
                   {"p999_us", opt(row.p999_us)}});
  }
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& e : r.errors) {
    errors.push_back({{"kind", e.kind},
                      {"message", e.message},
                      {"peer", e.peer},
                      {"wc_status", opt(e.wc_status)},
                      {"wc_status_name", e.wc_status_name}});
  }
  const char* kind = r.kind == PerftestKind::Bandwidth ? "bandwidth"
                     : r.kind == PerftestKind::Latency ? "latency"
                                                       : "unknown";
  return {{"title", r.title},
          {"verb", r.verb},
          {"kind", kind},
          {"bidirectional", r.bidirectional},
          {"device", r.device},
          {"link_type", r.link_type},
          {"connection_type", r.connection_type},
          {"mtu_bytes", opt(r.mtu_bytes)},
          {"num_qps", opt(r.num_qps)},
          {"gid_index", opt(r.gid_index)},
          {"params", params},
          {"addresses", addresses},
          {"bw_unit", r.bw_unit},
          {"bw_peak_measured", r.bw_peak_measured},
          {"bw_rows", bw},
          {"lat_rows", lat},
          {"errors", errors},
          {"warnings", r.warnings}};
}

}  // namespace netdoctor::parsers
