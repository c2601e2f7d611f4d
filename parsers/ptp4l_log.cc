#include "parsers/ptp4l_log.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::array<std::string_view, 2> k_programs = {"ptp4l", "phc2sys"};

using Words = std::vector<std::string_view>;

// A ptp4l/phc2sys line taken apart: "<program>[<stamp or pid>]: [<stamp>] [<tag>] <message>".
struct LogLine {
  std::string_view program;
  std::optional<double> monotonic_s;
  std::string_view tag;
  std::string_view message;
};

// Where "<program>[" starts a word of `line`; npos when it does not.
std::size_t find_program(std::string_view line, std::string_view program) {
  for (auto at = line.find(program); at != std::string_view::npos;
       at = line.find(program, at + 1)) {
    const bool word_start = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
    if (word_start && line.substr(at + program.size()).starts_with('[')) {
      return at;
    }
  }
  return std::string_view::npos;
}

// Up to two leading "[...]" of the message: a number is the monotonic stamp of the syslog form,
// anything else the message tag.
void read_brackets(LogLine& out) {
  for (int i = 0; i < 2 && out.message.starts_with('['); ++i) {
    auto close = out.message.find(']');
    if (close == std::string_view::npos) {
      return;
    }
    std::string_view inside = out.message.substr(1, close - 1);
    if (auto stamp = parse_double(inside)) {
      out.monotonic_s = out.monotonic_s ? out.monotonic_s : stamp;
    } else {
      out.tag = inside;
    }
    out.message = trim(out.message.substr(close + 1));
  }
}

std::optional<LogLine> split_log_line(std::string_view line) {
  for (std::string_view program : k_programs) {
    auto at = find_program(line, program);
    if (at == std::string_view::npos) {
      continue;
    }
    std::string_view rest = line.substr(at + program.size() + 1);
    auto close = rest.find(']');
    if (close == std::string_view::npos || !rest.substr(close + 1).starts_with(':')) {
      continue;
    }
    LogLine out;
    out.program = program;
    std::string_view inside = rest.substr(0, close);  // "5196.819" (-m) or a pid (syslog)
    if (inside.find('.') != std::string_view::npos) {
      out.monotonic_s = parse_double(inside);
    }
    out.message = trim(rest.substr(close + 2));
    read_brackets(out);
    return out;
  }
  return std::nullopt;
}

std::string servo_word(std::uint32_t state) {
  constexpr std::array<std::string_view, 4> k_words = {"unlocked", "jump", "locked",
                                                       "locked_stable"};
  return state < k_words.size() ? std::string(k_words[state]) : "";
}

// "s2" -> 2.
std::optional<std::uint32_t> servo_state(std::string_view word) {
  if (word.size() != 2 || word[0] != 's') {
    return std::nullopt;
  }
  auto n = parse_u64(word.substr(1));
  return n ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*n)) : std::nullopt;
}

struct SampleLine {
  std::string_view clock;
  std::string_view source;
  PtpOffsetSample sample;
};

// "[<clock>] <source> offset <ns> s<N> freq|adj <ppb> [path] delay <ns>".
std::optional<SampleLine> read_sample(const Words& w) {
  std::size_t i = 1;
  while (i < 3 && i < w.size() && w[i] != "offset") {
    ++i;
  }
  if (i >= 3 || i + 2 >= w.size() || w[i] != "offset") {
    return std::nullopt;
  }
  auto offset = parse_i64(w[i + 1]);
  auto servo = servo_state(w[i + 2]);
  if (!offset || !servo) {
    return std::nullopt;
  }
  SampleLine out;
  out.clock = i == 2 ? w[0] : std::string_view();
  out.source = w[i - 1];
  out.sample.offset_ns = *offset;
  out.sample.offset_s = to_seconds(static_cast<double>(*offset), TimeUnit::Nanoseconds);
  out.sample.servo_state = *servo;
  out.sample.servo_word = servo_word(*servo);
  for (std::size_t j = i + 3; j + 1 < w.size(); ++j) {
    if (w[j] == "freq" || w[j] == "adj") {
      out.sample.freq_ppb = parse_double(w[j + 1]);
    } else if (w[j] == "delay") {
      out.sample.path_delay_ns = parse_i64(w[j + 1]);
    }
  }
  return out;
}

// The number after w[j] and the "+/- <dev>" after it: "freq -6060 +/- 271".
void value_and_deviation(const Words& w, std::size_t j, std::optional<double>& value,
                         std::optional<double>& deviation) {
  value = parse_double(w[j + 1]);
  if (j + 3 < w.size() && w[j + 2] == "+/-") {
    deviation = parse_double(w[j + 3]);
  }
}

struct SummaryLine {
  std::string_view clock;
  PtpSummary summary;
};

