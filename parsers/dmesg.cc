#include "parsers/dmesg.h"

#include <array>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "parsers/pcie.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// Takes the next blank-separated token off the front of `s`.
std::string_view take_token(std::string_view& s) {
  s = trim_left(s);
  auto end = s.find_first_of(" \t");
  std::string_view token = s.substr(0, end);
  s = end == std::string_view::npos ? std::string_view{} : s.substr(end);
  return token;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool is_month(std::string_view t) {
  static constexpr std::array<std::string_view, 12> k_months = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (auto m : k_months) {
    if (t == m) {
      return true;
    }
  }
  return false;
}

bool is_clock(std::string_view t) {
  return t.size() == 8 && t[2] == ':' && t[5] == ':' && all_digits(t.substr(0, 2)) &&
         all_digits(t.substr(3, 2)) && all_digits(t.substr(6, 2));
}

bool is_day(std::string_view t) {
  return all_digits(t) && t.size() <= 2;
}

// "2026-08-07T09:24:35Z", "2023-02-14T18:48:25,123456+00:00".
bool is_iso_stamp(std::string_view t) {
  return t.size() >= 19 && all_digits(t.substr(0, 4)) && t[4] == '-' && t[7] == '-' &&
         t[10] == 'T' && is_clock(t.substr(11, 8));
}

// "[   12.345678]" content: seconds since boot.
std::optional<double> boot_seconds(std::string_view content) {
  content = trim(content);
  auto dot = content.find('.');
  if (dot == std::string_view::npos || !all_digits(content.substr(0, dot)) ||
      !all_digits(content.substr(dot + 1))) {
    return std::nullopt;
  }
  return parse_double(content);
}

// "Tue Feb 14 18:48:25 2023" (dmesg -T).
bool is_ctime(std::string_view content) {
  auto weekday = take_token(content);
  auto month = take_token(content);
  auto day = take_token(content);
  auto clock = take_token(content);
  auto year = take_token(content);
  return weekday.size() == 3 && is_month(month) && is_day(day) && is_clock(clock) &&
         year.size() == 4 && all_digits(year) && trim(content).empty();
}

// Where a line's time and origin stop and the kernel message starts.
struct Prefix {
  bool log_shaped = false;  // a log line, from the kernel or not
  bool kernel = false;
  std::optional<double> seconds;
  std::string time_text;
  std::string host;
  std::string level;
  std::string_view rest;
};

// "kern.err: " as log collectors write the facility.priority.
void take_collector_level(std::string_view& s, Prefix& p) {
  std::string_view t = s;
  std::string_view token = take_token(t);
  if (token.size() < 4 || !token.ends_with(':')) {
    return;
  }
  std::string_view body = token.substr(0, token.size() - 1);
  auto dot = body.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == body.size() ||
      body.find_first_not_of("abcdefghijklmnopqrstuvwxyz.") != std::string_view::npos) {
    return;
  }
  p.level = std::string(body);
  s = t;
}

// After a syslog or journal stamp: "host kernel: " (a kernel line) or "host ident[pid]: " (another
// program's line). Without either, the message follows the stamp directly (dmesg --time-format).
void take_host_and_ident(std::string_view& s, Prefix& p) {
  p.log_shaped = true;
  std::string_view t = s;
  std::string_view host = take_token(t);
  std::string_view ident = take_token(t);
  if (ident == "kernel:") {
    p.host = std::string(host);
    p.kernel = true;
    s = t;
  } else if (ident.size() > 1 && ident.ends_with(':') &&
             !normalize_pci_address(ident.substr(0, ident.size() - 1))) {
    p.host = std::string(host);
    s = t;
  } else {
    p.kernel = true;
  }
}

// "Aug 15 12:21:39 " or "2026-08-07T09:24:35Z ".
bool take_stamp(std::string_view& s, Prefix& p) {
  std::string_view t = s;
  std::string_view first = take_token(t);
  if (is_iso_stamp(first)) {
    p.time_text = std::string(first);
  } else {
    std::string_view day = take_token(t);
    std::string_view clock = take_token(t);
    if (!is_month(first) || !is_day(day) || !is_clock(clock)) {
      return false;
    }
    p.time_text = std::string(first) + " " + std::string(day) + " " + std::string(clock);
  }
  s = t;
  take_host_and_ident(s, p);
  return true;
}

