// Bundle: what a capture bundle (spec/bundle.md) holds: hosts and switches with their
// samples in time order, the InfiniBand fabric samples, perftest outputs, the optional manifest,
// and every problem met while opening it. A directory, a .tar/.tar.gz/.tar.xz of one, or a lone sos
// report all open here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/file_tree.h"
#include "base/result.h"
#include "base/sample_source.h"

namespace netdoctor {

struct MachineSample {
  std::string name;  // the sample directory name ("0", "s001", or the sos report's name)
  std::shared_ptr<const SampleSource> source;
};

struct MachineCapture {
  std::string name;                    // host or switch name
  std::vector<MachineSample> samples;  // in natural name order (base/strings.h) = time order
};

struct PerftestFile {
  std::string client;
  std::string server;
  std::string name;  // mangled command line ("ib_write_bw_-d_mlx5_0_--report_gbits_node02")
  bool baseline = false;
  std::string text;  // the file's content
  std::string display_path;
};

struct Bundle {
  std::string path;                      // as given by the user
  std::shared_ptr<const FileTree> tree;  // rooted at the bundle's root
  std::vector<MachineCapture> hosts;     // sorted by name
  std::vector<MachineCapture> switches;  // sorted by name
  // fabric/<sample>/ (spec/bundle.md 1.1, InfiniBand fabric views), in natural name order = time
  // order; each a SampleSource over that subtree (captured_at, sos_commands/<group>/...).
  std::vector<MachineSample> fabric_samples;
  std::vector<PerftestFile> perftests;       // current runs, then baseline runs
  std::optional<std::string> manifest_json;  // bundle.json, if present
  std::vector<Error> problems;               // unreadable or refused parts; the rest loaded
};

struct BundleOptions {
  TreeLimits limits;
};

// Fails only when nothing usable could be opened (no such path, not a bundle at all).
Result<Bundle> open_bundle(const std::string& path, const BundleOptions& options = {});

// Where a machine of a bundle sits: hosts/<name>/ or switches/<name>/.
enum class MachineRole { Host, Switch };

// Receives the machines of a bundle archive while it is read (open_bundle_streaming).
class MachineSink {
 public:
  virtual ~MachineSink() = default;
  // A machine whose members the archive has moved past; they are freed when the last copy of
  // the capture (its samples' sources) goes. Called on the reading thread.
  virtual void take(MachineRole role, MachineCapture capture) = 0;
  // Forget every machine taken: the archive is being read again, whole.
  virtual void discard() = 0;
};

// open_bundle for a bundle archive that is too large to hold: while it is read, each machine
// (hosts/<name>/..., switches/<name>/...) whose members come together, as collect and sim write
// them, goes to `sink` as soon as the archive moves on, and is left out of the Bundle returned,
// which holds the rest (fabric, perftest, nccl, the manifest, every problem in open_bundle's
// order). When streaming would not give what open_bundle gives (a machine's members scattered,
// a link into a streamed machine, the layout not where the first machine suggested), `sink`
// discards what it took and the archive is opened whole with open_bundle; so is anything that
// is not an archive.
Result<Bundle> open_bundle_streaming(const std::string& path, MachineSink& sink,
                                     const BundleOptions& options = {});

// The machines of `tree`, laid out as a bundle's hosts/<name>/ and switches/<name>/, handed to
// `sink` as open_bundle would capture them; for a source that produces machines a batch at a time
// (Prometheus), so that each batch is loaded and freed before the next. Returns the problems met
// listing them.
std::vector<Error> hand_machines_to(std::shared_ptr<const FileTree> tree, MachineSink& sink,
                                    const BundleOptions& options = {});

// Several bundles as one (base/bundle_merge.cc): machines met in several are one machine with
// every sample (clashing sample names prefixed "b<k>-" by the bundle's position, so they sort in
// the order given); the fabric samples of all likewise, as if of one machine; perftest runs and
// problems of all; the manifest of the first. A bundle that will not open becomes a problem naming
// it; fails only when none opens. One path: open_bundle.
Result<Bundle> open_bundles(const std::vector<std::string>& paths,
                            const BundleOptions& options = {});

// The same for a tree already open (a bundle synthesized in memory from Prometheus or switch
// APIs); `path` names it in messages. The tree must allow concurrent reads if the bundle is
// loaded with several threads (MemTree: turn read tracking off).
Result<Bundle> open_bundle_tree(std::shared_ptr<const FileTree> tree, const std::string& path,
                                const BundleOptions& options = {});

}  // namespace netdoctor