// "[<clock>] rms <ns> max <ns> freq <ppb> +/- <ppb> [delay <ns> +/- <ns>]".
std::optional<SummaryLine> read_summary(const Words& w) {
  std::size_t i = !w.empty() && w[0] == "rms" ? 0 : 1;
  if (i + 3 >= w.size() || w[i] != "rms" || w[i + 2] != "max") {
    return std::nullopt;
  }
  auto rms = parse_double(w[i + 1]);
  auto max = parse_double(w[i + 3]);
  if (!rms || !max) {
    return std::nullopt;
  }
  SummaryLine out;
  out.clock = i == 1 ? w[0] : std::string_view();
  out.summary.rms_s = to_seconds(*rms, TimeUnit::Nanoseconds);
  out.summary.max_s = to_seconds(*max, TimeUnit::Nanoseconds);
  for (std::size_t j = i + 4; j + 1 < w.size(); ++j) {
    if (w[j] == "freq") {
      value_and_deviation(w, j, out.summary.freq_ppb, out.summary.freq_dev_ppb);
    } else if (w[j] == "delay") {
      value_and_deviation(w, j, out.summary.delay_ns, out.summary.delay_dev_ns);
    }
  }
  return out;
}

bool is_state_word(std::string_view word) {
  return !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == word.npos;
}

// "port 1: LISTENING to MASTER on ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES", "port 1 (eth0): ...".
std::optional<PtpPortTransition> read_transition(std::string_view message) {
  auto colon = message.find(": ");
  if (!message.starts_with("port ") || colon == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view head = message.substr(5, colon - 5);
  auto port = detail::leading_u64(head);
  auto words = split_ws(message.substr(colon + 2));
  if (!port || *port > 0xffff || words.size() < 3 || words[1] != "to" || !is_state_word(words[0]) ||
      !is_state_word(words[2])) {
    return std::nullopt;
  }
  PtpPortTransition t;
  t.port = static_cast<std::uint32_t>(*port);
  auto open = head.find('(');
  auto close = head.rfind(')');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    t.interface = std::string(head.substr(open + 1, close - open - 1));
  }
  t.from = std::string(words[0]);
  t.to = std::string(words[2]);
  auto on = message.find(" on ", colon);
  t.event = on == std::string_view::npos ? "" : std::string(trim(message.substr(on + 4)));
  return t;
}

// The word after `prefix` when `message` starts with it ("selected best master clock X").
std::string_view word_after(std::string_view message, std::string_view prefix) {
  if (!message.starts_with(prefix)) {
    return {};
  }
  auto words = split_ws(message.substr(prefix.size()));
  return words.empty() ? std::string_view() : words[0];
}

// Builds the record line by line.
class LogReader {
 public:
  void line(std::string_view raw) {
    if (raw.empty()) {
      return;
    }
    auto log = split_log_line(raw);
    if (!log) {
      ++m_out.other_lines;
      return;
    }
    ++m_out.program_lines;
    const Words words = split_ws(log->message);
    if (auto s = read_sample(words)) {
      add_sample(*log, *s);
    } else if (auto m = read_summary(words)) {
      m->summary.monotonic_s = log->monotonic_s;
      stream(*log, m->clock).summaries.push_back(m->summary);
    } else if (auto t = read_transition(log->message)) {
      t->program = std::string(log->program);
      t->monotonic_s = log->monotonic_s;
      m_out.port_states[t->port] = t->to;
      m_out.transitions.push_back(std::move(*t));
    } else {
      add_message(*log);
    }
  }

  Ptp4lLog finish() && {
    read_port_state();
    read_status();
    return std::move(m_out);
  }

 private:
  PtpStream& stream(const LogLine& log, std::string_view clock) {
    auto it = std::find_if(m_out.streams.begin(), m_out.streams.end(), [&](const PtpStream& s) {
      return s.program == log.program && s.tag == log.tag && s.clock == clock;
    });
    if (it != m_out.streams.end()) {
      return *it;
    }
    PtpStream& s = m_out.streams.emplace_back();
    s.program = std::string(log.program);
    s.tag = std::string(log.tag);
    s.clock = std::string(clock);
    return s;
  }

  void add_sample(const LogLine& log, SampleLine& s) {
    s.sample.monotonic_s = log.monotonic_s;
    PtpStream& target = stream(log, s.clock);
    target.source = std::string(s.source);
    m_out.last_offset_s = s.sample.offset_s;
    m_out.last_servo_state = s.sample.servo_state;
    m_out.last_servo_word = s.sample.servo_word;
    target.samples.push_back(std::move(s.sample));
    m_last_stream = static_cast<std::size_t>(&target - m_out.streams.data());
  }

  void add_message(const LogLine& log) {
    std::string_view msg = log.message;
    if (auto best = word_after(msg, "selected best master clock"); !best.empty()) {
      m_out.best_master = std::string(best);
    } else if (auto local = word_after(msg, "selected local clock"); !local.empty()) {
      m_out.best_master = std::string(local);
    } else if (auto source = word_after(msg, "selecting");
               !source.empty() && contains(msg, " as ") && !contains(msg, "synchronization")) {
      m_out.phc2sys_source = std::string(source);
    }
    m_out.messages.push_back({std::string(log.program), log.monotonic_s, std::string(msg)});
  }