// "<6>" printk level, then "[seconds]" or "[ctime]", then an optional "[T123]" caller id.
void take_brackets(std::string_view& s, Prefix& p) {
  s = trim_left(s);
  if (s.size() > 2 && s[0] == '<') {
    auto close = s.find('>');
    if (close != std::string_view::npos && close <= 4 && all_digits(s.substr(1, close - 1))) {
      p.level = std::string(s.substr(0, close + 1));
      s = trim_left(s.substr(close + 1));
    }
  }
  if (!s.starts_with('[')) {
    return;
  }
  auto close = s.find(']');
  if (close == std::string_view::npos) {
    return;
  }
  std::string_view content = s.substr(1, close - 1);
  if (auto seconds = boot_seconds(content)) {
    p.seconds = seconds;
  } else if (is_ctime(content)) {
    p.time_text = std::string(trim(content));
  } else {
    return;
  }
  p.log_shaped = true;
  p.kernel = true;
  s = trim_left(s.substr(close + 1));
  if (s.starts_with('[')) {
    auto end = s.find(']');
    std::string_view caller = end == std::string_view::npos ? "" : trim(s.substr(1, end - 1));
    if (caller.size() > 1 && (caller[0] == 'T' || caller[0] == 'C') &&
        all_digits(caller.substr(1))) {
      s = trim_left(s.substr(end + 1));
    }
  }
}

// "mlx5_core 0000:3b:00.0 ..." with no time at all (dmesg --notime, journalctl -o cat).
bool names_driver_and_device(std::string_view s) {
  std::string_view driver = take_token(s);
  std::string_view address = take_token(s);
  if (address.ends_with(':')) {
    address.remove_suffix(1);
  }
  return !driver.empty() &&
         driver.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") ==
             std::string_view::npos &&
         normalize_pci_address(address).has_value();
}

Prefix read_prefix(std::string_view line) {
  Prefix p;
  std::string_view s = trim(line);
  take_collector_level(s, p);
  if (take_stamp(s, p) && !p.kernel) {
    return p;  // another program's syslog line
  }
  take_brackets(s, p);
  if (!p.log_shaped && names_driver_and_device(s)) {
    p.log_shaped = true;
    p.kernel = true;
  }
  p.rest = trim(s);
  return p;
}

// The first PCI address among the words of `text` ("probe of 0000:03:00.0 failed").
std::string first_address(std::string_view text) {
  for (auto word : split_ws(text)) {
    while (!word.empty() &&
           (word.back() == ':' || word.back() == ',' || word.back() == ')' || word.back() == '.')) {
      word.remove_suffix(1);
    }
    if (word.starts_with('(')) {
      word.remove_prefix(1);
    }
    if (auto address = normalize_pci_address(word)) {
      return *address;
    }
  }
  return {};
}

// "driver ADDR iface: message", "driver ADDR: message", "source: message" or a bare message.
void describe(KernelLogLine& e) {
  std::string_view rest = e.text;
  std::string_view after_first = rest;
  std::string_view first = take_token(after_first);
  std::string_view after_second = after_first;
  std::string_view second = take_token(after_second);
  const bool second_has_colon = second.ends_with(':');
  auto address =
      normalize_pci_address(second_has_colon ? second.substr(0, second.size() - 1) : second);
  if (first.size() > 1 && first.ends_with(':')) {
    e.source = std::string(first.substr(0, first.size() - 1));
    e.message = std::string(trim(after_first));
  } else if (address) {
    e.source = std::string(first);
    e.device = *address;
    std::string_view after_third = after_second;
    std::string_view third = take_token(after_third);
    if (!second_has_colon && third.size() > 1 && third.ends_with(':')) {
      e.interface = std::string(third.substr(0, third.size() - 1));
      e.message = std::string(trim(after_third));
    } else {
      e.message = std::string(trim(after_second));
    }
  } else {
    e.message = std::string(trim(rest));
  }
  if (e.device.empty()) {
    e.device = first_address(e.message);
  }
}

