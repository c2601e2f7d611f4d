// `netdoctor plan fabric|traffic|check`: the sizing arithmetic of the source article's
// section 3 done right, and a captured fabric checked against it.
#include <filesystem>
#include <memory>
#include <string>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "base/json_text.h"
#include "cli/command.h"
#include "cli/number_checks.h"
#include "model/loader.h"
#include "plan/fabric_sizing.h"
#include "plan/plan_check.h"
#include "plan/plan_file.h"
#include "plan/render.h"
#include "plan/traffic_budget.h"

namespace netdoctor::cli {
namespace {

struct FabricArgs {
  plan::FabricInputs inputs;
  std::string oversubscription = "1:1";
  std::string spare = "20%";
  int grow_to = 0;
  std::string format = "text";
};

struct TrafficArgs {
  plan::TrafficInputs inputs;
  std::string parallelism;
  std::string format = "text";
};

struct CheckArgs {
  std::string bundle;
  std::string plan_file;
  std::string oversubscription = "1:1";
  std::string spare = "20%";
  std::string format = "text";
};

// Bad flags are usage errors (2); a design that cannot be built is a failure (1).
void report_error(Context& context, const char* what, const Error& error) {
  context.err << "netdoctor plan " << what << ": " << error.describe() << "\n";
  context.exit_code =
      error.code == ErrorCode::InvalidArgument ? ExitCode::Usage : ExitCode::Failure;
}

void run_fabric(FabricArgs args, Context& context) {
  auto ratio = plan::parse_oversubscription(args.oversubscription);
  auto spare = plan::parse_fraction(args.spare);
  if (!ratio.ok() || !spare.ok()) {
    report_error(context, "fabric", ratio.ok() ? spare.error() : ratio.error());
    return;
  }
  args.inputs.oversubscription = *ratio;
  args.inputs.spare = *spare;
  auto design = plan::size_fabric(args.inputs);
  if (!design.ok()) {
    report_error(context, "fabric", design.error());
    return;
  }
  const int next = args.grow_to > 0 ? args.grow_to : 2 * args.inputs.nodes;
  const plan::GrowthStep growth = plan::plan_growth(*design, next);
  if (args.format == "json") {
    context.out << json_text(plan::fabric_to_json(*design, growth), 2) << "\n";
  } else {
    context.out << plan::render_fabric_text(*design, growth);
  }
  context.exit_code = ExitCode::Ok;
}

void run_traffic(TrafficArgs args, Context& context) {
  auto parallelism = plan::parse_parallelism(args.parallelism);
  if (!parallelism.ok()) {
    report_error(context, "traffic", parallelism.error());
    return;
  }
  args.inputs.parallelism = *parallelism;
  auto budget = plan::budget_traffic(args.inputs);
  if (!budget.ok()) {
    report_error(context, "traffic", budget.error());
    return;
  }
  if (args.format == "json") {
    context.out << json_text(plan::traffic_to_json(*budget), 2) << "\n";
  } else {
    context.out << plan::render_traffic_text(*budget);
  }
  context.exit_code = ExitCode::Ok;
}

Result<plan::FabricDesign> load_plan(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
  ND_TRY_ASSIGN(auto tree, open_dir_tree(dir));
  ND_TRY_ASSIGN(const std::string text, tree->read(file.filename().string()));
  ND_TRY_ASSIGN(const plan::FabricInputs inputs, plan::parse_plan_file(text, path));
  return plan::size_fabric(inputs);
}

void run_check(const CheckArgs& args, Context& context) {
  plan::CheckTargets targets;
  auto ratio = plan::parse_oversubscription(args.oversubscription);
  auto spare = plan::parse_fraction(args.spare);
  if (!ratio.ok() || !spare.ok()) {
    report_error(context, "check", ratio.ok() ? spare.error() : ratio.error());
    return;
  }
  targets.oversubscription = *ratio;
  targets.spare = *spare;
  if (!args.plan_file.empty()) {
    auto design = load_plan(args.plan_file);
    if (!design.ok()) {
      context.err << "netdoctor plan check: plan " << args.plan_file << ": "
                  << design.error().describe() << "\n";
      context.exit_code =
          design.error().code == ErrorCode::InvalidArgument ? ExitCode::Usage : ExitCode::Failure;
      return;
    }
    targets.plan = std::move(design).value();
  }
  auto bundle = open_bundle(args.bundle);
  if (!bundle.ok()) {
    context.err << "netdoctor plan check: cannot open bundle " << args.bundle << ": "
                << bundle.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  auto fabric = model::load_fabric(*bundle);
  if (!fabric.ok()) {
    context.err << "netdoctor plan check: " << fabric.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  const plan::CheckReport report = plan::check_fabric(*fabric, targets);
  if (args.format == "json") {
    context.out << json_text(plan::check_to_json(report), 2) << "\n";
  } else {
    context.out << plan::render_check_text(report);
  }
  context.exit_code = ExitCode::Ok;  // findings are the result, not a failure
}

void add_fabric(CLI::App& plan_app, Context& context) {
  auto args = std::make_shared<FabricArgs>();
  auto* sub = plan_app.add_subcommand(
      "fabric", "Leaves, spines, ports, cables and optics of a two-tier leaf/spine fabric");
  plan::FabricInputs& in = args->inputs;
  sub->add_option("--nodes", in.nodes, "GPU nodes")->required()->check(positive_number());
  sub->add_option("--gpus-per-node", in.gpus_per_node, "GPUs per node")->check(positive_number());
  sub->add_option("--nic-gbps", in.nic_gbps, "speed of one RDMA NIC in Gb/s")
      ->required()
      ->check(positive_number());
  sub->add_option("--nics-per-node", in.nics_per_node, "RDMA NICs per node (default: one per GPU)")
      ->check(non_negative_number());
  sub->add_option("--leaf-ports", in.leaf_ports, "physical ports of a leaf switch")
      ->check(positive_number());
  sub->add_option("--leaf-port-gbps", in.leaf_port_gbps, "leaf port speed in Gb/s (uplinks too)")
      ->check(positive_number());
  sub->add_option("--breakout", in.breakout,
                  "downlinks per leaf port (default: leaf-port-gbps / nic-gbps)")
      ->check(non_negative_number());
  sub->add_option("--oversubscription", args->oversubscription,
                  "target downlink:uplink capacity, 1:1 or 1:3 (= 3:1)");
  sub->add_option("--spare", args->spare, "leaf ports kept free, e.g. 20%");
  sub->add_flag("--rail-optimized", in.rail_optimized,
                "NIC i of every node goes to rail leaf i of its group");
  sub->add_option("--nodes-per-leaf", in.nodes_per_leaf,
                  "nodes per leaf (per rail group); default: as many as fit")
      ->check(non_negative_number());
  sub->add_option("--spines", in.spines, "spine switches; default: fewest that fit")
      ->check(non_negative_number());
  sub->add_option("--spine-ports", in.spine_ports, "ports of a spine (default: as the leaf)")
      ->check(non_negative_number());
  sub->add_option("--grow-to", args->grow_to, "nodes of the next growth step (default: double)")
      ->check(non_negative_number());
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->callback([args, &context] { run_fabric(*args, context); });
}

void add_traffic(CLI::App& plan_app, Context& context) {
  auto args = std::make_shared<TrafficArgs>();
  auto* sub = plan_app.add_subcommand(
      "traffic", "Bytes per GPU per step for each collective and the NIC bandwidth they need");
  plan::TrafficInputs& in = args->inputs;
  sub->add_option("--params", in.params, "model parameters, e.g. 70e9")
      ->required()
      ->check(positive_number());
  sub->add_option("--dtype", in.dtype, "bf16, fp16, fp32 or fp8");
  sub->add_option("--parallelism", args->parallelism, "dp=32,tp=8,pp=1[,ep=N]")->required();
  sub->add_option("--zero", in.zero, "ZeRO stage 0-3")->check(CLI::Range(0, 3));
  sub->add_option("--tokens", in.tokens, "tokens per model replica per step")
      ->check(non_negative_number());
  sub->add_option("--hidden", in.hidden, "hidden size")->check(non_negative_number());
  sub->add_option("--layers", in.layers, "transformer layers (tensor-parallel traffic)")
      ->check(non_negative_number());
  sub->add_option("--moe-experts", in.moe_experts, "experts per MoE layer")
      ->check(non_negative_number());
  sub->add_option("--topk", in.moe_topk, "experts each token goes to")
      ->check(non_negative_number());
  sub->add_option("--moe-layers", in.moe_layers, "MoE layers")->check(non_negative_number());
  sub->add_option("--step-seconds", in.step_seconds, "time budget of one step")
      ->check(positive_number());
  sub->add_option("--nic-gbps", in.nic_gbps, "planned NIC speed in Gb/s")->check(positive_number());
  sub->add_option("--nics-per-node", in.nics_per_node, "NICs per node (default: one per GPU)")
      ->check(non_negative_number());
  sub->add_option("--gpus-per-node", in.gpus_per_node, "GPUs per node")->check(positive_number());
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->callback([args, &context] { run_traffic(*args, context); });
}

void add_check(CLI::App& plan_app, Context& context) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = plan_app.add_subcommand(
      "check", "Compare a captured fabric (LLDP, port speeds) with a plan or the default targets");
  sub->add_option("--bundle", args->bundle, "capture bundle: directory or .tar[.gz|.xz]")
      ->required();
  sub->add_option("--plan", args->plan_file, "plan file (TOML, keys as the `plan fabric` flags)");
  sub->add_option("--oversubscription", args->oversubscription,
                  "target without a plan (default 1:1)");
  sub->add_option("--spare", args->spare, "spare target without a plan (default 20%)");
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->callback([args, &context] { run_check(*args, context); });
}

}  // namespace

void add_plan_command(CLI::App& app, Context& context) {
  auto* sub =
      app.add_subcommand("plan", "Fabric sizing, traffic budget, and checking a fabric against it");
  sub->require_subcommand(1);
  add_fabric(*sub, context);
  add_traffic(*sub, context);
  add_check(*sub, context);
}

}  // namespace netdoctor::cli
