// `netdoctor sim`: writes a simulated capture bundle with injected faults, and beside it the
// answer a correct diagnosis must give.
//
// Output: --out X.tar.gz writes an archive whose root is the directory X/ (as the shared
// scenarios are) and the answer to X.expected.json; --out DIR writes the bundle into DIR and
// the answer to DIR.expected.json (beside the directory, never inside the bundle).
#include <memory>
#include <string>
#include <vector>

#include "base/json_text.h"
#include "base/tree_writer.h"
#include "cli/command.h"
#include "sim/simulator.h"

namespace netdoctor::cli {
namespace {

struct SimOptions {
  std::string fabric = "roce";
  std::string ib_speed = "hdr";
  std::size_t hosts = 8;
  std::size_t nics = 4;
  std::size_t hosts_per_leaf = 0;
  std::string oversubscription = "1:1";
  std::string vendors = "mlx5";
  std::string qos_tool = "auto";
  bool no_hw_counters = false;
  std::string clock_views = "chrony";
  std::string lldp_view = "json";
  std::size_t samples = 2;
  double interval = 30.0;
  std::size_t onset = 0;
  std::vector<std::string> faults;
  std::uint64_t seed = 1;
  std::string symptom;
  std::string name;
  std::string out;
};

struct OutputPlan {
  bool archive = false;
  std::string bundle_path;   // the archive file or the directory
  std::string bundle_name;   // "pfc-storm.tar.gz" or "pfc-storm"
  std::string prefix;        // root directory inside an archive
  std::string expected_dir;  // where X.expected.json goes
  std::string expected_file;
};

std::pair<std::string, std::string> split_parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    return {".", path};
  }
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

OutputPlan plan_output(std::string out) {
  while (out.size() > 1 && out.back() == '/') {
    out.pop_back();
  }
  OutputPlan plan;
  plan.bundle_path = out;
  const auto [parent, base] = split_parent(out);
  plan.expected_dir = parent;
  plan.bundle_name = base;
  if (is_tar_gz_path(out)) {
    plan.archive = true;
    const std::string stem =
        base.substr(0, base.size() - (base.size() > 7 && base.ends_with(".tar.gz") ? 7 : 4));
    plan.prefix = stem + "/";
    plan.expected_file = stem + ".expected.json";
  } else {
    plan.expected_file = base + ".expected.json";
  }
  return plan;
}

void fail(Context& context, ExitCode code, const std::string& message) {
  context.err << "netdoctor sim: " << message << "\n";
  context.exit_code = code;
}

// The options given as text: --fabric, --ib-speed, --oversubscription, and what the capture
// shows and how (--vendors, --qos-tool, --clock-views, --lldp-view).
Status read_views(const SimOptions& options, sim::SimConfig& config) {
  ND_TRY_ASSIGN(config.fabric, sim::parse_fabric_kind(options.fabric));
  ND_TRY_ASSIGN(config.ib_speed, sim::parse_ib_speed(options.ib_speed));
  ND_TRY_ASSIGN(config.oversubscription, sim::parse_oversubscription(options.oversubscription));
  ND_TRY_ASSIGN(config.vendors, sim::parse_vendors(options.vendors));
  ND_TRY_ASSIGN(config.qos_tool, sim::parse_qos_tool(options.qos_tool));
  ND_TRY_ASSIGN(config.clock_views, sim::parse_clock_views(options.clock_views));
  ND_TRY_ASSIGN(config.lldp_view, sim::parse_lldp_view(options.lldp_view));
  return {};
}

void run_sim(const SimOptions& options, Context& context) {
  sim::SimConfig config;
  config.hosts = options.hosts;
  config.nics_per_host = options.nics;
  config.hosts_per_leaf = options.hosts_per_leaf;
  config.samples = options.samples;
  config.interval_s = options.interval;
  config.onset_interval = options.onset;
  config.seed = options.seed;
  config.symptom = options.symptom;
  config.name = options.name;
  if (const Status views = read_views(options, config); !views.ok()) {
    fail(context, ExitCode::Usage, views.error().describe());
    return;
  }
  config.hw_counters = !options.no_hw_counters;
  for (const std::string& fault : options.faults) {
    config.faults.push_back(sim::parse_fault_request(fault));
  }
  if (const Status valid = sim::validate_config(config); !valid.ok()) {
    fail(context, ExitCode::Usage, valid.error().describe());
    return;
  }
  auto simulation = sim::simulate(config);
  if (!simulation.ok()) {
    // The request was well formed but cannot be done in this fabric (no such entity, ...).
    fail(context, ExitCode::Failure, simulation.error().describe());
    return;
  }
  const OutputPlan plan = plan_output(options.out);
  auto writer =
      plan.archive ? open_tar_gz_writer(plan.bundle_path, 0, 6) : open_dir_writer(plan.bundle_path);
  if (!writer.ok()) {
    fail(context, ExitCode::Failure, writer.error().describe());
    return;
  }
  auto files = sim::write_bundle(simulation.value(), *writer.value(), plan.prefix);
  if (!files.ok()) {
    fail(context, ExitCode::Failure, files.error().describe());
    return;
  }
  if (const Status finished = writer.value()->finish(); !finished.ok()) {
    fail(context, ExitCode::Failure, finished.error().describe());
    return;
  }
  const auto expected = sim::expected_entry(simulation.value(), config, plan.bundle_name);
  auto side = open_dir_writer(plan.expected_dir);
  if (!side.ok()) {
    fail(context, ExitCode::Failure, side.error().describe());
    return;
  }
  if (const Status wrote =
          side.value()->write_file(plan.expected_file, json_text(expected, 1) + "\n");
      !wrote.ok()) {
    fail(context, ExitCode::Failure, wrote.error().describe());
    return;
  }
  context.out << "wrote " << files.value() << " files to " << writer.value()->describe()
              << " (scenario " << simulation.value().name << ", symptom "
              << simulation.value().symptom << ")\n"
              << "expected diagnosis: " << plan.expected_dir << "/" << plan.expected_file << "\n";
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_sim_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<SimOptions>();
  auto* sub = app.add_subcommand(
      "sim",
      "Write a simulated capture bundle (leaf-spine RoCE or InfiniBand fat tree) with injected "
      "faults");
  sub->add_option("--fabric", options->fabric,
                  "roce (SONiC leaf-spine, default) or ib (InfiniBand fat tree: Quantum switches "
                  "seen through infiniband-diags under fabric/, ConnectX HCAs)");
  sub->add_option("--ib-speed", options->ib_speed,
                  "InfiniBand generation: hdr (QM8700 40-port, ConnectX-6 200 Gb/s, default) or "
                  "ndr (QM9700 64-port, ConnectX-7 400 Gb/s)");
  sub->add_option("--hosts", options->hosts, "Number of hosts")->required();
  sub->add_option("--nics,--nics-per-host", options->nics,
                  "RDMA NICs (InfiniBand: HCAs, at most 8) per host")
      ->required();
  sub->add_option("--hosts-per-leaf", options->hosts_per_leaf,
                  "Hosts under one leaf (default: 16 NIC ports per leaf)");
  sub->add_option("--oversubscription", options->oversubscription,
                  "Leaf downlink:uplink capacity, e.g. 1:1 (default) or 1:3");
  sub->add_option("--vendors", options->vendors,
                  "NIC vendors, assigned to hosts in turn: mlx5, bnxt (default mlx5)");
  sub->add_option("--qos-tool", options->qos_tool,
                  "QoS config captured: auto (mlnx_qos on mlx5, dcb elsewhere), mlnx_qos, dcb, "
                  "none (counters only)");
  sub->add_flag("--no-hw-counters", options->no_hw_counters,
                "Leave out sysfs hw_counters: `rdma statistic show` is the RDMA counters' only "
                "source");
  sub->add_option("--clock-views", options->clock_views,
                  "How hosts' clocks are captured, assigned in turn: chrony (chronyc tracking), "
                  "ptp (phc2sys log), pmc, chrony-sources, ntpq (default chrony)");
  sub->add_option("--lldp-view", options->lldp_view,
                  "How hosts' LLDP neighbours are captured: json (lldpcli show neighbors -f json, "
                  "default) or text (lldpcli show neighbors)");
  sub->add_option("--samples", options->samples, "Samples per machine (default 2)");
  sub->add_option("--interval", options->interval, "Seconds between samples (default 30)");
  sub->add_option("--onset", options->onset,
                  "The interval K (between samples K-1 and K, from 1) in which the faults begin; "
                  "default: before the capture");
  sub->add_option("--fault", options->faults,
                  "Fault id[:variant][@entity]; a cause id of spec/diagnosis.md or 'healthy'; at "
                  "most two (variants on InfiniBand: subnet-manager:no-sm|two-masters|stuck-ports, "
                  "link-degraded:width|speed|down, ib-congestion:not-draining|pcie)")
      ->take_all();
  sub->add_option("--seed", options->seed, "Seed: the same seed gives the same bytes");
  sub->add_option("--symptom", options->symptom,
                  "Symptom recorded in the expected answer (default: the fault's usual one)");
  sub->add_option("--name", options->name, "Scenario name (default: the fault ids)");
  sub->add_option("--out", options->out, "Output: DIR or X.tar.gz")->required();
  sub->footer(
      "The expected answer goes to X.expected.json beside X.tar.gz, or DIR.expected.json beside "
      "DIR.\nExit status: 0 written, 1 impossible request (e.g. no such entity) or write error, "
      "2 usage error.");
  sub->callback([&context, options] { run_sim(*options, context); });
}

}  // namespace netdoctor::cli
