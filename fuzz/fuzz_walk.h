// Shared by the bundle harnesses: visit every file of a tree and of a bundle the way the
// loader and the probes do, with limits small enough for the fuzzer's memory budget.
#pragma once

#include <string>

#include "base/bundle.h"
#include "base/file_tree.h"

namespace netdoctor::fuzz {

// Limits below the product defaults: a decompression bomb must be refused, not held in RAM.
TreeLimits fuzz_limits();

// Lists and reads everything under `dir` (depth-bounded).
void walk_tree(const FileTree& tree, const std::string& dir, int depth);

// Reads every sample's captured_at, loads the fabric and serialises its inventory.
void exercise_bundle(const Bundle& bundle);

}  // namespace netdoctor::fuzz
