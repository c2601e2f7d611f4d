#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/terminal_stream.h"

namespace netdoctor::cli {
namespace {

std::string suggestion_for(const std::string& word) {
  std::string best;
  std::size_t best_distance = 3;  // farther than this is not a typo
  for (const auto& entry : command_table()) {
    std::size_t d = edit_distance(word, entry.name);
    if (d < best_distance) {
      best_distance = d;
      best = entry.name;
    }
  }
  return best;
}

// --config FILE and --set KEY=VALUE are read before the command line is parsed, so every
// handler starts with the settings in effect (and a bad one stops the run before any work).
// CLI11 still declares and accepts them below, anywhere on the line.
SettingSources sources_from_args(const std::vector<std::string>& args) {
  SettingSources sources = SettingSources::from_environment();
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      break;
    }
    for (const std::string_view name : {"--config", "--set"}) {
      std::string value;
      if (arg == name && i + 1 < args.size()) {
        value = args[++i];
      } else if (arg.size() > name.size() + 1 && arg.compare(0, name.size(), name) == 0 &&
                 arg[name.size()] == '=') {
        value = arg.substr(name.size() + 1);
      } else {
        continue;
      }
      if (name == "--config") {
        sources.config_file = value;
      } else {
        sources.set_values.push_back(value);
      }
      break;
    }
  }
  return sources;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // Error lines echo paths, host names and file contents: none reaches the terminal as escapes.
  const TerminalTextScope err_text(err);
  auto thresholds = builtin_threshold_specs();
  if (!thresholds.ok()) {
    err << "netdoctor: knowledge base: " << thresholds.error().describe() << "\n";
    return static_cast<int>(ExitCode::Failure);
  }
  auto settings = Settings::load(sources_from_args(args), std::move(thresholds).value());
  if (!settings.ok()) {
    err << "netdoctor: configuration: " << settings.error().describe() << "\n";
    return static_cast<int>(ExitCode::Usage);
  }
  Context context{out, err, *settings};
  CLI::App app{"netdoctor: troubleshooting RDMA (RoCE v2 and InfiniBand) training fabrics"};
  app.name("netdoctor");
  app.require_subcommand(1);
  // Subcommands inherit this: --config and --set may follow any command word.
  app.fallthrough();
  std::string config_file;
  std::vector<std::string> set_values;
  app.add_option("--config", config_file,
                 "a configuration file above the site and user files (see `netdoctor config "
                 "show`)");
  app.add_option("--set", set_values, "KEY=VALUE: one setting above every file (repeatable)")
      ->allow_extra_args(false);
  app.footer(
      "Exit status: 0 run completed (whatever the verdict), 1 failure with no result,\n"
      "2 usage error, 130 interrupted.");
  for (const auto& entry : command_table()) {
    entry.add(app, context);
  }
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    bool known = std::any_of(command_table().begin(), command_table().end(),
                             [&](const CommandEntry& e) { return args[1] == e.name; });
    if (!known) {
      err << "netdoctor: unknown command '" << args[1] << "'";
      if (auto s = suggestion_for(args[1]); !s.empty()) {
        err << "; did you mean '" << s << "'?";
      }
      err << "\nRun 'netdoctor --help' for the list of commands.\n";
      return static_cast<int>(ExitCode::Usage);
    }
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  if (!reversed.empty()) {
    reversed.pop_back();  // program name
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << "netdoctor 0.1.0\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    err << "netdoctor: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Usage);
  } catch (const std::exception& e) {
    err << "netdoctor: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Failure);
  }
  return static_cast<int>(context.exit_code);
}

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  std::vector<std::string> args(argv, argv + argc);
  return run_cli(args, out, err);
}

}  // namespace netdoctor::cli
