#include "parsers/ibdiagnet_log.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibdiagnet_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

bool is_rule(std::string_view line) {
  return line.size() >= 10 && line.find_first_not_of('-') == std::string_view::npos;
}

// "-I- Discovery                           11         0         " -> a stage's counts.
std::optional<IbdiagStageCount> read_summary_row(std::string_view body) {
  auto words = split_ws(body);
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    auto warnings = parse_u64(words[i]);
    auto errors = parse_u64(words[i + 1]);
    if (!warnings || !errors) {
      continue;
    }
    IbdiagStageCount row;
    std::vector<std::string> name(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
    std::vector<std::string> comment(words.begin() + static_cast<std::ptrdiff_t>(i + 2),
                                     words.end());
    row.stage = join(name, " ");
    row.warnings = *warnings;
    row.errors = *errors;
    row.comment = join(comment, " ");
    return row;
  }
  return std::nullopt;
}

}  // namespace

// "Port=0 LID=180 GUID=0x... devid=54002 Priority:12 Node_Type=SW Node_Description=MF0;x:y/U1".
IbdiagLogSm read_ibdiag_sm(std::string role, std::string_view rest) {
  IbdiagLogSm sm;
  sm.role = std::move(role);
  constexpr std::string_view k_desc = "Node_Description=";
  auto desc_at = rest.find(k_desc);
  if (desc_at != std::string_view::npos) {
    sm.node_description = std::string(trim(rest.substr(desc_at + k_desc.size())));
    rest = rest.substr(0, desc_at);
  }
  for (auto word : split_ws(rest)) {
    auto sep = word.find_first_of("=:");
    if (sep == std::string_view::npos) {
      continue;
    }
    std::string key = to_lower(word.substr(0, sep));
    std::string_view value = word.substr(sep + 1);
    auto n = ibdiag::number(value);
    bool fits = n && *n <= 0xffffffffu;
    if (key == "port" && fits) {
      sm.port = static_cast<std::uint32_t>(*n);
    } else if (key == "lid" && fits) {
      sm.lid = static_cast<std::uint32_t>(*n);
    } else if (key == "guid") {
      sm.guid = n;
    } else if ((key == "devid" || key == "dev") && fits) {
      sm.device_id = static_cast<std::uint32_t>(*n);
    } else if (key == "priority" && fits) {
      sm.priority = static_cast<std::uint32_t>(*n);
    } else if (key == "node_type") {
      sm.node_type = std::string(value);
    }
  }
  return sm;
}

namespace {

// "Master SM: ..." / "Standby SM : ..." lines; false when the line is neither.
bool read_sm_line(std::string_view line, IbdiagLog& out) {
  std::string role;
  if (line.starts_with("Master SM")) {
    role = "master";
  } else if (line.starts_with("Standby SM")) {
    role = "standby";
  } else {
    return false;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return false;
  }
  std::string_view rest = trim(line.substr(colon + 1));
  if (to_lower(rest).starts_with("no ")) {
    out.no_standby = out.no_standby || role == "standby";
    return true;
  }
  out.managers.push_back(read_ibdiag_sm(std::move(role), rest));
  return true;
}

bool read_header_line(std::string_view line, IbdiagLog& out) {
  struct Field {
    std::string_view prefix;
    std::string* into;
  };
  const Field fields[] = {{"Running version:", &out.version},
                          {"Running command:", &out.command},
                          {"Running timestamp:", &out.timestamp}};
  for (const auto& f : fields) {
    if (line.starts_with(f.prefix)) {
      *f.into = std::string(trim(line.substr(f.prefix.size())));
      return true;
    }
  }
  return false;
}

class Reader {
 public:
  explicit Reader(IbdiagLog& out) : m_out(out) {}

