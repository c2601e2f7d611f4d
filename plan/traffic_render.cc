#include <fmt/format.h>

#include "plan/render.h"

namespace netdoctor::plan {
namespace {

void list(std::string& out, const char* title, const std::vector<std::string>& items) {
  if (items.empty()) {
    return;
  }
  out += fmt::format("\n{}:\n", title);
  for (const std::string& item : items) {
    out += fmt::format("  - {}\n", item);
  }
}

}  // namespace

std::string render_traffic_text(const TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  const Parallelism& p = in.parallelism;
  std::string out;
  out += fmt::format(
      "Traffic per step: {:g}e9 parameters in {} = {}; dp={} tp={} pp={}{}, ZeRO-{}; {} GPUs on {} "
      "nodes\n",
      in.params / 1e9, in.dtype, format_bytes(b.model_bytes), p.dp, p.tp, p.pp,
      in.moe_layers > 0 ? fmt::format(" ep={}", p.ep) : "", in.zero, b.gpus, b.nodes);
  out += fmt::format("Each GPU holds S = {} (model / (tp x pp))\n", format_bytes(b.shard_bytes));
  for (const CollectiveTraffic& c : b.collectives) {
    out += fmt::format("\n{} ({})\n", c.name, c.pattern);
    out += fmt::format("  per GPU per step  {}\n", format_bytes(c.bytes_per_gpu));
    out += fmt::format("  formula           {}\n", c.formula);
    out += fmt::format("  where             {}\n", c.placement);
  }
  out += "\nBudget:\n";
  out += fmt::format("  through the NICs  {} per GPU, {} per NIC per step\n",
                     format_bytes(b.network_bytes_per_gpu), format_bytes(b.bytes_per_nic));
  out += fmt::format("  inside the node   {} per GPU per step (NVLink/PCIe)\n",
                     format_bytes(b.nvlink_bytes_per_gpu));
  if (b.needed_gbps_per_nic > 0) {
    out += fmt::format(
        "  needed per NIC    {:.1f} Gb/s to finish in {:g} s ({:.1f} Gb/s with 2x "
        "overhead)\n",
        b.needed_gbps_per_nic, in.step_seconds, 2 * b.needed_gbps_per_nic);
    out += fmt::format("  needed by fabric  {:.2f} Tb/s injected by all {} NICs\n",
                       b.needed_gbps_fabric / 1000, in.nics_per_node * b.nodes);
    out += fmt::format(
        "  headroom          {:.2f}x of a {:g} Gb/s NIC; {:.2f} s per step at line "
        "rate\n",
        b.headroom, in.nic_gbps, b.seconds_at_line_rate);
  } else {
    out += "  needed per NIC    nothing crosses the network\n";
  }
  list(out, "Not computed", b.skipped);
  list(out, "Warnings", b.warnings);
  list(out, "Assumptions", b.assumptions);
  return out;
}

nlohmann::json traffic_to_json(const TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  nlohmann::json collectives = nlohmann::json::array();
  for (const CollectiveTraffic& c : b.collectives) {
    collectives.push_back({{"name", c.name},
                           {"pattern", c.pattern},
                           {"formula", c.formula},
                           {"group_size", c.group_size},
                           {"group_stride", c.group_stride},
                           {"bytes_per_gpu", c.bytes_per_gpu},
                           {"crosses_network", c.crosses_network},
                           {"placement", c.placement}});
  }
  return {{"inputs",
           {{"params", in.params},
            {"dtype", in.dtype},
            {"dp", in.parallelism.dp},
            {"tp", in.parallelism.tp},
            {"pp", in.parallelism.pp},
            {"ep", in.parallelism.ep},
            {"zero", in.zero},
            {"tokens", in.tokens},
            {"hidden", in.hidden},
            {"layers", in.layers},
            {"moe_experts", in.moe_experts},
            {"topk", in.moe_topk},
            {"moe_layers", in.moe_layers},
            {"step_seconds", in.step_seconds},
            {"nic_gbps", in.nic_gbps},
            {"nics_per_node", in.nics_per_node},
            {"gpus_per_node", in.gpus_per_node}}},
          {"bytes_per_value", b.bytes_per_value},
          {"gpus", b.gpus},
          {"nodes", b.nodes},
          {"model_bytes", b.model_bytes},
          {"shard_bytes", b.shard_bytes},
          {"collectives", collectives},
          {"skipped", b.skipped},
          {"network_bytes_per_gpu", b.network_bytes_per_gpu},
          {"nvlink_bytes_per_gpu", b.nvlink_bytes_per_gpu},
          {"bytes_per_nic", b.bytes_per_nic},
          {"needed_gbps_per_nic", b.needed_gbps_per_nic},
          {"needed_gbps_fabric", b.needed_gbps_fabric},
          {"headroom", b.headroom},
          {"seconds_at_line_rate", b.seconds_at_line_rate},
          {"assumptions", b.assumptions},
          {"warnings", b.warnings}};
}

}  // namespace netdoctor::plan