std::optional<std::uint32_t> width_in(std::string_view link) {
  for (auto word : split_ws(link)) {
    if (auto width = parse_lane_width(word)) {
      return width;
    }
  }
  return std::nullopt;
}

// "... 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at 0000:00:01.0
// (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)" or "... bandwidth (8.0 GT/s PCIe x8
// link)".
std::optional<KernelLogEvent> pcie_bandwidth(std::string_view msg) {
  auto at = msg.find(" Gb/s available PCIe bandwidth");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  KernelLogEvent ev;
  ev.kind = KernelEventKind::PcieBandwidth;
  auto before = split_ws(msg.substr(0, at));
  if (!before.empty()) {
    ev.available_gbit_s = parse_double(before.back());
  }
  std::string_view tail = msg.substr(at);
  if (auto limited = tail.find("limited by "); limited != std::string_view::npos) {
    ev.bandwidth_limited = true;
    std::string_view seg = tail.substr(limited + 11);
    auto link_at = seg.find(" link at ");
    std::string_view link = seg.substr(0, link_at);
    ev.link_speed_gt_s = parse_gt_s(link);
    ev.link_width = width_in(link);
    if (link_at != std::string_view::npos) {
      std::string_view after = seg.substr(link_at + 9);
      std::string_view port = take_token(after);
      ev.limiting_device = normalize_pci_address(port).value_or(std::string(port));
    }
  }
  if (auto capable = tail.find("capable of "); capable != std::string_view::npos) {
    std::string_view seg = tail.substr(capable + 11);
    ev.capable_gbit_s = parse_double(seg.substr(0, seg.find(" Gb/s")));
    auto with = seg.find("with ");
    std::string_view link = with == std::string_view::npos ? "" : seg.substr(with + 5);
    ev.capable_speed_gt_s = parse_gt_s(link);
    ev.capable_width = width_in(link.substr(0, link.find(" link")));
  } else if (!ev.bandwidth_limited) {
    std::string_view link =
        tail.substr(tail.find('(') == std::string_view::npos ? tail.size() : tail.find('(') + 1);
    ev.link_speed_gt_s = parse_gt_s(link);
    ev.link_width = width_in(link.substr(0, link.find(" link")));
    ev.capable_gbit_s = ev.available_gbit_s;
    ev.capable_speed_gt_s = ev.link_speed_gt_s;
    ev.capable_width = ev.link_width;
  }
  return ev;
}

// "100 Gbps", "100000 Mbps", "10Gbps" -> Gbit/s.
std::optional<double> link_speed(std::string_view lower) {
  auto words = split_ws(lower);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view w = words[i];
    while (!w.empty() && (w.back() == ',' || w.back() == '.')) {
      w.remove_suffix(1);
    }
    for (auto [unit, scale] :
         {std::pair{std::string_view("gbps"), 1.0}, std::pair{std::string_view("mbps"), 0.001}}) {
      if (!w.ends_with(unit)) {
        continue;
      }
      std::string_view number = w.substr(0, w.size() - unit.size());
      if (number.empty() && i > 0) {
        number = words[i - 1];
      }
      if (auto value = parse_double(number)) {
        return *value * scale;
      }
    }
  }
  return std::nullopt;
}

std::optional<KernelEventKind> link_direction(std::string_view lower) {
  if (contains(lower, "nic link is up") || lower.starts_with("link up") ||
      contains(lower, "link state changed to up") || lower.starts_with("link is up")) {
    return KernelEventKind::LinkUp;
  }
  if (contains(lower, "nic link is down") || lower.starts_with("link down") ||
      contains(lower, "link state changed to down") || lower.starts_with("link is down")) {
    return KernelEventKind::LinkDown;
  }
  return std::nullopt;
}

std::optional<KernelLogEvent> link_event(KernelLogLine& e, std::string_view lower) {
  auto kind = link_direction(lower);
  if (!kind) {
    return std::nullopt;
  }
  KernelLogEvent ev;
  ev.kind = *kind;
  ev.link_speed_gbit_s = link_speed(lower);
  ev.duplex = contains(lower, "full duplex")   ? "full"
              : contains(lower, "half duplex") ? "half"
                                               : "";
  if (e.interface.empty()) {
    // "eth0 NIC Link is Up" (e1000e: ...), or the netdev printed as the source ("eth1: NIC ...").
    auto nic = e.message.find("NIC Link");
    auto words = split_ws(std::string_view(e.message).substr(0, nic));
    if (nic != std::string::npos && !words.empty()) {
      e.interface = std::string(words.back());
    } else if (nic == 0 && e.device.empty()) {
      e.interface = e.source;
    }
  }
  return ev;
}

