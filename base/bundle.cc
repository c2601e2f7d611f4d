// open_bundle: finds the bundle layout (spec/bundle.md) in a directory or archive and
// enumerates what it holds. Nothing but perftest outputs and bundle.json is read here:
// counters are the model's to load, lazily.
#include "base/bundle.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "base/bundle_layout.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

constexpr std::string_view k_sos_marker = "sos_commands";

bool has_entry(const std::vector<DirEntry>& entries, std::string_view name, DirEntry::Kind kind) {
  return std::any_of(entries.begin(), entries.end(),
                     [&](const DirEntry& e) { return e.name == name && e.kind == kind; });
}

bool holds_layout(const std::vector<DirEntry>& entries) {
  return has_entry(entries, "hosts", DirEntry::Kind::Dir) ||
         has_entry(entries, "switches", DirEntry::Kind::Dir) ||
         has_entry(entries, "perftest", DirEntry::Kind::Dir) ||
         has_entry(entries, "perftest-baseline", DirEntry::Kind::Dir) ||
         has_entry(entries, "fabric", DirEntry::Kind::Dir) ||
         has_entry(entries, "nccl", DirEntry::Kind::Dir) ||
         has_entry(entries, "bundle.json", DirEntry::Kind::File);
}

bool holds_sos_report(const std::vector<DirEntry>& entries) {
  return has_entry(entries, k_sos_marker, DirEntry::Kind::Dir);
}

// An archive named like an sos report (sosreport-<host>-<date>-<id>.tar.xz).
bool is_sos_archive(const DirEntry& e) {
  return e.kind == DirEntry::Kind::File && has_archive_suffix(e.name) &&
         (starts_with(e.name, "sosreport") || starts_with(e.name, "sos_report"));
}

// A folder of sos reports: an sos report archive, or any directory holding sos_commands/.
bool holds_sos_reports(const FileTree& tree, const std::vector<DirEntry>& top) {
  return std::any_of(top.begin(), top.end(), [&tree](const DirEntry& e) {
    if (is_sos_archive(e)) {
      return true;
    }
    if (e.kind != DirEntry::Kind::Dir) {
      return false;
    }
    auto inner = tree.list(e.name);
    return inner.ok() && holds_sos_report(*inner);
  });
}

std::string join_path(std::string_view a, std::string_view b) {
  if (a.empty()) {
    return std::string(b);
  }
  return b.empty() ? std::string(a) : fmt::format("{}/{}", a, b);
}

std::string base_name(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') {
    path.remove_suffix(1);
  }
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

// The layout at the top, or under a single top directory (how tar archives of a directory
// look: healthy.tar.gz holds healthy/...).
Result<FoundRoot> find_root(const FileTree& tree, const std::string& shown) {
  ND_TRY_ASSIGN(std::vector<DirEntry> top, tree.list(""));
  if (holds_layout(top)) {
    return FoundRoot{"", RootKind::Layout};
  }
  if (holds_sos_report(top)) {
    return FoundRoot{"", RootKind::SosReport};
  }
  std::vector<const DirEntry*> dirs;
  for (const DirEntry& e : top) {
    if (e.kind == DirEntry::Kind::Dir) {
      dirs.push_back(&e);
    }
  }
  // One directory beside sos report archives is one report among several, not the root.
  const bool sos_archives = std::any_of(top.begin(), top.end(), is_sos_archive);
  if (dirs.size() == 1 && !sos_archives) {
    auto inner = tree.list(dirs.front()->name);
    if (inner.ok() && holds_layout(*inner)) {
      return FoundRoot{dirs.front()->name, RootKind::Layout};
    }
    if (inner.ok() && holds_sos_report(*inner)) {
      return FoundRoot{dirs.front()->name, RootKind::SosReport};
    }
  }
  if (holds_sos_reports(tree, top)) {
    return FoundRoot{"", RootKind::SosFolder};
  }
  return make_error(
      ErrorCode::InvalidArgument,
      fmt::format("not a bundle: expected hosts/, switches/, fabric/, nccl/, perftest/ or "
                  "bundle.json (spec/bundle.md), an sos report's sos_commands/ (at the top or "
                  "under one top directory), or a folder of sos reports"),
      shown);
}

