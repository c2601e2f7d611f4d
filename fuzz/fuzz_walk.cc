#include "fuzz/fuzz_walk.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "model/inventory.h"
#include "model/loader.h"

namespace netdoctor::fuzz {
namespace {

constexpr int k_max_depth = 12;

}  // namespace

TreeLimits fuzz_limits() {
  TreeLimits limits;
  limits.max_file_bytes = 4ull << 20;
  limits.max_total_bytes = 32ull << 20;
  limits.max_entries = 20'000;
  return limits;
}

void walk_tree(const FileTree& tree, const std::string& dir, int depth) {
  if (depth > k_max_depth) {
    return;
  }
  auto entries = tree.list(dir);
  if (!entries.ok()) {
    return;
  }
  for (const DirEntry& entry : *entries) {
    const std::string path = dir.empty() ? entry.name : dir + "/" + entry.name;
    (void)tree.display_path(path);
    if (entry.kind == DirEntry::Kind::Dir) {
      walk_tree(tree, path, depth + 1);
    } else {
      (void)tree.read(path);
    }
  }
}

void exercise_bundle(const Bundle& bundle) {
  for (const auto* machines : {&bundle.hosts, &bundle.switches}) {
    for (const MachineCapture& machine : *machines) {
      for (const MachineSample& sample : machine.samples) {
        (void)sample.source->captured_at();
        (void)sample.source->describe();
      }
    }
  }
  auto fabric = model::load_fabric(bundle);
  if (!fabric.ok()) {
    return;
  }
  const std::string json =
      model::inventory_json(*fabric).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string text = model::inventory_text(*fabric);
  if (json.empty() || text.size() > (1ull << 30)) {
    std::abort();
  }
}

}  // namespace netdoctor::fuzz
