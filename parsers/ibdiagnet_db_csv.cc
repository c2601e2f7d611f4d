// ibdiagnet2.db_csv: the sections, their headers and rows; typed rows in ibdiagnet_db_csv_rows.cc.
#include "parsers/ibdiagnet_db_csv.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibdiagnet_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_start = "START_";
constexpr std::string_view k_end = "END_";

bool is_section_name(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  for (char c : name) {
    bool ok =
        (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (c >= 'a' && c <= 'z');
    if (!ok) {
      return false;
    }
  }
  return true;
}

struct Reader {
  IbdiagDbCsv& db;
  IbdiagSection* open = nullptr;  // the section being read

  void close_open(bool complete) {
    if (open != nullptr) {
      open->complete = complete;
      db.truncated = db.truncated || !complete;
      open = nullptr;
    }
  }

  void read(std::string_view line) {
    if (line.starts_with(k_start) && is_section_name(line.substr(k_start.size()))) {
      close_open(false);
      db.sections.push_back(IbdiagSection{std::string(line.substr(k_start.size())), {}, {}, false});
      open = &db.sections.back();
      return;
    }
    if (open != nullptr && line.starts_with(k_end) && line.substr(k_end.size()) == open->name) {
      close_open(true);
      return;
    }
    if (line.empty() || ibdiag::is_comment(line)) {
      return;
    }
    if (open == nullptr) {
      db.unparsed.emplace_back(line);
    } else if (open->header.empty()) {
      open->header = ibdiag::split_csv(line);
    } else {
      open->rows.push_back(ibdiag::split_csv(line));
    }
  }
};

nlohmann::json section_json(const IbdiagSection& s, bool with_rows) {
  nlohmann::json j = {{"name", s.name},
                      {"header", s.header},
                      {"row_count", s.rows.size()},
                      {"complete", s.complete}};
  if (with_rows) {
    j["rows"] = s.rows;
  }
  return j;
}

bool typed(std::string_view name) {
  return name == "NODES" || name == "PORTS" || name == "LINKS" || name == "SM_INFO" ||
         name == "PM_INFO" || name == "PM_DELTA" || name == "NODES_INFO";
}

nlohmann::json pm_json(const std::vector<IbdiagPmRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"node_guid", ib::guid_text(r.node_guid)},
                   {"port_guid", r.port_guid ? nlohmann::json(ib::guid_text(*r.port_guid))
                                             : nlohmann::json(nullptr)},
                   {"port", r.port},
                   {"counters", r.counters},
                   {"not_available", r.not_available}});
  }
  return out;
}

nlohmann::json typed_json(const IbdiagDbCsv& db) {
  using detail::opt;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : db.nodes) {
    nodes.push_back({{"guid", ib::guid_text(n.guid)},
                     {"description", n.description},
                     {"ports", opt(n.ports)},
                     {"type", opt(n.type)},
                     {"device_id", opt(n.device_id)},
                     {"vendor_id", opt(n.vendor_id)},
                     {"revision", opt(n.revision)}});
  }
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : db.ports) {
    ports.push_back({{"node_guid", ib::guid_text(p.node_guid)},
                     {"port", p.port},
                     {"lid", opt(p.lid)},
                     {"state", opt(p.state)},
                     {"phys_state", opt(p.phys_state)},
                     {"width_active", opt(p.width_active)},
                     {"width_supported", opt(p.width_supported)},
                     {"speed_active", opt(p.speed_active)},
                     {"speed_supported", opt(p.speed_supported)},
                     {"mtu", opt(p.mtu)}});
  }
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : db.links) {
    links.push_back({{"guid1", ib::guid_text(l.guid1)},
                     {"port1", l.port1},
                     {"guid2", ib::guid_text(l.guid2)},
                     {"port2", l.port2}});
  }
  nlohmann::json sms = nlohmann::json::array();
  for (const auto& s : db.managers) {
    sms.push_back({{"node_guid", ib::guid_text(s.node_guid)},
                   {"port", opt(s.port)},
                   {"state", opt(s.state)},
                   {"priority", opt(s.priority)},
                   {"activity_count", opt(s.activity_count)}});
  }
  nlohmann::json info = nlohmann::json::array();
  for (const auto& i : db.node_info) {
    info.push_back({{"guid", ib::guid_text(i.guid)},
                    {"firmware", i.firmware},
                    {"psid", i.psid},
                    {"device_id", opt(i.device_id)},
                    {"source", i.source}});
  }
  return {{"nodes", nodes},
          {"ports", ports},
          {"links", links},
          {"managers", sms},
          {"node_info", info},
          {"pm_info", pm_json(db.pm_info)},
          {"pm_delta", pm_json(db.pm_delta)}};
}

}  // namespace

std::optional<std::size_t> IbdiagSection::column(std::string_view column_name) const {
  auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string& h = header[i];
    if (h.size() == column_name.size() &&
        std::equal(h.begin(), h.end(), column_name.begin(),
                   [&lower](char a, char b) { return lower(a) == lower(b); })) {
      return i;
    }
  }
  return std::nullopt;
}

const IbdiagSection* IbdiagDbCsv::find(std::string_view name) const {
  for (const auto& s : sections) {
    if (s.name == name) {
      return &s;
    }
  }
  return nullptr;
}

Result<IbdiagDbCsv> parse_ibdiagnet_db_csv(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbdiagDbCsv db;
  auto lines = split_lines(text);
  bool cut = !text.ends_with('\n') && !lines.empty();
  Reader reader{db};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = trim_right(lines[i]);
    bool last = i + 1 == lines.size();
    if (last && cut && reader.open != nullptr && !line.starts_with(k_end)) {
      db.fragment = std::string(line);
      db.truncated = true;
      break;
    }
    reader.read(line);
  }
  reader.close_open(false);
  if (db.sections.empty()) {
    return detail::parse_error(
        "no ibdiagnet2.db_csv section found (a START_<NAME> line, a CSV header, rows, END_<NAME>)");
  }
  detail::read_typed_sections(db);
  return db;
}

nlohmann::json to_json(const IbdiagDbCsv& db) {
  nlohmann::json sections = nlohmann::json::array();
  for (const auto& s : db.sections) {
    sections.push_back(section_json(s, !typed(s.name)));
  }
  nlohmann::json j = typed_json(db);
  j["sections"] = sections;
  j["unparsed"] = db.unparsed;
  j["fragment"] = db.fragment;
  j["truncated"] = db.truncated;
  j["skipped_rows"] = db.skipped_rows;
  return j;
}

}  // namespace netdoctor::parsers
