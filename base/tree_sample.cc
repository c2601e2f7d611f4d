// A sample read from a FileTree: the bundle layout (captured_at, sys/..., sos_commands/...)
// or an extracted sos report, which share the same shape.
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <utility>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

class TreeSample final : public SampleSource {
 public:
  TreeSample(std::shared_ptr<const FileTree> tree, std::string prefix, std::string label)
      : m_tree(std::move(tree)), m_prefix(std::move(prefix)), m_label(std::move(label)) {}

  Result<std::string> read_file(std::string_view abs_path) const override {
    ND_TRY_ASSIGN(std::string path, tree_path(abs_path));
    return m_tree->read(path);
  }

  Result<std::vector<DirEntry>> list_dir(std::string_view abs_path) const override {
    ND_TRY_ASSIGN(std::string path, tree_path(abs_path));
    return m_tree->list(path);
  }

  Result<std::string> command(const std::vector<std::string>& argv) const override {
    const std::string name = mangle_command(argv);
    const auto path = command_path(name);
    if (!path) {
      return make_error(
          ErrorCode::NotFound,
          fmt::format("`{}` was not captured (no sos_commands/*/{})", join(argv, " "), name),
          m_tree->display_path(under_prefix("sos_commands")));
    }
    return m_tree->read(*path);
  }

  Result<double> captured_at() const override;

  std::string describe() const override {
    return fmt::format("{} ({})", m_label, m_tree->describe());
  }

  std::string display_path(std::string_view abs_path) const override {
    auto path = tree_path(abs_path);
    return m_tree->display_path(path.ok() ? *path : under_prefix(abs_path));
  }

  std::string display_command(const std::vector<std::string>& argv) const override {
    const std::string name = mangle_command(argv);
    if (const auto path = command_path(name)) {
      return m_tree->display_path(*path);
    }
    return m_tree->display_path(under_prefix(fmt::format("sos_commands/*/{}", name)));
  }

 private:
  std::string under_prefix(std::string_view relative) const {
    if (m_prefix.empty()) {
      return std::string(relative);
    }
    return relative.empty() ? m_prefix : fmt::format("{}/{}", m_prefix, relative);
  }

  // "/sys/class/net" -> "<prefix>/sys/class/net"; ".." may not climb out of the sample.
  Result<std::string> tree_path(std::string_view abs_path) const {
    if (!starts_with(abs_path, "/")) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("expected an absolute path, got {}", abs_path),
                        std::string(abs_path));
    }
    ND_TRY_ASSIGN(std::string relative, normalise_relative(abs_path.substr(1)));
    return under_prefix(relative);
  }

  // The tree path of a captured command, from an index of sos_commands/<group>/<name> built
  // on first use: one listing per group instead of one per command.
  std::optional<std::string> command_path(const std::string& name) const {
    std::call_once(m_index_once, [this] { build_index(); });
    const auto it = m_command_index.find(name);
    if (it == m_command_index.end()) {
      return std::nullopt;
    }
    return it->second;
  }

  void build_index() const {
    const std::string root = under_prefix("sos_commands");
    auto groups = m_tree->list(root);
    if (!groups.ok()) {
      return;
    }
    for (const DirEntry& group : *groups) {
      if (group.kind != DirEntry::Kind::Dir) {
        continue;
      }
      const std::string group_path = fmt::format("{}/{}", root, group.name);
      auto files = m_tree->list(group_path);
      if (!files.ok()) {
        continue;
      }
      for (const DirEntry& file : *files) {
        // Kind::Other too (a link leaving the bundle, a FIFO): reading it then fails with an
        // error naming the file, where skipping it would pass for "not captured".
        if (file.kind != DirEntry::Kind::Dir) {
          // Groups are listed in name order; the first holding a name wins.
          m_command_index.try_emplace(file.name, fmt::format("{}/{}", group_path, file.name));
        }
      }
    }
  }

  std::shared_ptr<const FileTree> m_tree;
  std::string m_prefix;
  std::string m_label;
  mutable std::once_flag m_index_once;
  mutable std::map<std::string, std::string, std::less<>> m_command_index;
};

Result<double> TreeSample::captured_at() const {
  const std::string stamp_path = under_prefix("captured_at");
  auto stamp = m_tree->read(stamp_path);
  if (stamp.ok()) {
    // Zero or negative is no capture time (a clock never set, a sign flipped by a script):
    // rates computed from it would be nonsense.
    if (auto seconds = parse_double(trim(*stamp)); seconds && *seconds > 0.0) {
      return *seconds;
    }
    return make_error(ErrorCode::Parse,
                      fmt::format("captured_at should hold positive Unix seconds, found \"{}\"",
                                  trim(*stamp).substr(0, 40)),
                      m_tree->display_path(stamp_path));
  }
  if (stamp.error().code != ErrorCode::NotFound) {
    return stamp.error();
  }
  // An sos report: `date --utc` is unambiguous; plain `date` is in the host's zone.
  for (std::string_view file : {"sos_commands/date/date_--utc", "sos_commands/date/date"}) {
    const std::string path = under_prefix(file);
    auto text = m_tree->read(path);
    if (!text.ok()) {
      if (text.error().code == ErrorCode::NotFound) {
        continue;
      }
      return text.error();
    }
    if (auto seconds = parse_date_output(*text)) {
      return *seconds;
    }
    if (file == "sos_commands/date/date") {
      return make_error(ErrorCode::Parse,
                        fmt::format("cannot read a time with a known zone from \"{}\"",
                                    trim(*text).substr(0, 60)),
                        m_tree->display_path(path));
    }
  }
  return make_error(ErrorCode::NotFound,
                    "no capture time: neither captured_at nor sos_commands/date/date",
                    m_tree->display_path(under_prefix("")));
}

}  // namespace

std::unique_ptr<SampleSource> make_tree_sample(std::shared_ptr<const FileTree> tree,
                                               std::string prefix, std::string label) {
  auto normalised = normalise_relative(prefix);
  return std::make_unique<TreeSample>(
      std::move(tree), normalised.ok() ? std::move(normalised).value() : prefix, std::move(label));
}

}  // namespace netdoctor
