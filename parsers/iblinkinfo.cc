#include "parsers/iblinkinfo.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

struct Header {
  std::string type;
  std::string description;
  std::optional<std::uint64_t> guid;
};

// "CA: cu01 HCA-1:" / "Switch: 0x0c42a103008982a4 Quantum Mellanox Technologies:".
std::optional<Header> read_header(std::string_view line) {
  auto colon = line.find(": ");
  if (colon == std::string_view::npos || !line.ends_with(':')) {
    return std::nullopt;
  }
  Header h{std::string(line.substr(0, colon)), "", std::nullopt};
  if (h.type != "CA" && h.type != "Switch" && h.type != "Router") {
    return std::nullopt;
  }
  std::string_view rest = trim(line.substr(colon + 2, line.size() - colon - 3));
  auto space = rest.find(' ');
  if (h.type == "Switch" && rest.starts_with("0x")) {
    h.guid = ib::guid(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view{} : trim(rest.substr(space));
  }
  h.description = std::string(rest);
  return h;
}

// "[0x<guid>] [\"desc\"] [lid] [port][ext]" -- the end of either side of the arrow.
struct End {
  std::optional<std::uint64_t> guid;
  std::string description;
  std::optional<std::uint32_t> lid, port;
  std::string ext;
};

End read_end(std::string_view text) {
  End e;
  text = trim(text);
  if (text.starts_with("0x")) {
    auto space = text.find(' ');
    e.guid = ib::guid(text.substr(0, space));
    text = space == std::string_view::npos ? std::string_view{} : trim(text.substr(space));
  }
  std::size_t end = 0;
  if (auto desc = text.starts_with('"') ? ib::quoted(text, 0, end) : std::nullopt) {
    e.description = std::string(trim(*desc));
    text = trim(text.substr(end));
  }
  auto open = text.find('[');
  auto close = text.find(']', open == std::string_view::npos ? 0 : open);
  if (open != std::string_view::npos && close != std::string_view::npos) {
    e.ext = std::string(trim(text.substr(open + 1, close - open - 1)));
  }
  auto words = split_ws(text.substr(0, open));
  if (words.size() >= 2) {
    e.lid = ib::u32(words[words.size() - 2]);
  }
  if (!words.empty()) {
    e.port = ib::u32(words.back());
  }
  return e;
}

// " 4X        53.125 Gbps Active/  LinkUp" / "                Down/ Polling".
void read_middle(std::string_view middle, IbLink& link) {
  auto slash = middle.find('/');
  if (slash != std::string_view::npos) {
    link.physical_state = std::string(trim(middle.substr(slash + 1)));
  }
  auto words = split_ws(middle.substr(0, slash));
  if (!words.empty()) {
    link.state = std::string(words.back());
    words.pop_back();
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "Gbps" && i > 0) {
      link.speed_gbps = parse_double(words[i - 1]);
    } else if (words[i].ends_with('X') && parse_u64(words[i].substr(0, words[i].size() - 1))) {
      link.width = std::string(words[i]);
    }
  }
}

// "<end> ==( <middle> )==> <end> \"desc\" ( comment )"; nullopt without the arrow.
std::optional<IbLink> read_link(std::string_view line, const Header& header) {
  auto open = line.find("==(");
  auto close = line.find(")==>", open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) {
    return std::nullopt;
  }
  IbLink link;
  link.node_type = header.type;
  End local = read_end(line.substr(0, open));
  link.node_description = local.description.empty() ? header.description : local.description;
  link.guid = local.guid ? local.guid : header.guid;
  link.lid = local.lid;
  link.port = local.port;
  link.ext = local.ext;
  read_middle(line.substr(open + 3, close - open - 3), link);
  std::string_view rest = line.substr(close + 4);
  auto quote = rest.find('"');
  End remote = read_end(rest.substr(0, quote));
  link.remote_guid = remote.guid;
  link.remote_lid = remote.lid;
  link.remote_port = remote.port;
  link.remote_ext = remote.ext;
  std::size_t end = 0;
  if (auto desc = ib::quoted(rest, 0, end)) {
    link.remote_description = std::string(*desc);
    std::string_view tail = trim(rest.substr(end));
    if (tail.starts_with('(') && tail.ends_with(')')) {
      tail = tail.substr(1, tail.size() - 2);
    }
    link.comment = std::string(trim(tail));
  }
  return link;
}

}  // namespace

const IbLink* IbLinkInfo::find(std::string_view node_description, std::uint32_t port) const {
  for (const auto& l : links) {
    if (l.node_description == node_description && l.port == port) {
      return &l;
    }
  }
  return nullptr;
}

Result<IbLinkInfo> parse_iblinkinfo(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbLinkInfo out;
  Header header;
  for (auto line : ib::lines(text)) {
    line = trim(line);
    if (line.empty()) {
      continue;
    }
    if (auto h = read_header(line)) {
      header = std::move(*h);
    } else if (auto link = read_link(line, header)) {
      out.links.push_back(std::move(*link));
    } else if (!detail::is_prompt_line(line)) {
      out.unparsed.emplace_back(line);
    }
  }
  if (out.links.empty()) {
    return detail::parse_error(
        "no iblinkinfo link line found ('<lid> <port>[ ] ==( <width> <speed> <state>/ <phys>)==> "
        "...')");
  }
  return out;
}

nlohmann::json to_json(const IbLinkInfo& info) {
  using detail::opt;
  auto guid = [](const std::optional<std::uint64_t>& g) {
    return g ? nlohmann::json(ib::guid_text(*g)) : nlohmann::json(nullptr);
  };
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : info.links) {
    links.push_back({{"node_type", l.node_type},
                     {"node_description", l.node_description},
                     {"guid", guid(l.guid)},
                     {"lid", opt(l.lid)},
                     {"port", opt(l.port)},
                     {"ext", l.ext},
                     {"width", l.width},
                     {"speed_gbps", opt(l.speed_gbps)},
                     {"state", l.state},
                     {"physical_state", l.physical_state},
                     {"remote_guid", guid(l.remote_guid)},
                     {"remote_lid", opt(l.remote_lid)},
                     {"remote_port", opt(l.remote_port)},
                     {"remote_ext", l.remote_ext},
                     {"remote_description", l.remote_description},
                     {"comment", l.comment}});
  }
  return {{"links", links}, {"unparsed", info.unparsed}};
}

}  // namespace netdoctor::parsers