namespace {

std::string sos_host_name(const FileTree& tree, const std::string& fallback);

class BundleBuilder {
 public:
  BundleBuilder(Bundle& bundle, const BundleOptions& options,
                const StreamedMachines* streamed = nullptr)
      : m_bundle(bundle), m_options(options), m_streamed(streamed) {}

  // Every machine under `dir` ("hosts"), in name order; a streamed one only adds its problems.
  void add_machines(const std::string& dir, std::vector<MachineCapture>& into);
  void add_machine(const std::string& dir, const std::string& name,
                   std::vector<MachineCapture>& into);
  // fabric/<sample>/ directories: one sample each, sorted by name.
  void add_fabric_samples();
  void add_perftests(const std::string& dir, bool baseline);
  void add_manifest();
  std::optional<MachineSample> sos_archive_sample(const std::string& path,
                                                  const std::string& label);
  void add_sos_folder();
  // An sos report archive of the bundle opened as a tree of its own, and where in it the report
  // sits; nullopt (a problem recorded) when unreadable or not an sos report.
  std::optional<std::pair<std::shared_ptr<const FileTree>, std::string>> open_sos_archive(
      const std::string& path);

 private:
  const FileTree& tree() const { return *m_bundle.tree; }
  void problem(Error error) { m_bundle.problems.push_back(std::move(error)); }

