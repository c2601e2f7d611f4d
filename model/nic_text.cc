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
