#include "base/tree_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "base/strings.h"

namespace netdoctor {

bool is_normal_relative(std::string_view path) {
  std::size_t start = 0;
  while (start < path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    if (end == path.size()) {
      return true;
    }
    start = end + 1;
  }
  return path.empty();
}

Result<std::string> normalise_relative(std::string_view path) {
  if (is_normal_relative(path)) {
    return std::string(path);
  }
  std::vector<std::string_view> kept;
  for (std::string_view part : split(path, '/')) {
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      if (kept.empty()) {
        return make_error(ErrorCode::Refused,
                          fmt::format("path {} climbs above the root of the tree", path),
                          std::string(path));
      }
      kept.pop_back();
      continue;
    }
    kept.push_back(part);
  }
  std::string out;
  for (std::string_view part : kept) {
    if (!out.empty()) {
      out += '/';
    }
    out += part;
  }
  return out;
}

std::string_view parent_dir(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::string join_relative(std::string_view dir, std::string_view rest) {
  if (dir.empty()) {
    return std::string(rest);
  }
  if (rest.empty()) {
    return std::string(dir);
  }
  return fmt::format("{}/{}", dir, rest);
}

}  // namespace netdoctor