  Bundle& m_bundle;
  const BundleOptions& m_options;
  const StreamedMachines* m_streamed;
};

// A sample that is a tar archive of an sos report: opened as a tree of its own, the report
// found at its top or under its one top directory.
std::optional<std::pair<std::shared_ptr<const FileTree>, std::string>>
BundleBuilder::open_sos_archive(const std::string& path) {
  auto bytes = tree().read(path);
  if (!bytes.ok()) {
    problem(bytes.error());
    return std::nullopt;
  }
  TarTreeReport report;
  auto nested =
      open_tar_tree_from_memory(*bytes, tree().display_path(path), m_options.limits, &report);
  for (Error& e : report.problems) {
    problem(std::move(e));
  }
  if (!nested.ok()) {
    problem(nested.error());
    return std::nullopt;
  }
  std::shared_ptr<const FileTree> nested_tree = std::move(nested).value();
  auto root = find_root(*nested_tree, tree().display_path(path));
  if (!root.ok() || root->kind != RootKind::SosReport) {
    problem(make_error(ErrorCode::Unsupported, "archive is not an sos report",
                       tree().display_path(path)));
    return std::nullopt;
  }
  return std::make_pair(std::move(nested_tree), root->prefix);
}

std::optional<MachineSample> BundleBuilder::sos_archive_sample(const std::string& path,
                                                               const std::string& label) {
  auto opened = open_sos_archive(path);
  if (!opened) {
    return std::nullopt;
  }
  const std::string name = strip_archive_suffix(base_name(path));
  return MachineSample{name, make_tree_sample(opened->first, opened->second, label)};
}

// Each report of the folder is one sample of the host it names itself (its `hostname` file);
// two reports of one host are two samples, in the order of their names (sos puts the date in).
void BundleBuilder::add_sos_folder() {
  auto entries = tree().list("");
  if (!entries.ok()) {
    problem(entries.error());
    return;
  }
  std::map<std::string, MachineCapture> hosts;
  for (const DirEntry& entry : *entries) {
    const std::string report = strip_archive_suffix(entry.name);
    std::shared_ptr<const FileTree> report_tree;
    std::string prefix;
    if (entry.kind == DirEntry::Kind::File && has_archive_suffix(entry.name)) {
      auto opened = open_sos_archive(entry.name);
      if (!opened) {
        continue;
      }
      std::tie(report_tree, prefix) = std::move(*opened);
    } else if (entry.kind == DirEntry::Kind::Dir) {
      auto inner = tree().list(entry.name);
      if (!inner.ok() || !holds_sos_report(*inner)) {
        continue;  // anything else beside the reports is ignored, as in any bundle
      }
      report_tree = m_bundle.tree;
      prefix = entry.name;
    } else {
      continue;
    }
    const std::string host = prefix.empty()
                                 ? sos_host_name(*report_tree, report)
                                 : sos_host_name(*make_subtree(report_tree, prefix), report);
    auto& capture = hosts.try_emplace(host, MachineCapture{host, {}}).first->second;
    capture.samples.push_back(MachineSample{
        report, make_tree_sample(report_tree, prefix, fmt::format("{} sample {}", host, report))});
  }
  for (auto& [name, capture] : hosts) {
    std::sort(capture.samples.begin(), capture.samples.end(),
              [](const MachineSample& a, const MachineSample& b) {
                return natural_less(a.name, b.name);
              });
    m_bundle.hosts.push_back(std::move(capture));
  }
}

void BundleBuilder::add_machines(const std::string& dir, std::vector<MachineCapture>& into) {
  auto machines = tree().list(dir);
  if (!machines.ok()) {
    if (machines.error().code != ErrorCode::NotFound) {
      problem(machines.error());
    }
    return;
  }
  for (const DirEntry& machine : *machines) {
    if (machine.kind != DirEntry::Kind::Dir) {
      continue;
    }
    if (m_streamed != nullptr) {
      auto it = m_streamed->problems.find(join_path(dir, machine.name));
      if (it != m_streamed->problems.end()) {
        m_bundle.problems.insert(m_bundle.problems.end(), it->second.begin(), it->second.end());
        continue;
      }
    }
    add_machine(dir, machine.name, into);
  }
}

void BundleBuilder::add_machine(const std::string& dir, const std::string& name,
                                std::vector<MachineCapture>& into) {
  const std::string machine_path = join_path(dir, name);
  auto samples = tree().list(machine_path);
  if (!samples.ok()) {
    problem(samples.error());
    return;
  }
  MachineCapture capture{name, {}};
  for (const DirEntry& sample : *samples) {
    const std::string sample_path = join_path(machine_path, sample.name);
    const std::string label = fmt::format("{} sample {}", name, sample.name);
    if (sample.kind == DirEntry::Kind::Dir) {
      capture.samples.push_back(
          MachineSample{sample.name, make_tree_sample(m_bundle.tree, sample_path, label)});
    } else if (sample.kind == DirEntry::Kind::File && has_archive_suffix(sample.name)) {
      if (auto nested = sos_archive_sample(sample_path, label)) {
        capture.samples.push_back(std::move(*nested));
      }
    } else if (sample.kind == DirEntry::Kind::Other) {
      problem(make_error(ErrorCode::Refused,
                         "sample is a symbolic link that leaves the bundle, loops or dangles",
                         tree().display_path(sample_path)));
    }
  }
  std::sort(
      capture.samples.begin(), capture.samples.end(),
      [](const MachineSample& a, const MachineSample& b) { return natural_less(a.name, b.name); });
  into.push_back(std::move(capture));
}

void BundleBuilder::add_fabric_samples() {
  constexpr std::string_view k_fabric = "fabric";
  auto samples = tree().list(std::string(k_fabric));
  if (!samples.ok()) {
    if (samples.error().code != ErrorCode::NotFound) {
      problem(samples.error());
    }
    return;
  }
  for (const DirEntry& sample : *samples) {
    const std::string sample_path = join_path(k_fabric, sample.name);
    if (sample.kind == DirEntry::Kind::Dir) {
      m_bundle.fabric_samples.push_back(MachineSample{
          sample.name, make_tree_sample(m_bundle.tree, sample_path,
                                        fmt::format("fabric sample {}", sample.name))});
    } else if (sample.kind == DirEntry::Kind::Other) {
      problem(
          make_error(ErrorCode::Refused,
                     "fabric sample is a symbolic link that leaves the bundle, loops or dangles",
                     tree().display_path(sample_path)));
    }
  }
  std::sort(
      m_bundle.fabric_samples.begin(), m_bundle.fabric_samples.end(),
      [](const MachineSample& a, const MachineSample& b) { return natural_less(a.name, b.name); });
}

void BundleBuilder::add_perftests(const std::string& dir, bool baseline) {
  auto pairs = tree().list(dir);
  if (!pairs.ok()) {
    if (pairs.error().code != ErrorCode::NotFound) {
      problem(pairs.error());
    }
    return;
  }
  for (const DirEntry& pair : *pairs) {
    if (pair.kind != DirEntry::Kind::Dir) {
      continue;
    }
    const std::string pair_path = join_path(dir, pair.name);
    const auto split_at = pair.name.find("__");
    if (split_at == std::string::npos || split_at == 0 || split_at + 2 >= pair.name.size()) {
      problem(make_error(
          ErrorCode::Parse,
          fmt::format("perftest directory {} is not named <client>__<server>", pair.name),
          tree().display_path(pair_path)));
      continue;
    }
    auto runs = tree().list(pair_path);
    if (!runs.ok()) {
      problem(runs.error());
      continue;
    }
    for (const DirEntry& run : *runs) {
      const std::string run_path = join_path(pair_path, run.name);
      if (run.kind == DirEntry::Kind::Other) {
        problem(make_error(ErrorCode::Refused,
                           "perftest output is a symbolic link that leaves the bundle, loops "
                           "or dangles",
                           tree().display_path(run_path)));
        continue;
      }
      if (run.kind != DirEntry::Kind::File) {
        continue;
      }
      auto text = tree().read(run_path);
      if (!text.ok()) {
        problem(text.error());
        continue;
      }
      m_bundle.perftests.push_back(
          PerftestFile{pair.name.substr(0, split_at), pair.name.substr(split_at + 2), run.name,
                       baseline, std::move(text).value(), tree().display_path(run_path)});
    }
  }
}

void BundleBuilder::add_manifest() {
  auto manifest = tree().read("bundle.json");
  if (manifest.ok()) {
    m_bundle.manifest_json = std::move(manifest).value();
  } else if (manifest.error().code != ErrorCode::NotFound) {
    problem(manifest.error());
  }
}

// The host name of a lone sos report: its `hostname` file, else what `hostname` printed.
std::string sos_host_name(const FileTree& tree, const std::string& fallback) {
  for (std::string_view file : {"hostname", "sos_commands/host/hostname"}) {
    auto text = tree.read(file);
    if (text.ok() && !trim(*text).empty()) {
      return std::string(trim(split_lines(*text).front()));
    }
  }
  return fallback;
}

Result<std::shared_ptr<const FileTree>> open_tree(const std::string& path,
                                                  const BundleOptions& options,
                                                  std::vector<Error>& problems) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == EACCES) {
      return make_error(ErrorCode::PermissionDenied, "permission denied", path);
    }
    return make_error(ErrorCode::NotFound, fmt::format("no such bundle: {}", path), path);
  }
  if (S_ISDIR(st.st_mode)) {
    ND_TRY_ASSIGN(std::unique_ptr<FileTree> tree, open_dir_tree(path, options.limits));
    return std::shared_ptr<const FileTree>(std::move(tree));
  }
  if (!S_ISREG(st.st_mode) || !looks_like_archive(path)) {
    return make_error(ErrorCode::InvalidArgument,
                      "not a bundle: expected a directory or a .tar, .tar.gz or .tar.xz archive",
                      path);
  }
  TarTreeReport report;
  auto tree = open_tar_tree(path, options.limits, &report);
  for (Error& e : report.problems) {
    problems.push_back(std::move(e));
  }
  if (!tree.ok()) {
    return tree.error();
  }
  return std::shared_ptr<const FileTree>(std::move(tree).value());
}

}  // namespace

