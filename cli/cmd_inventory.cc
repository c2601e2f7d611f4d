// `netdoctor inventory --bundle PATH [--format text|json]`: what the fabric model holds.
#include <memory>
#include <string>

#include "base/bundle.h"
#include "base/json_text.h"
#include "cli/command.h"
#include "model/inventory.h"
#include "model/loader.h"

namespace netdoctor::cli {
namespace {

struct InventoryArgs {
  std::string bundle;
  std::string format = "text";
};

// Loading spreads hosts over two threads: the machine budget the tool is designed for.
constexpr int k_load_threads = 2;

void run_inventory(const InventoryArgs& args, Context& context) {
  auto bundle = open_bundle(args.bundle);
  if (!bundle.ok()) {
    context.err << "netdoctor inventory: cannot open bundle " << args.bundle << ": "
                << bundle.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  model::LoadOptions options;
  options.threads = k_load_threads;
  auto fabric = model::load_fabric(*bundle, options);
  if (!fabric.ok()) {
    context.err << "netdoctor inventory: " << fabric.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  if (args.format == "json") {
    context.out << json_text(model::inventory_json(*fabric), 2) << "\n";
  } else {
    context.out << model::inventory_text(*fabric);
  }
  context.exit_code = ExitCode::Ok;  // problems are reported, not fatal
}

}  // namespace

void add_inventory_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<InventoryArgs>();
  auto* sub = app.add_subcommand("inventory", "List hosts, NICs, switches and links of a bundle");
  sub->add_option("--bundle", args->bundle, "capture bundle: directory or .tar[.gz|.xz]")
      ->required();
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->callback([args, &context] { run_inventory(*args, context); });
}

}  // namespace netdoctor::cli
