// open_bundle_streaming: a bundle archive read once, its machines handed out as the archive
// moves past them. The members of hosts/<name>/ (and switches/<name>/) go into a small tree of
// their own; when a member of anything else comes, that machine is complete: it is captured as
// open_bundle would capture it and given to the sink, which loads it and lets it go, so the
// archive's contents are never all in memory. Everything else is kept in one tree, which the
// usual enumeration (base/bundle.cc) opens at the end, the streamed machines left out.
//
// Streaming is exact only when every read the model makes lands in the same member as with the
// whole tree. Whenever that cannot be shown (a machine's members scattered over the archive, a
// link from one machine into another or from the rest into a streamed machine, a non-directory
// where the layout needs a directory, the layout's root not where the first machine put it) the
// sink discards what it took and the archive is read again whole: slower, never different.
#include <fmt/format.h>
#include <sys/stat.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/archive_tree.h"
#include "base/bundle.h"
#include "base/bundle_layout.h"
#include "base/strings.h"
#include "base/tar_members.h"
#include "base/tree_path.h"

namespace netdoctor {
namespace {

constexpr std::string_view k_hosts = "hosts";
constexpr std::string_view k_switches = "switches";

// The first `count` components of `path` ("a/b/c", 2 -> "a/b"), or nullopt when it has fewer.
std::optional<std::string_view> leading(std::string_view path, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) {
      if (end >= path.size()) {
        return std::nullopt;
      }
      ++end;  // past the slash
    }
    const std::size_t slash = path.find('/', end);
    end = slash == std::string_view::npos ? path.size() : slash;
  }
  return path.substr(0, end);
}

std::string_view component(std::string_view path, std::size_t index) {
  for (std::size_t i = 0; i < index; ++i) {
    const std::size_t slash = path.find('/');
    if (slash == std::string_view::npos) {
      return {};
    }
    path.remove_prefix(slash + 1);
  }
  return path.substr(0, path.find('/'));
}

bool is_role(std::string_view name) {
  return name == k_hosts || name == k_switches;
}

// `path` is `dir` or lies under it.
bool within(std::string_view path, std::string_view dir) {
  return dir.empty() || path == dir ||
         (path.size() > dir.size() && starts_with(path, dir) && path[dir.size()] == '/');
}

// Where a symbolic link leads, as ArchiveTree resolves it (relative to its directory, then
// normalised); nullopt when it is absolute or climbs out, which every tree refuses alike.
std::optional<std::string> link_target(std::string_view path, std::string_view target) {
  if (starts_with(target, "/")) {
    return std::nullopt;
  }
  auto normal = normalise_relative(join_relative(parent_dir(path), target));
  if (!normal.ok()) {
    return std::nullopt;
  }
  return std::move(normal).value();
}

class MachineGrouper final : public TarMemberSink {
 public:
  MachineGrouper(std::string path, const BundleOptions& options, MachineSink& sink)
      : m_path(std::move(path)), m_options(options), m_sink(sink), m_rest(m_path) {}

  void add_file(std::string_view path, std::string_view content) override {
    add(path, content, Kind::File);
  }
  void add_dir(std::string_view path) override { add(path, {}, Kind::Dir); }
  void add_symlink(std::string_view path, std::string_view target) override {
    add(path, target, Kind::Link);
  }
  bool wants_more() const override { return !m_given_up; }

  // After the whole archive: the Bundle of the rest, or nullopt when streaming was given up.
  std::optional<Result<Bundle>> finish();

 private:
  using Kind = ArchiveTreeBuilder::Kind;
  struct Machine {
    std::string key;   // from the bundle root: "hosts/node01"
    std::string full;  // in the archive: "<root>/hosts/node01"
    MachineRole role = MachineRole::Host;
    std::string name;
    std::unique_ptr<ArchiveTreeBuilder> members;
  };

  void add(std::string_view path, std::string_view data, Kind kind);
  // The machine `normal` is a member of, given the root; nullopt for the rest of the bundle.
  std::optional<std::string_view> machine_of(std::string_view normal);
  void open_machine(std::string_view full);
  void close_machine();
  void keep(std::string_view normal, std::string_view data, Kind kind);
  // A link of the rest that reaches a streamed machine or an ancestor of one.
  bool reaches_streamed(std::string_view target) const;
  void give_up() { m_given_up = true; }

  std::string m_path;
  const BundleOptions& m_options;
  MachineSink& m_sink;
  ArchiveTreeBuilder m_rest;
  std::optional<std::string> m_root;  // set by the first machine member
  std::optional<Machine> m_open;
  std::set<std::string, std::less<>> m_closed;  // every machine closed, by `full`
  StreamedMachines m_streamed;
  std::vector<std::string> m_rest_links;    // where the rest's links lead
  std::vector<std::string> m_rest_shallow;  // non-directories of the rest within two levels
  bool m_given_up = false;
};

std::optional<std::string_view> MachineGrouper::machine_of(std::string_view normal) {
  if (!m_root) {
    // The first machine decides the root: the layout at the top, else under one directory.
    if (is_role(component(normal, 0)) && leading(normal, 2)) {
      m_root = "";
    } else if (is_role(component(normal, 1)) && leading(normal, 3)) {
      m_root = std::string(component(normal, 0));
    } else {
      return std::nullopt;
    }
  }
  std::string_view inner = normal;
  if (!m_root->empty()) {
    if (!within(normal, *m_root) || normal.size() == m_root->size()) {
      return std::nullopt;
    }
    inner.remove_prefix(m_root->size() + 1);
  }
  if (!is_role(component(inner, 0))) {
    return std::nullopt;
  }
  const std::size_t depth = m_root->empty() ? 2 : 3;
  return leading(normal, depth);
}

