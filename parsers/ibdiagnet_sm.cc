#include "parsers/ibdiagnet_sm.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibdiagnet_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_title = "ibdiagnet fabric SM report";
constexpr std::string_view k_block = "SM - ";

}  // namespace

Result<IbdiagSmReport> parse_ibdiagnet_sm(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbdiagSmReport out;
  bool titled = false;
  std::string role;  // of the block whose fields line comes next
  for (auto raw : ib::lines(text)) {
    const std::string_view line = trim(raw);
    if (line.empty() || ibdiag::is_comment(line)) {
      continue;
    }
    if (line.starts_with(k_title)) {
      titled = true;
    } else if (line.starts_with(k_block)) {
      role = to_lower(trim(line.substr(k_block.size())));
    } else if (!role.empty()) {
      out.managers.push_back(read_ibdiag_sm(std::move(role), line));
      role.clear();
    }
  }
  if (!titled && out.managers.empty()) {
    return detail::parse_error(
        "no ibdiagnet2.sm report found ('ibdiagnet fabric SM report', 'SM - master' blocks)");
  }
  return out;
}

nlohmann::json to_json(const IbdiagSmReport& report) {
  nlohmann::json managers = nlohmann::json::array();
  for (const auto& sm : report.managers) {
    managers.push_back(to_json(sm));
  }
  return {{"managers", managers}};
}

}  // namespace netdoctor::parsers