  // `raw`: the line untrimmed (an indented line continues the last -E-/-W- message).
  void read(std::string_view raw) {
    std::string_view line = trim(raw);
    bool indented = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    if (indented && m_last != nullptr && !line.empty()) {
      m_last->details.emplace_back(line);
      return;
    }
    m_last = nullptr;
    if (is_rule(line)) {
      m_after_rule = true;
      return;
    }
    if (line.empty()) {
      return;
    }
    if (m_after_rule) {
      m_after_rule = false;
      if (!line.starts_with("-") && !line.starts_with("#")) {
        m_stage = std::string(line);
        m_out.stages.push_back(m_stage);
        return;
      }
    }
    read_body(line);
  }

  bool marked() const { return m_marked; }

 private:
  void read_body(std::string_view line) {
    if (line.starts_with("-E- ") || line.starts_with("-W- ") || line.starts_with("-I- ")) {
      m_marked = true;
      std::string text(trim(line.substr(4)));
      if (line[1] == 'E') {
        m_out.errors.push_back({m_stage, std::move(text), {}});
        m_last = &m_out.errors.back();
      } else if (line[1] == 'W') {
        m_out.warnings.push_back({m_stage, std::move(text), {}});
        m_last = &m_out.warnings.back();
      } else if (m_stage == "Summary") {
        if (auto row = read_summary_row(text)) {
          m_out.summary.push_back(std::move(*row));
        }
      }
      return;
    }
    if (read_sm_line(line, m_out) || read_header_line(line, m_out)) {
      m_marked = m_marked || !m_out.version.empty();
      return;
    }
    if (m_stage == "Fabric Summary") {
      if (auto kv = detail::split_key_value(line)) {
        if (auto n = parse_u64(kv->value)) {
          m_out.fabric_summary[std::string(kv->key)] = *n;
        }
      }
    }
  }

  IbdiagLog& m_out;
  IbdiagLogMessage* m_last = nullptr;  // the message indented lines continue
  std::string m_stage;
  bool m_after_rule = false;
  bool m_marked = false;
};

nlohmann::json messages_json(const std::vector<IbdiagLogMessage>& messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : messages) {
    out.push_back({{"stage", m.stage}, {"text", m.text}, {"details", m.details}});
  }
  return out;
}

}  // namespace

Result<IbdiagLog> parse_ibdiagnet_log(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbdiagLog out;
  Reader reader(out);
  for (auto raw : ib::lines(text)) {
    reader.read(raw);
  }
  if (!reader.marked()) {
    return detail::parse_error(
        "no ibdiagnet2.log line found (-I- / -W- / -E- messages, 'Running version:')");
  }
  return out;
}

nlohmann::json to_json(const IbdiagLogSm& sm) {
  using detail::opt;
  return {{"role", sm.role},
          {"port", opt(sm.port)},
          {"lid", opt(sm.lid)},
          {"guid", sm.guid ? nlohmann::json(ib::guid_text(*sm.guid)) : nlohmann::json(nullptr)},
          {"device_id", opt(sm.device_id)},
          {"priority", opt(sm.priority)},
          {"node_type", sm.node_type},
          {"node_description", sm.node_description}};
}

nlohmann::json to_json(const IbdiagLog& log) {
  nlohmann::json summary = nlohmann::json::array();
  for (const auto& s : log.summary) {
    summary.push_back({{"stage", s.stage},
                       {"warnings", s.warnings},
                       {"errors", s.errors},
                       {"comment", s.comment}});
  }
  nlohmann::json managers = nlohmann::json::array();
  for (const auto& sm : log.managers) {
    managers.push_back(to_json(sm));
  }
  return {{"version", log.version},
          {"command", log.command},
          {"timestamp", log.timestamp},
          {"stages", log.stages},
          {"errors", messages_json(log.errors)},
          {"warnings", messages_json(log.warnings)},
          {"summary", summary},
          {"managers", managers},
          {"no_standby", log.no_standby},
          {"fabric_summary", log.fabric_summary}};
}

}  // namespace netdoctor::parsers
