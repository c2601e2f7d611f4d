#include "parsers/sminfo.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// Words after "sm lid": "1 sm guid 0x200000, activity count 77 priority 0 state 3 SMINFO_MASTER".
bool read_words(const std::vector<std::string_view>& w, std::size_t at, SmInfo& out) {
  auto lid = at + 2 < w.size() ? ib::u32(w[at + 2]) : std::nullopt;
  if (!lid || at + 5 >= w.size() || w[at + 3] != "sm" || w[at + 4] != "guid") {
    return false;
  }
  std::string_view g = w[at + 5];
  if (g.ends_with(',')) {
    g.remove_suffix(1);
  }
  auto guid = ib::guid(g);
  if (!guid) {
    return false;
  }
  out.sm_lid = *lid;
  out.sm_guid = *guid;
  for (std::size_t i = at + 6; i < w.size(); ++i) {
    bool has_next = i + 1 < w.size();
    if (w[i] == "count" && has_next) {
      out.activity_count = parse_u64(w[i + 1]);
    } else if (w[i] == "priority" && has_next) {
      out.priority = ib::u32(w[i + 1]);
    } else if (w[i] == "state" && has_next) {
      out.state = ib::u32(w[i + 1]);
      if (i + 2 < w.size()) {
        out.state_name = std::string(w[i + 2]);
      }
    }
  }
  return true;
}

}  // namespace

Result<SmInfo> parse_sminfo(std::string_view text) {
  ND_TRY(detail::check_text(text));
  SmInfo out;
  bool found = false;
  for (auto line : ib::lines(text)) {
    auto words = split_ws(line);
    bool read = false;
    for (std::size_t i = 0; !found && i + 1 < words.size(); ++i) {
      if (words[i] == "sm" && words[i + 1] == "lid") {
        read = found = read_words(words, i, out);
        break;
      }
    }
    if (!read && !trim(line).empty() && !detail::is_prompt_line(line)) {
      out.unparsed.emplace_back(line);
    }
  }
  if (!found) {
    return detail::parse_error("no sminfo line (sm lid <n> sm guid 0x<guid>, ...) found");
  }
  return out;
}

nlohmann::json to_json(const SmInfo& info) {
  using detail::opt;
  return {{"sm_lid", info.sm_lid},
          {"sm_guid", ib::guid_text(info.sm_guid)},
          {"activity_count", opt(info.activity_count)},
          {"priority", opt(info.priority)},
          {"state", opt(info.state)},
          {"state_name", info.state_name},
          {"unparsed", info.unparsed}};
}

}  // namespace netdoctor::parsers
