#include "model/nic_text.h"

#include <cctype>

#include "base/strings.h"

namespace netdoctor::model {

std::string first_token(std::string_view text) {
  auto fields = split_ws(text);
  if (fields.empty()) {
    return {};
  }
  auto token = fields.front();
  return std::string(token.substr(0, token.find('/')));
}

std::string normalise_port_state(std::string_view raw) {
  auto text = trim(raw);
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    text = trim(text.substr(colon + 1));
  }
  if (starts_with(text, "PORT_")) {
    text.remove_prefix(5);
  }
  std::string out;
  for (char c : text) {
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string normalise_phys_state(std::string_view raw) {
  auto text = trim(raw);
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    text = trim(text.substr(colon + 1));
  }
  if (auto paren = text.find(" ("); paren != std::string_view::npos) {
    text = text.substr(0, paren);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    // "LinkUp" -> "LINK_UP": a capital after a small letter starts a word.
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(text[i - 1])) != 0) {
      out += '_';
    }
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

PortRate parse_sysfs_rate(std::string_view text) {
  PortRate rate;
  auto fields = split_ws(text);
  if (!fields.empty()) {
    rate.gbps = parse_double(fields.front());
  }
  if (auto open = text.find('('); open != std::string_view::npos) {
    auto rest = text.substr(open + 1);
    auto x = rest.find('X');
    if (x != std::string_view::npos) {
      if (auto lanes = parse_i64(rest.substr(0, x)); lanes && *lanes > 0 && *lanes <= 64) {
        rate.width = static_cast<int>(*lanes);
      }
    }
  }
  return rate;
}

}  // namespace netdoctor::model
