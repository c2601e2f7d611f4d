// Per-step traffic of a training job, per GPU and per collective, from the model size and
// its parallelism; the NIC bandwidth that needs within a step-time budget, and the headroom
// the planned NICs leave. Formulas are the standard ring costs and are carried in the result
// so that every figure can be checked by hand.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::plan {

// "bf16"/"fp16" -> 2, "fp32" -> 4, "fp8" -> 1.
Result<int> dtype_bytes(std::string_view dtype);

struct Parallelism {
  int dp = 1;
  int tp = 1;
  int pp = 1;
  int ep = 0;  // expert-parallel group size for MoE all-to-all; 0: dp
};
// "dp=32,tp=8,pp=1[,ep=8]" in any order; missing ones are 1.
Result<Parallelism> parse_parallelism(std::string_view text);

struct TrafficInputs {
  double params = 0;  // parameter count of the whole model
  std::string dtype = "bf16";
  Parallelism parallelism;
  int zero = 0;  // ZeRO stage 0 (plain DP all-reduce), 1, 2 or 3
  // Activations: tokens per model replica per step (micro-batches x micro-batch x sequence),
  // hidden size and layers. Needed for tensor- and pipeline-parallel traffic.
  double tokens = 0;
  int hidden = 0;
  int layers = 0;
  // Mixture of experts.
  int moe_experts = 0;
  int moe_topk = 0;
  int moe_layers = 0;
  double step_seconds = 10;
  double nic_gbps = 200;
  int nics_per_node = 0;  // 0: one per GPU
  int gpus_per_node = 8;
};

struct CollectiveTraffic {
  std::string name;     // "data-parallel gradients", "ZeRO-3 parameters and gradients", ...
  std::string pattern;  // "ring all-reduce", "all-gather x2 + reduce-scatter", "all-to-all", ...
  std::string formula;  // with the numbers put in
  int group_size = 1;
  int group_stride = 1;      // GPUs between two members of the group (placement tp, dp, pp)
  double bytes_per_gpu = 0;  // sent by each GPU per step
  bool crosses_network = false;
  std::string placement;  // why it stays on NVLink or goes through the NICs
};

struct TrafficBudget {
  TrafficInputs inputs;  // resolved
  int bytes_per_value = 2;
  int gpus = 0;
  int nodes = 0;
  double model_bytes = 0;  // params x bytes
  double shard_bytes = 0;  // what one GPU holds: model_bytes / (tp x pp)
  std::vector<CollectiveTraffic> collectives;
  std::vector<std::string> skipped;  // collectives not computed and why
  double network_bytes_per_gpu = 0;
  double nvlink_bytes_per_gpu = 0;
  double bytes_per_nic = 0;
  double needed_gbps_per_nic = 0;   // to finish within step_seconds, no overlap with compute
  double needed_gbps_fabric = 0;    // all NICs together
  double headroom = 0;              // nic_gbps / needed_gbps_per_nic; 0 when nothing is needed
  double seconds_at_line_rate = 0;  // communication time per step at full NIC speed
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};

// InvalidArgument for meaningless inputs.
Result<TrafficBudget> budget_traffic(const TrafficInputs& inputs);

// Bytes in the largest convenient decimal unit: "140 GB", "17.5 GB", "3.2 MB".
std::string format_bytes(double bytes);

}  // namespace netdoctor::plan