void MachineGrouper::add(std::string_view path, std::string_view data, Kind kind) {
  if (m_given_up) {
    return;
  }
  std::string owned;
  std::string_view normal = path;
  if (!is_normal_relative(path)) {
    auto normalised = normalise_relative(path);
    if (!normalised.ok()) {
      return;  // no tree stores what climbs out
    }
    owned = std::move(normalised).value();
    normal = owned;
  }
  if (normal.empty()) {
    return;
  }
  const auto machine = machine_of(normal);
  if (!machine) {
    if (m_open) {
      close_machine();
    }
    keep(normal, data, kind);
    return;
  }
  if (!m_open || m_open->full != *machine) {
    if (m_open) {
      close_machine();
    }
    if (m_closed.contains(*machine)) {
      give_up();  // its members are scattered: the earlier ones are gone
      return;
    }
    open_machine(*machine);
  }
  if (kind == Kind::Link) {
    const auto target = link_target(normal, data);
    if (target && !within(*target, m_open->full)) {
      give_up();  // it reads another part of the bundle, which may be gone or still to come
      return;
    }
  }
  switch (kind) {
    case Kind::File:
      m_open->members->add_file(normal, data);
      break;
    case Kind::Dir:
      m_open->members->add_dir(normal);
      break;
    case Kind::Link:
      m_open->members->add_symlink(normal, data);
      break;
  }
}

void MachineGrouper::open_machine(std::string_view full) {
  Machine machine;
  machine.full = std::string(full);
  machine.key = m_root->empty() ? machine.full : machine.full.substr(m_root->size() + 1);
  const std::string_view role = component(machine.key, 0);
  machine.role = role == k_hosts ? MachineRole::Host : MachineRole::Switch;
  machine.name = std::string(component(machine.key, 1));
  machine.members = std::make_unique<ArchiveTreeBuilder>(m_path, ByteArena::Small{});
  m_open = std::move(machine);
}

void MachineGrouper::close_machine() {
  Machine machine = std::move(*m_open);
  m_open.reset();
  m_closed.insert(machine.full);
  std::shared_ptr<const FileTree> members = machine.members->finish();
  if (!m_root->empty()) {
    members = make_subtree(std::move(members), *m_root);
  }
  std::vector<Error> problems;
  const std::string role_dir(component(machine.key, 0));
  auto capture = capture_machine(std::move(members), role_dir, machine.name, m_options, problems);
  if (!capture) {
    return;  // not a directory: no machine, as open_bundle would list it
  }
  m_streamed.problems.emplace(machine.key, std::move(problems));
  m_rest.add_dir(machine.full);  // listed where it was, so the layout is found as before
  m_sink.take(machine.role, std::move(*capture));
}

void MachineGrouper::keep(std::string_view normal, std::string_view data, Kind kind) {
  switch (kind) {
    case Kind::File:
      m_rest.add_file(normal, data);
      break;
    case Kind::Dir:
      m_rest.add_dir(normal);
      break;
    case Kind::Link:
      m_rest.add_symlink(normal, data);
      if (auto target = link_target(normal, data)) {
        m_rest_links.push_back(std::move(*target));
      }
      break;
  }
  if (kind != Kind::Dir && !leading(normal, 3)) {
    m_rest_shallow.emplace_back(normal);
  }
}

bool MachineGrouper::reaches_streamed(std::string_view target) const {
  for (const auto& full : m_closed) {
    if (within(full, target) || within(target, full)) {
      return true;
    }
  }
  return false;
}

std::optional<Result<Bundle>> MachineGrouper::finish() {
  if (m_open && !m_given_up) {
    close_machine();
  }
  if (m_given_up) {
    return std::nullopt;
  }
  std::shared_ptr<const FileTree> rest = m_rest.finish();
  if (m_closed.empty()) {
    return open_bundle_tree_streamed(std::move(rest), m_path, m_options, nullptr);
  }
  auto root = find_root(*rest, m_path);
  if (!root.ok() || root->kind != RootKind::Layout || root->prefix != *m_root) {
    return std::nullopt;
  }
  for (const auto& shallow : m_rest_shallow) {
    // A file or link where the layout needs the directories the machines were streamed from.
    if (shallow == *m_root || within(*m_root, shallow) ||
        (within(shallow, *m_root) && is_role(component(shallow, m_root->empty() ? 0 : 1)))) {
      return std::nullopt;
    }
  }
  for (const auto& target : m_rest_links) {
    if (reaches_streamed(target)) {
      return std::nullopt;
    }
  }
  return open_bundle_tree_streamed(std::move(rest), m_path, m_options, &m_streamed);
}

bool is_archive_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && looks_like_archive(path);
}

}  // namespace

Result<Bundle> open_bundle_streaming(const std::string& path, MachineSink& sink,
                                     const BundleOptions& options) {
  if (!is_archive_file(path)) {
    return open_bundle(path, options);
  }
  TarTreeReport report;
  std::optional<Result<Bundle>> bundle;
  {
    MachineGrouper grouper(path, options, sink);
    const Status read = read_tar_members(path, options.limits, &report, grouper);
    if (!read.ok()) {
      sink.discard();
      return read.error();
    }
    bundle = grouper.finish();
  }
  if (!bundle) {
    sink.discard();
    return open_bundle(path, options);
  }
  if (bundle->ok()) {
    auto& problems = (*bundle)->problems;
    problems.insert(problems.begin(), report.problems.begin(), report.problems.end());
  } else {
    sink.discard();
  }
  return std::move(*bundle);
}

}  // namespace netdoctor
