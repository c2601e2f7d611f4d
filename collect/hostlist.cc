#include "collect/hostlist.h"

#include <fmt/format.h>

#include <set>

#include "base/strings.h"

namespace netdoctor::collect {
namespace {

bool host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

Error bad(std::string message, std::string_view context) {
  return make_error(ErrorCode::InvalidArgument, std::move(message), std::string(context));
}

// One range inside brackets: "7", "01-32", "1-9/2". Zero padding comes from the lower bound
// as written ("001" pads to 3), as in ClusterShell.
Status expand_range(std::string_view range, std::string_view whole, std::vector<std::string>& out) {
  std::string_view bounds = range;
  std::uint64_t step = 1;
  if (const auto slash = range.find('/'); slash != std::string_view::npos) {
    bounds = range.substr(0, slash);
    const auto parsed = parse_u64(range.substr(slash + 1));
    if (!parsed || *parsed == 0) {
      return bad(fmt::format("bad step in range '{}'", range), whole);
    }
    step = *parsed;
  }
  std::string_view low = bounds;
  std::string_view high = bounds;
  if (const auto dash = bounds.find('-'); dash != std::string_view::npos) {
    low = bounds.substr(0, dash);
    high = bounds.substr(dash + 1);
  }
  const auto is_digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 18 &&
           s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (!is_digits(low) || !is_digits(high)) {
    return bad(fmt::format("range '{}' is not numeric", range), whole);
  }
  const std::uint64_t first = *parse_u64(low);
  const std::uint64_t last = *parse_u64(high);
  if (first > last) {
    return bad(fmt::format("range '{}' runs backwards", range), whole);
  }
  if ((last - first) / step >= k_max_hosts) {
    return bad(fmt::format("range '{}' has more than {} hosts", range, k_max_hosts), whole);
  }
  const std::size_t width = low.size() > 1 && low.front() == '0' ? low.size() : 0;
  for (std::uint64_t i = first; i <= last; i += step) {
    out.push_back(fmt::format("{:0{}}", i, width));
  }
  return {};
}

// One pattern without top-level commas: "rack[1-2]-node[01-03]".
Status expand_pattern(std::string_view pattern, std::vector<std::string>& out) {
  if (pattern.empty()) {
    return bad("empty host name", pattern);
  }
  std::vector<std::string> partial = {""};
  std::size_t i = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '[') {
      const auto close = pattern.find(']', i);
      if (close == std::string_view::npos) {
        return bad("'[' without ']'", pattern);
      }
      const std::string_view inside = pattern.substr(i + 1, close - i - 1);
      if (inside.find('[') != std::string_view::npos) {
        return bad("nested '['", pattern);
      }
      std::vector<std::string> values;
      for (std::string_view range : split(inside, ',')) {
        ND_TRY(expand_range(trim(range), pattern, values));
      }
      if (partial.size() * values.size() > k_max_hosts) {
        return bad(fmt::format("more than {} hosts", k_max_hosts), pattern);
      }
      std::vector<std::string> next;
      next.reserve(partial.size() * values.size());
      for (const auto& prefix : partial) {
        for (const auto& value : values) {
          next.push_back(prefix + value);
        }
      }
      partial = std::move(next);
      i = close + 1;
    } else if (c == ']') {
      return bad("']' without '['", pattern);
    } else if (host_char(c)) {
      for (auto& prefix : partial) {
        prefix += c;
      }
      ++i;
    } else {
      return bad(fmt::format("character '{}' cannot be in a host name", c), pattern);
    }
  }
  for (auto& host : partial) {
    if (host.front() == '-' || host.front() == '.') {
      return bad(fmt::format("host name '{}' starts with '{}'", host, host.front()), pattern);
    }
    out.push_back(std::move(host));
  }
  return {};
}

}  // namespace

Result<std::vector<std::string>> expand_hostlist(std::string_view list) {
  // Split at commas outside brackets; spaces also separate, as in `nodeset -e "a b"`.
  std::vector<std::string_view> patterns;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if ((c == ',' || c == ' ') && depth == 0) {
      if (i > start) {
        patterns.push_back(list.substr(start, i - start));
      }
      start = i + 1;
    }
  }
  if (depth != 0) {
    return bad("unbalanced brackets", list);
  }
  std::vector<std::string> hosts;
  for (std::string_view pattern : patterns) {
    ND_TRY(expand_pattern(pattern, hosts));
    if (hosts.size() > k_max_hosts) {
      return bad(fmt::format("more than {} hosts", k_max_hosts), list);
    }
  }
  if (hosts.empty()) {
    return bad("no hosts", list);
  }
  std::vector<std::string> unique;
  std::set<std::string_view> seen;
  unique.reserve(hosts.size());
  for (const auto& host : hosts) {
    if (seen.insert(host).second) {
      unique.push_back(host);
    }
  }
  return unique;
}

}  // namespace netdoctor::collect
