// open_bundles: several captures diagnosed as one fabric (the sos reports an on-call engineer
// was sent, a host bundle beside a switch bundle, two collects of the same hosts minutes apart).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/bundle.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

// Machines of every bundle by name. A machine met in several bundles keeps every sample; where
// two bundles name a sample alike ("0"), each is prefixed with its bundle's position so that
// they sort in the order the bundles were given.
std::vector<MachineCapture> merge_machines(
    const std::vector<std::vector<MachineCapture>*>& per_bundle) {
  std::map<std::string, std::vector<std::pair<std::size_t, MachineSample>>> by_name;
  for (std::size_t b = 0; b < per_bundle.size(); ++b) {
    for (auto& capture : *per_bundle[b]) {
      for (auto& sample : capture.samples) {
        by_name[capture.name].emplace_back(b, std::move(sample));
      }
      by_name.try_emplace(capture.name);  // a machine without samples is still listed
    }
  }
  std::vector<MachineCapture> out;
  for (auto& [name, samples] : by_name) {
    std::set<std::string> seen;
    bool clash = false;
    for (const auto& [b, sample] : samples) {
      clash = !seen.insert(sample.name).second || clash;
    }
    MachineCapture merged{name, {}};
    for (auto& [b, sample] : samples) {
      if (clash) {
        sample.name = fmt::format("b{}-{}", b + 1, sample.name);
      }
      merged.samples.push_back(std::move(sample));
    }
    std::sort(merged.samples.begin(), merged.samples.end(),
              [](const MachineSample& a, const MachineSample& b) {
                return natural_less(a.name, b.name);
              });
    out.push_back(std::move(merged));
  }
  return out;
}

}  // namespace

Result<Bundle> open_bundles(const std::vector<std::string>& paths, const BundleOptions& options) {
  if (paths.size() == 1) {
    return open_bundle(paths.front(), options);
  }
  std::vector<Bundle> opened;
  std::vector<Error> failures;
  for (const auto& path : paths) {
    auto bundle = open_bundle(path, options);
    if (bundle.ok()) {
      opened.push_back(std::move(bundle).value());
    } else {
      failures.push_back(bundle.error());
    }
  }
  if (opened.empty()) {
    return failures.empty() ? make_error(ErrorCode::InvalidArgument, "no bundle given")
                            : failures.front();
  }
  Bundle out;
  out.path = join(paths, " + ");
  // Whole-bundle folders (nccl/, fabric/) of every bundle, through one tree.
  std::vector<std::shared_ptr<const FileTree>> trees;
  for (const auto& bundle : opened) {
    if (bundle.tree) {
      trees.push_back(bundle.tree);
    }
  }
  out.tree = trees.empty() ? nullptr : make_layered_tree(std::move(trees));
  out.manifest_json = opened.front().manifest_json;
  out.problems = std::move(failures);  // a bundle that would not open is named, the rest load
  std::vector<std::vector<MachineCapture>*> hosts;
  std::vector<std::vector<MachineCapture>*> switches;
  // The fabric samples of each bundle as the samples of one machine, merged like a host's.
  std::vector<std::vector<MachineCapture>> fabric_of(opened.size());
  std::vector<std::vector<MachineCapture>*> fabric;
  for (std::size_t b = 0; b < opened.size(); ++b) {
    auto& bundle = opened[b];
    hosts.push_back(&bundle.hosts);
    switches.push_back(&bundle.switches);
    if (!bundle.fabric_samples.empty()) {
      fabric_of[b].push_back(MachineCapture{"fabric", std::move(bundle.fabric_samples)});
    }
    fabric.push_back(&fabric_of[b]);
    std::move(bundle.perftests.begin(), bundle.perftests.end(), std::back_inserter(out.perftests));
    std::move(bundle.problems.begin(), bundle.problems.end(), std::back_inserter(out.problems));
  }
  out.hosts = merge_machines(hosts);
  out.switches = merge_machines(switches);
  auto merged_fabric = merge_machines(fabric);
  if (!merged_fabric.empty()) {
    out.fabric_samples = std::move(merged_fabric.front().samples);
  }
  // Current runs before baseline runs, as one bundle lists them.
  std::stable_partition(out.perftests.begin(), out.perftests.end(),
                        [](const PerftestFile& run) { return !run.baseline; });
  return out;
}

}  // namespace netdoctor
