// Relative paths inside a FileTree: the one normal form every tree keys its members by, and
// the small path steps the in-memory trees share when they follow symbolic links.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace netdoctor {

// As Linux's MAXSYMLINKS: a chain of links longer than this is a loop.
inline constexpr int k_max_symlink_depth = 40;

// Normalises a relative path: collapses "//" and ".", resolves ".."; returns Refused if ".."
// climbs above the root.
Result<std::string> normalise_relative(std::string_view path);

// No empty, "." or ".." component: `path` is already its own normal form (checked without
// allocating; every read of a bundle asks).
bool is_normal_relative(std::string_view path);

// "a/b/c" -> "a/b"; "a" -> "".
std::string_view parent_dir(std::string_view path);

// "a" + "b/c" -> "a/b/c"; either side may be empty.
std::string join_relative(std::string_view dir, std::string_view rest);

}  // namespace netdoctor
