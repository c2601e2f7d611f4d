// The live host as a SampleSource: files under a root directory (with the same containment as
// a bundle directory), commands through a CommandRunner, time from the clock.
#include <fmt/format.h>

#include <utility>

#include "base/clock.h"
#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

class LiveSample final : public SampleSource {
 public:
  LiveSample(std::string root, CommandRunner& runner, CommandOptions options, double time)
      : m_root(std::move(root)), m_runner(runner), m_options(std::move(options)), m_time(time) {
    auto tree = open_dir_tree(m_root);
    if (tree.ok()) {
      m_tree = std::move(tree).value();
    } else {
      m_open_error = tree.error();
    }
  }

  Result<std::string> read_file(std::string_view abs_path) const override {
    ND_TRY_ASSIGN(std::string path, relative(abs_path));
    if (!m_tree) {
      return m_open_error;
    }
    return m_tree->read(path);
  }

  Result<std::vector<DirEntry>> list_dir(std::string_view abs_path) const override {
    ND_TRY_ASSIGN(std::string path, relative(abs_path));
    if (!m_tree) {
      return m_open_error;
    }
    return m_tree->list(path);
  }

  // The standard output when the program ran and exited 0; a failing run is Io with its
  // standard error, so "ran and said nothing" and "could not run" stay distinct.
  Result<std::string> command(const std::vector<std::string>& argv) const override {
    ND_TRY_ASSIGN(CommandOutput output, m_runner.run(argv, m_options));
    if (output.truncated) {
      return make_error(
          ErrorCode::Refused,
          fmt::format("output over {} bytes, cut and not used", m_options.max_output_bytes),
          join(argv, " "));
    }
    if (output.exit_code != 0) {
      const std::string why = output.signal != 0
                                  ? fmt::format("killed by signal {}", output.signal)
                                  : fmt::format("exited with status {}", output.exit_code);
      const auto first_error_line = split_lines(output.err);
      return make_error(ErrorCode::Io,
                        first_error_line.empty()
                            ? why
                            : fmt::format("{}: {}", why, trim(first_error_line.front())),
                        join(argv, " "));
    }
    return std::move(output.out);
  }

  Result<double> captured_at() const override { return m_time; }

  std::string describe() const override {
    return m_root == "/" ? std::string("this host") : fmt::format("this host (root {})", m_root);
  }

  std::string display_path(std::string_view abs_path) const override {
    if (m_root == "/") {
      return std::string(abs_path);
    }
    return fmt::format("{}{}", m_root, abs_path);
  }

  std::string display_command(const std::vector<std::string>& argv) const override {
    return join(argv, " ");
  }

 private:
  static Result<std::string> relative(std::string_view abs_path) {
    if (!starts_with(abs_path, "/")) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("expected an absolute path, got {}", abs_path),
                        std::string(abs_path));
    }
    return normalise_relative(abs_path.substr(1));
  }

  std::string m_root;
  CommandRunner& m_runner;
  CommandOptions m_options;
  double m_time;
  std::unique_ptr<FileTree> m_tree;
  Error m_open_error;
};

}  // namespace

std::unique_ptr<SampleSource> make_live_sample(std::string root, CommandRunner& runner,
                                               CommandOptions options,
                                               std::optional<double> fixed_time) {
  const double time = fixed_time ? *fixed_time : SystemClock().now_unix();
  return std::make_unique<LiveSample>(std::move(root), runner, std::move(options), time);
}

}  // namespace netdoctor