// "AER: ...", "PCIe Bus Error: severity=Corrected, type=Physical Layer, ...", "device [..]
// error status/mask=...", "[ 6] BadTLP".
std::optional<KernelLogEvent> aer_event(std::string_view msg) {
  KernelLogEvent ev;
  ev.kind = KernelEventKind::PcieAer;
  auto field = [msg](std::string_view key) {
    auto at = msg.find(key);
    if (at == std::string_view::npos) {
      return std::string();
    }
    std::string_view value = msg.substr(at + key.size());
    return std::string(trim(value.substr(0, value.find(','))));
  };
  if (contains(msg, "PCIe Bus Error:")) {
    ev.severity = field("severity=");
    ev.error_type = field("type=");
    return ev;
  }
  if (msg.starts_with('[')) {
    auto close = msg.find(']');
    if (close != std::string_view::npos && all_digits(trim(msg.substr(1, close - 1))) &&
        msg.substr(close + 1).starts_with(' ')) {
      std::string_view name = trim(msg.substr(close + 1));
      if (name.ends_with("(First)")) {
        name = trim(name.substr(0, name.size() - 7));
      }
      ev.error_name = std::string(name);
      return ev;
    }
  }
  if (msg.starts_with("AER:") || msg.starts_with("aer_inject:") ||
      contains(msg, "error status/mask=")) {
    return ev;
  }
  return std::nullopt;
}

std::optional<KernelLogEvent> error_event(std::string_view lower) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> k_words = {{
      {"health", "health"},
      {"timeout", "timeout"},
      {"timed out", "timeout"},
      {"fail", "failed"},
      {"error", "error"},
      {"fatal", "fatal"},
      {"unrecoverable", "error"},
  }};
  for (auto [word, keyword] : k_words) {
    if (contains(lower, word)) {
      KernelLogEvent ev;
      ev.kind = KernelEventKind::DriverError;
      ev.keyword = std::string(keyword);
      return ev;
    }
  }
  return std::nullopt;
}

// AER detail lines ("[ 6] BadTLP") carry no severity: the last "PCIe Bus Error" of the same
// device gives it.
class Classifier {
 public:
  std::optional<KernelLogEvent> classify(KernelLogLine& e) {
    const std::string lower = to_lower(e.message);
    if (auto ev = pcie_bandwidth(e.message)) {
      return ev;
    }
    if (auto ev = aer_event(e.message); ev && (ev->error_name.empty() || in_aer_report(e))) {
      remember(e.device, *ev);
      return ev;
    }
    if (auto ev = link_event(e, lower)) {
      return ev;
    }
    return error_event(lower);
  }

 private:
  // "[ 6] BadTLP" is an AER detail only from the PCIe port drivers or after a "PCIe Bus Error"
  // of the same device (bnxt_en prints "[0]: tx{...}" ring dumps).
  bool in_aer_report(const KernelLogLine& e) const {
    return e.source == "pcieport" || e.source == "pci" || m_last.contains(e.device);
  }

  void remember(const std::string& device, KernelLogEvent& ev) {
    if (!ev.severity.empty()) {
      m_last[device] = {ev.severity, ev.error_type};
    } else if (auto it = m_last.find(device); it != m_last.end()) {
      ev.severity = it->second.first;
      ev.error_type = it->second.second;
    }
  }
  std::map<std::string, std::pair<std::string, std::string>> m_last;
};

// A wrapped copy cuts a message mid-way: the part before the cut ends with ':', leaves a
// bracket open or is a lone word ("bnxt_en"). Only then is the next, unstamped line joined to it.
bool looks_cut(std::string_view text) {
  text = trim(text);
  if (text.ends_with(':') || split_ws(text).size() < 2) {
    return true;
  }
  int open = 0;
  for (char c : text) {
    open += (c == '(' || c == '{' || c == '[') ? 1 : (c == ')' || c == '}' || c == ']') ? -1 : 0;
  }
  return open > 0;
}

