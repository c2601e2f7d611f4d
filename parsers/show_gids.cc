#include "parsers/show_gids.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/rdma_text.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_footer = "n_gids_found=";

bool is_header(const std::vector<std::string_view>& tokens) {
  return tokens.size() >= 4 && tokens[0] == "DEV" && tokens[1] == "PORT" && tokens[2] == "INDEX" &&
         tokens[3] == "GID";
}

bool is_dashes(const std::vector<std::string_view>& tokens) {
  return !tokens.empty() && std::all_of(tokens.begin(), tokens.end(), [](std::string_view t) {
    return t.find_first_not_of('-') == std::string_view::npos;
  });
}

// A GID as show_gids prints it: hex groups and ':' ("fe80:0000:...:03da").
bool is_gid(std::string_view token) {
  return token.find(':') != std::string_view::npos &&
         std::all_of(token.begin(), token.end(), [](char c) {
           return c == ':' || std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

// "v1" / "v2" -> 1 / 2.
std::optional<std::uint32_t> version_number(std::string_view token) {
  if (token.size() < 2 || token[0] != 'v') {
    return std::nullopt;
  }
  return detail::parse_u32(token.substr(1));
}

// The columns after GID: [IPv4] VER [DEV]. IPv4 is empty for link-local GIDs and DEV for ports
// without a netdev, so VER is found by its "v<N>" shape.
bool read_tail(const std::vector<std::string_view>& tail, ShowGidsEntry& entry) {
  std::size_t at = 0;
  if (at < tail.size() && tail[at].find('.') != std::string_view::npos) {
    entry.ipv4 = std::string(tail[at++]);
  }
  if (at >= tail.size() || !version_number(tail[at])) {
    return false;
  }
  entry.version = std::string(tail[at]);
  entry.roce_version = version_number(tail[at++]);
  if (at < tail.size()) {
    entry.netdev = std::string(tail[at++]);
  }
  return at == tail.size();
}

std::optional<ShowGidsEntry> read_row(const std::vector<std::string_view>& tokens) {
  if (tokens.size() < 5 || tokens.size() > 7 || !is_gid(tokens[3])) {
    return std::nullopt;
  }
  auto port = detail::parse_u32(tokens[1]);
  auto index = detail::parse_u32(tokens[2]);
  if (!port || !index) {
    return std::nullopt;
  }
  ShowGidsEntry entry;
  entry.device = std::string(tokens[0]);
  entry.port = *port;
  entry.index = *index;
  entry.gid = std::string(tokens[3]);
  if (!read_tail({tokens.begin() + 4, tokens.end()}, entry)) {
    return std::nullopt;
  }
  return entry;
}

// "n_gids_found=4" -> 4.
std::optional<std::uint64_t> footer_count(std::string_view line) {
  if (!line.starts_with(k_footer)) {
    return std::nullopt;
  }
  return parse_u64(line.substr(k_footer.size()));
}

}  // namespace

Result<ShowGids> parse_show_gids(std::string_view text) {
  ND_TRY(detail::check_text(text));
  ShowGids out;
  bool saw_header = false;
  for (std::string_view line : detail::content_lines(text)) {
    auto tokens = split_ws(line);
    if (is_header(tokens)) {
      saw_header = true;
    } else if (is_dashes(tokens)) {
      continue;
    } else if (auto row = read_row(tokens)) {
      out.gids.push_back(std::move(*row));
    } else if (auto n = footer_count(line)) {
      out.n_gids_found.push_back(*n);
    } else {
      out.unparsed_lines.emplace_back(line);
    }
  }
  if (out.gids.empty() && !saw_header && out.n_gids_found.empty()) {
    return detail::parse_error("no show_gids header (DEV PORT INDEX GID), GID row or n_gids_found");
  }
  return out;
}

nlohmann::json to_json(const ShowGids& gids) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& g : gids.gids) {
    array.push_back({{"device", g.device},
                     {"port", g.port},
                     {"index", g.index},
                     {"gid", g.gid},
                     {"ipv4", g.ipv4},
                     {"version", g.version},
                     {"roce_version", detail::opt(g.roce_version)},
                     {"netdev", g.netdev}});
  }
  return {{"gids", array},
          {"n_gids_found", gids.n_gids_found},
          {"unparsed_lines", gids.unparsed_lines}};
}

}  // namespace netdoctor::parsers
