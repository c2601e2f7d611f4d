#include "remote/switch_list.h"

#include <fmt/format.h>

#include <set>

#include "base/strings.h"
#include "remote/bundle_files.h"
#include "remote/redact.h"

namespace netdoctor::remote {

const char* to_string(SwitchApi api) {
  switch (api) {
    case SwitchApi::Sonic:
      return "sonic";
    case SwitchApi::Eapi:
      return "eapi";
  }
  return "?";
}

Result<std::vector<SwitchTarget>> parse_switch_list(std::string_view text,
                                                    std::string_view source) {
  std::vector<SwitchTarget> out;
  std::set<std::string> names;
  std::size_t line_number = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    const auto fields = split_ws(line);
    if (fields.empty()) {
      continue;
    }
    auto fail = [&](const std::string& why) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{}:{}: {}", source, line_number, why));
    };
    if (fields.size() != 3) {
      return fail("expected \"NAME URL KIND\" (kind sonic or eapi)");
    }
    SwitchTarget target;
    target.name = std::string(fields[0]);
    target.url = std::string(fields[1]);
    if (!is_safe_component(target.name)) {
      return fail(fmt::format("switch name '{}' cannot name a directory", target.name));
    }
    if (!names.insert(target.name).second) {
      return fail(fmt::format("switch '{}' is listed twice", target.name));
    }
    if (!starts_with(to_lower(target.url), "https://") &&
        !starts_with(to_lower(target.url), "http://")) {
      return fail(fmt::format("'{}' is not an http(s) URL", redact_url(target.url)));
    }
    if (redact_url(target.url).find(k_redacted) != std::string::npos) {
      return fail(fmt::format("{}: credentials in the URL are refused; use --credentials",
                              redact_url(target.url)));
    }
    if (fields[2] == "sonic") {
      target.api = SwitchApi::Sonic;
    } else if (fields[2] == "eapi") {
      target.api = SwitchApi::Eapi;
    } else {
      return fail(fmt::format("unknown kind '{}' (sonic or eapi)", fields[2]));
    }
    out.push_back(std::move(target));
  }
  return out;
}

}  // namespace netdoctor::remote