Result<Bundle> open_bundle(const std::string& path, const BundleOptions& options) {
  std::vector<Error> problems;
  ND_TRY_ASSIGN(std::shared_ptr<const FileTree> whole, open_tree(path, options, problems));
  ND_TRY_ASSIGN(Bundle bundle, open_bundle_tree(std::move(whole), path, options));
  bundle.problems.insert(bundle.problems.begin(), problems.begin(), problems.end());
  return bundle;
}

Result<Bundle> open_bundle_tree(std::shared_ptr<const FileTree> whole, const std::string& path,
                                const BundleOptions& options) {
  return open_bundle_tree_streamed(std::move(whole), path, options, nullptr);
}

std::optional<MachineCapture> capture_machine(std::shared_ptr<const FileTree> tree,
                                              const std::string& dir, const std::string& name,
                                              const BundleOptions& options,
                                              std::vector<Error>& problems) {
  auto entries = tree->list(dir);
  const bool is_dir =
      entries.ok() && std::any_of(entries->begin(), entries->end(), [&name](const DirEntry& e) {
        return e.name == name && e.kind == DirEntry::Kind::Dir;
      });
  if (!is_dir) {
    return std::nullopt;  // not a machine, as open_bundle would skip it
  }
  Bundle scratch;
  scratch.tree = std::move(tree);
  std::vector<MachineCapture> captured;
  BundleBuilder(scratch, options).add_machine(dir, name, captured);
  problems = std::move(scratch.problems);
  if (captured.empty()) {
    return std::nullopt;
  }
  return std::move(captured.front());
}