  void read_port_state() {
    if (!m_out.transitions.empty()) {
      m_out.port_state = m_out.transitions.back().to;
    }
    for (const auto& [port, state] : m_out.port_states) {
      if (is_receiving_port_state(state)) {
        m_out.port_state = state;
      }
    }
  }

  // The stream that steers the system clock, else the one of the last sample.
  const PtpStream* status_stream() const {
    for (const auto& s : m_out.streams) {
      if (s.program == "phc2sys" && (s.clock == "CLOCK_REALTIME" || s.clock.empty()) &&
          !s.samples.empty()) {
        return &s;
      }
    }
    return m_last_stream ? &m_out.streams[*m_last_stream] : nullptr;
  }

  void read_status() {
    ClockStatus& status = m_out.status;
    status.daemon = "linuxptp";
    const PtpStream* s = status_stream();
    if (s == nullptr) {
      status.synchronised = is_receiving_port_state(m_out.port_state);
      status.selected_source = status.synchronised ? m_out.best_master : "";
      return;
    }
    status.offset_s = s->samples.back().offset_s;
    status.synchronised = s->samples.back().servo_state >= 2;
    const bool phc2sys = s->program == "phc2sys" && !m_out.phc2sys_source.empty();
    status.selected_source = phc2sys ? m_out.phc2sys_source : m_out.best_master;
  }

  Ptp4lLog m_out;
  std::optional<std::size_t> m_last_stream;
};

nlohmann::json sample_json(const PtpOffsetSample& s) {
  using detail::opt;
  return {{"monotonic_s", opt(s.monotonic_s)},
          {"offset_ns", s.offset_ns},
          {"offset_s", s.offset_s},
          {"servo_state", s.servo_state},
          {"servo_word", s.servo_word},
          {"freq_ppb", opt(s.freq_ppb)},
          {"path_delay_ns", opt(s.path_delay_ns)}};
}

nlohmann::json summary_json(const PtpSummary& s) {
  using detail::opt;
  return {{"monotonic_s", opt(s.monotonic_s)},
          {"rms_s", s.rms_s},
          {"max_s", s.max_s},
          {"freq_ppb", opt(s.freq_ppb)},
          {"freq_dev_ppb", opt(s.freq_dev_ppb)},
          {"delay_ns", opt(s.delay_ns)},
          {"delay_dev_ns", opt(s.delay_dev_ns)}};
}

nlohmann::json stream_json(const PtpStream& s) {
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& sample : s.samples) {
    samples.push_back(sample_json(sample));
  }
  nlohmann::json summaries = nlohmann::json::array();
  for (const auto& summary : s.summaries) {
    summaries.push_back(summary_json(summary));
  }
  return {{"program", s.program}, {"tag", s.tag},       {"clock", s.clock},
          {"source", s.source},   {"samples", samples}, {"summaries", summaries}};
}

}  // namespace

Result<Ptp4lLog> parse_ptp4l_log(std::string_view text) {
  ND_TRY(detail::check_text(text));
  LogReader reader;
  for (std::string_view raw : split_lines(text)) {
    reader.line(trim(raw));
  }
  Ptp4lLog out = std::move(reader).finish();
  if (out.program_lines == 0) {
    return detail::parse_error("no ptp4l or phc2sys log line ('ptp4l[...]: ...') found");
  }
  return out;
}

nlohmann::json to_json(const Ptp4lLog& log) {
  using detail::opt;
  nlohmann::json streams = nlohmann::json::array();
  for (const auto& s : log.streams) {
    streams.push_back(stream_json(s));
  }
  nlohmann::json transitions = nlohmann::json::array();
  for (const auto& t : log.transitions) {
    transitions.push_back({{"program", t.program},
                           {"monotonic_s", opt(t.monotonic_s)},
                           {"port", t.port},
                           {"interface", t.interface},
                           {"from", t.from},
                           {"to", t.to},
                           {"event", t.event}});
  }
  nlohmann::json port_states = nlohmann::json::object();
  for (const auto& [port, state] : log.port_states) {
    port_states[std::to_string(port)] = state;
  }
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : log.messages) {
    messages.push_back(
        {{"program", m.program}, {"monotonic_s", opt(m.monotonic_s)}, {"text", m.text}});
  }
  return {{"streams", streams},
          {"transitions", transitions},
          {"port_states", port_states},
          {"port_state", log.port_state},
          {"best_master", log.best_master},
          {"phc2sys_source", log.phc2sys_source},
          {"messages", messages},
          {"program_lines", log.program_lines},
          {"other_lines", log.other_lines},
          {"last_offset_s", opt(log.last_offset_s)},
          {"last_servo_state", opt(log.last_servo_state)},
          {"last_servo_word", log.last_servo_word},
          {"status", to_json(log.status)}};
}

}  // namespace netdoctor::parsers
