// `netdoctor parse KIND [FILE|-]`: runs one parser on a saved tool output and prints its JSON.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include "base/json_text.h"
#include "cli/command.h"
#include "parsers/registry.h"

namespace netdoctor::cli {
namespace {

struct ParseOptions {
  std::string kind;
  std::string file = "-";
};

std::string kinds_help() {
  std::string text = "Kinds:\n";
  for (const auto& kind : parsers::parser_kinds()) {
    text += "  " + std::string(kind.name);
    text.append(kind.name.size() < 27 ? 27 - kind.name.size() : 1, ' ');
    text += std::string(kind.description) + "\n";
  }
  return text;
}

// The CLI is the one place allowed to open files directly. Returns an empty string on success,
// otherwise why the file could not be read.
std::string read_input(const std::string& file, std::string& text) {
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return std::cin.bad() ? "cannot read standard input" : "";
  }
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    return "cannot read file: is a directory";
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return std::string("cannot read file: ") + std::strerror(errno);
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return "cannot read file: read error";
  }
  text = buffer.str();
  return "";
}

void run_parse(const ParseOptions& options, Context& context) {
  if (!parsers::is_parser_kind(options.kind)) {
    context.err << "netdoctor parse: unknown kind '" << options.kind << "'\n" << kinds_help();
    context.exit_code = ExitCode::Usage;
    return;
  }
  std::string text;
  if (auto problem = read_input(options.file, text); !problem.empty()) {
    context.err << "netdoctor parse: " << options.file << ": " << problem << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  auto json = parsers::parse_to_json(options.kind, text);
  if (!json.ok()) {
    context.err << "netdoctor parse: " << (options.file == "-" ? "<stdin>" : options.file)
                << ": not " << options.kind << " output: " << json.error().message << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  context.out << json_text(*json, 2) << "\n";
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_parse_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<ParseOptions>();
  auto* sub = app.add_subcommand("parse", "Parse one saved tool output and print it as JSON");
  sub->add_option("kind", options->kind, "What the text is (see the list of kinds below)")
      ->required();
  sub->add_option("file", options->file, "The file to read, or - for standard input");
  sub->footer(kinds_help());
  sub->callback([options, &context] { run_parse(*options, context); });
}

}  // namespace netdoctor::cli