void add_line(KernelLog& log, const Prefix& p, std::size_t line_number) {
  KernelLogLine& e = log.lines.emplace_back();
  e.line_number = line_number;
  e.timestamp_s = p.seconds;
  e.timestamp_text = p.time_text;
  e.host = p.host;
  e.level = p.level;
  e.text = std::string(p.rest);
}

}  // namespace

const char* kernel_event_kind_name(KernelEventKind kind) {
  switch (kind) {
    case KernelEventKind::LinkUp:
      return "link_up";
    case KernelEventKind::LinkDown:
      return "link_down";
    case KernelEventKind::PcieBandwidth:
      return "pcie_bandwidth";
    case KernelEventKind::PcieAer:
      return "pcie_aer";
    case KernelEventKind::DriverError:
      return "driver_error";
  }
  return "driver_error";
}

Result<KernelLog> parse_dmesg(std::string_view text) {
  ND_TRY(detail::check_text(text));
  KernelLog log;
  bool continues = false;  // the previous input line was a kernel message
  std::size_t number = 0;
  for (std::string_view raw : split_lines(text)) {
    ++number;
    std::string_view line = trim(detail::strip_quote(raw));
    if (line.empty()) {
      continues = false;
      continue;
    }
    Prefix p = read_prefix(line);
    if (p.kernel) {
      add_line(log, p, number);
      continues = true;
      continue;
    }
    if (continues && !p.log_shaped && looks_cut(log.lines.back().text) &&
        !detail::is_prompt_line(line)) {
      log.lines.back().text += ' ';
      log.lines.back().text += line;
      continue;
    }
    log.other_lines.emplace_back(line);
    continues = false;
  }
  if (log.lines.empty()) {
    return detail::parse_error(
        "no kernel log line ('[seconds] ...', '[ctime] ...', '<stamp> <host> kernel: ...' or "
        "'driver 0000:bb:dd.f ...') found");
  }
  Classifier classifier;
  for (std::size_t i = 0; i < log.lines.size(); ++i) {
    describe(log.lines[i]);
    if (auto ev = classifier.classify(log.lines[i])) {
      ev->entry = i;
      log.events.push_back(std::move(*ev));
    } else {
      ++log.unclassified;
    }
  }
  return log;
}

nlohmann::json to_json(const KernelLog& log) {
  using detail::opt;
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& e : log.lines) {
    lines.push_back({{"line", e.line_number},
                     {"timestamp_s", opt(e.timestamp_s)},
                     {"timestamp_text", e.timestamp_text},
                     {"host", e.host},
                     {"level", e.level},
                     {"source", e.source},
                     {"device", e.device},
                     {"interface", e.interface},
                     {"message", e.message},
                     {"text", e.text}});
  }
  nlohmann::json events = nlohmann::json::array();
  for (const auto& ev : log.events) {
    events.push_back({{"kind", kernel_event_kind_name(ev.kind)},
                      {"entry", ev.entry},
                      {"link_speed_gbit_s", opt(ev.link_speed_gbit_s)},
                      {"duplex", ev.duplex},
                      {"available_gbit_s", opt(ev.available_gbit_s)},
                      {"capable_gbit_s", opt(ev.capable_gbit_s)},
                      {"bandwidth_limited", ev.bandwidth_limited},
                      {"link_speed_gt_s", opt(ev.link_speed_gt_s)},
                      {"link_width", opt(ev.link_width)},
                      {"capable_speed_gt_s", opt(ev.capable_speed_gt_s)},
                      {"capable_width", opt(ev.capable_width)},
                      {"limiting_device", ev.limiting_device},
                      {"severity", ev.severity},
                      {"error_type", ev.error_type},
                      {"error_name", ev.error_name},
                      {"keyword", ev.keyword}});
  }
  return {{"lines", lines},
          {"events", events},
          {"unclassified", log.unclassified},
          {"other_lines", log.other_lines}};
}

}  // namespace netdoctor::parsers
