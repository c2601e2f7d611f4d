// Inside base/: how open_bundle (base/bundle.cc) finds a bundle's layout and enumerates its
// machines, shared with the streamed opening of an archive (base/bundle_stream.cc).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "base/result.h"

namespace netdoctor {

// Layout: spec/bundle.md's layout; SosReport: one sos report (one host, one sample);
// SosFolder: a folder of sos reports, archives or extracted, as an on-call engineer is sent
// them (one host each, named from its own report).
enum class RootKind { Layout, SosReport, SosFolder };

struct FoundRoot {
  std::string prefix;
  RootKind kind = RootKind::Layout;
};

// The layout at the top, or under a single top directory (how tar archives of a directory
// look: healthy.tar.gz holds healthy/...).
Result<FoundRoot> find_root(const FileTree& tree, const std::string& shown);

// Machines already handed to a MachineSink: the problems open_bundle would have met listing
// each, by its path from the bundle root ("hosts/node01").
struct StreamedMachines {
  std::map<std::string, std::vector<Error>, std::less<>> problems;
};

// open_bundle_tree, leaving out the machines of `streamed` (nullptr: none) but keeping their
// problems where open_bundle lists them.
Result<Bundle> open_bundle_tree_streamed(std::shared_ptr<const FileTree> whole,
                                         const std::string& path, const BundleOptions& options,
                                         const StreamedMachines* streamed);

// Machine `name` under `dir` ("hosts") of the bundle rooted at `tree`, as open_bundle captures
// it (nullopt when it is not a directory: not a machine); the problems met in `problems`.
std::optional<MachineCapture> capture_machine(std::shared_ptr<const FileTree> tree,
                                              const std::string& dir, const std::string& name,
                                              const BundleOptions& options,
                                              std::vector<Error>& problems);

}  // namespace netdoctor