std::vector<Error> hand_machines_to(std::shared_ptr<const FileTree> tree, MachineSink& sink,
                                    const BundleOptions& options) {
  Bundle scratch;
  scratch.tree = std::move(tree);
  BundleBuilder builder(scratch, options);
  builder.add_machines("hosts", scratch.hosts);
  builder.add_machines("switches", scratch.switches);
  scratch.tree.reset();  // the captures share it: it goes with the last machine loaded
  for (MachineCapture& host : scratch.hosts) {
    sink.take(MachineRole::Host, std::move(host));
  }
  for (MachineCapture& sw : scratch.switches) {
    sink.take(MachineRole::Switch, std::move(sw));
  }
  return std::move(scratch.problems);
}

Result<Bundle> open_bundle_tree_streamed(std::shared_ptr<const FileTree> whole,
                                         const std::string& path, const BundleOptions& options,
                                         const StreamedMachines* streamed) {
  Bundle bundle;
  bundle.path = path;
  ND_TRY_ASSIGN(FoundRoot root, find_root(*whole, path));
  bundle.tree = root.prefix.empty()
                    ? whole
                    : std::shared_ptr<const FileTree>(make_subtree(whole, root.prefix));
  if (root.kind == RootKind::SosReport) {
    const std::string report_name =
        root.prefix.empty() ? strip_archive_suffix(base_name(path)) : base_name(root.prefix);
    const std::string host = sos_host_name(*bundle.tree, report_name);
    bundle.hosts.push_back(MachineCapture{
        host,
        {MachineSample{
            report_name,
            make_tree_sample(bundle.tree, "", fmt::format("{} sample {}", host, report_name))}}});
    return bundle;
  }
  BundleBuilder builder(bundle, options, streamed);
  if (root.kind == RootKind::SosFolder) {
    builder.add_sos_folder();
    return bundle;
  }
  builder.add_manifest();
  builder.add_machines("hosts", bundle.hosts);
  builder.add_machines("switches", bundle.switches);
  builder.add_fabric_samples();
  builder.add_perftests("perftest", false);
  builder.add_perftests("perftest-baseline", true);
  return bundle;
}

}  // namespace netdoctor
