#include "plan/traffic_budget.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "base/strings.h"

namespace netdoctor::plan {
namespace {

Error invalid(std::string message) {
  return make_error(ErrorCode::InvalidArgument, std::move(message));
}

// 70e9 -> "70e9": parameter counts as people write them.
std::string format_count(double value) {
  return value >= 1e9 ? fmt::format("{:g}e9", value / 1e9) : fmt::format("{:g}", value);
}

// "(n-1)/n" written with the numbers in.
std::string ring_fraction(int n) {
  return fmt::format("{}/{}", n - 1, n);
}
double ring(int n) {
  return static_cast<double>(n - 1) / n;
}

Status validate(const TrafficInputs& in) {
  const Parallelism& p = in.parallelism;
  if (!(in.params > 0)) {
    return invalid("--params must be a positive parameter count, e.g. 70e9");
  }
  if (p.dp < 1 || p.tp < 1 || p.pp < 1 || p.ep < 0) {
    return invalid("--parallelism sizes must be at least 1");
  }
  if (in.zero < 0 || in.zero > 3) {
    return invalid("--zero must be 0, 1, 2 or 3");
  }
  if (in.tokens < 0 || in.hidden < 0 || in.layers < 0 || in.moe_experts < 0 || in.moe_topk < 0 ||
      in.moe_layers < 0) {
    return invalid("token, hidden, layer and expert counts cannot be negative");
  }
  if (in.moe_topk > 0 && in.moe_experts > 0 && in.moe_topk > in.moe_experts) {
    return invalid("--topk cannot exceed --moe-experts");
  }
  if (!(in.step_seconds > 0) || !(in.nic_gbps > 0) || in.gpus_per_node < 1 ||
      in.nics_per_node < 0) {
    return invalid("--step-seconds, --nic-gbps and --gpus-per-node must be positive");
  }
  return {};
}

// A group of n ranks, `stride` GPUs apart, stays inside one node when it spans no more GPUs
// than a node has (Megatron-style placement: tp innermost, then dp, then pp).
void place(CollectiveTraffic& c, int gpus_per_node, const char* what) {
  const int span = c.group_size * c.group_stride;
  c.crosses_network = c.group_size > 1 && span > gpus_per_node;
  c.placement = c.crosses_network
                    ? fmt::format(
                          "{} group of {} ranks {} GPU(s) apart spans {} GPUs > {} per "
                          "node: through the NICs",
                          what, c.group_size, c.group_stride, span, gpus_per_node)
                    : fmt::format(
                          "{} group of {} ranks {} GPU(s) apart spans {} GPUs <= {} per "
                          "node: inside the node (NVLink/PCIe)",
                          what, c.group_size, c.group_stride, span, gpus_per_node);
}

void add_data_parallel(TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  const int n = in.parallelism.dp;
  if (n < 2) {
    b.skipped.push_back("data parallel: dp=1, no gradient synchronisation");
    return;
  }
  CollectiveTraffic c;
  c.group_size = n;
  c.group_stride = in.parallelism.tp;
  const std::string s = format_bytes(b.shard_bytes);
  if (in.zero == 3) {
    c.name = "ZeRO-3 parameters and gradients";
    c.pattern = "all-gather (forward) + all-gather (backward) + reduce-scatter (gradients)";
    c.bytes_per_gpu = 3 * ring(n) * b.shard_bytes;
    c.formula = fmt::format("3 x (n-1)/n x S = 3 x {} x {}", ring_fraction(n), s);
  } else if (in.zero >= 1) {
    c.name = fmt::format("ZeRO-{} gradients and parameters", in.zero);
    c.pattern = "reduce-scatter (gradients) + all-gather (parameters)";
    c.bytes_per_gpu = 2 * ring(n) * b.shard_bytes;
    c.formula = fmt::format("2 x (n-1)/n x S = 2 x {} x {}", ring_fraction(n), s);
  } else {
    c.name = "data-parallel gradients";
    c.pattern = "ring all-reduce";
    c.bytes_per_gpu = 2 * ring(n) * b.shard_bytes;
    c.formula = fmt::format("2 x (n-1)/n x S = 2 x {} x {}", ring_fraction(n), s);
  }
  place(c, in.gpus_per_node, "data-parallel");
  b.collectives.push_back(std::move(c));
}

void add_tensor_parallel(TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  const int n = in.parallelism.tp;
  if (n < 2) {
    return;
  }
  if (in.tokens <= 0 || in.hidden <= 0 || in.layers <= 0) {
    b.skipped.push_back(
        "tensor parallel: give --tokens, --hidden and --layers to size its activation "
        "all-reduces");
    return;
  }
  CollectiveTraffic c;
  c.name = "tensor-parallel activations";
  c.pattern = "ring all-reduce, 4 per layer (2 forward, 2 backward)";
  c.group_size = n;
  c.group_stride = 1;
  const double activation = in.tokens * in.hidden * b.bytes_per_value;
  c.bytes_per_gpu = in.layers * 4 * 2 * ring(n) * activation;
  c.formula = fmt::format(
      "layers x 4 x 2 x (n-1)/n x tokens x hidden x bytes = {} x 4 x 2 x {} x {:g} x {} x {}",
      in.layers, ring_fraction(n), in.tokens, in.hidden, b.bytes_per_value);
  place(c, in.gpus_per_node, "tensor-parallel");
  b.collectives.push_back(std::move(c));
}

void add_pipeline(TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  const int n = in.parallelism.pp;
  if (n < 2) {
    return;
  }
  if (in.tokens <= 0 || in.hidden <= 0) {
    b.skipped.push_back("pipeline parallel: give --tokens and --hidden to size its activations");
    return;
  }
  CollectiveTraffic c;
  c.name = "pipeline activations";
  c.pattern = "point-to-point at each stage boundary: activations forward, gradients back";
  c.group_size = n;
  c.group_stride = in.parallelism.tp * in.parallelism.dp;
  c.bytes_per_gpu = 2 * in.tokens * in.hidden * b.bytes_per_value;
  c.formula = fmt::format("2 x tokens x hidden x bytes = 2 x {:g} x {} x {}", in.tokens, in.hidden,
                          b.bytes_per_value);
  place(c, in.gpus_per_node, "pipeline");
  b.collectives.push_back(std::move(c));
}

void add_moe(TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  if (in.moe_experts == 0 && in.moe_topk == 0 && in.moe_layers == 0) {
    return;
  }
  if (in.moe_topk <= 0 || in.tokens <= 0 || in.hidden <= 0 || in.moe_layers <= 0) {
    b.skipped.push_back(
        "MoE all-to-all: give --topk, --tokens, --hidden and --moe-layers to size it");
    return;
  }
  const int n = in.parallelism.ep;
  CollectiveTraffic c;
  c.name = "MoE expert all-to-all";
  c.pattern = "all-to-all, dispatch + combine, forward and backward";
  c.group_size = n;
  c.group_stride = in.parallelism.tp;
  c.bytes_per_gpu =
      in.moe_layers * 2 * 2 * in.tokens * in.moe_topk * in.hidden * b.bytes_per_value * ring(n);
  c.formula = fmt::format(
      "moe_layers x 2 (dispatch+combine) x 2 (forward+backward) x tokens x topk x hidden x "
      "bytes x (n-1)/n = {} x 2 x 2 x {:g} x {} x {} x {} x {}",
      in.moe_layers, in.tokens, in.moe_topk, in.hidden, b.bytes_per_value, ring_fraction(n));
  if (n < 2) {
    b.skipped.push_back("MoE all-to-all: expert-parallel group of 1, nothing to exchange");
    return;
  }
  place(c, in.gpus_per_node, "expert-parallel");
  b.collectives.push_back(std::move(c));
}

void describe(TrafficBudget& b) {
  const TrafficInputs& in = b.inputs;
  const Parallelism& p = in.parallelism;
  b.assumptions.push_back(fmt::format(
      "model {} parameters x {} bytes ({}) = {}; each GPU holds S = model / (tp x pp) = {}",
      format_count(in.params), b.bytes_per_value, in.dtype, format_bytes(b.model_bytes),
      format_bytes(b.shard_bytes)));
  b.assumptions.push_back(
      "gradients travel in the parameter dtype (reducing in fp32 doubles the gradient bytes)");
  b.assumptions.push_back(
      "ring cost per GPU: all-reduce 2(n-1)/n x size; reduce-scatter and all-gather (n-1)/n x "
      "size each; all-to-all (n-1)/n of what each GPU holds (a tree all-reduce moves the same "
      "bytes with fewer latency steps)");
  b.assumptions.push_back(fmt::format(
      "placement: tp innermost, then dp, then pp; {} GPUs = dp {} x tp {} x pp {} on {} nodes of "
      "{} GPUs",
      b.gpus, p.dp, p.tp, p.pp, b.nodes, in.gpus_per_node));
  b.assumptions.push_back(fmt::format(
      "traffic that crosses nodes leaves through the GPU's own NIC ({} NICs per node of {} "
      "Gb/s); NCCL's NVLink hops inside a node are not subtracted, so this is an upper bound",
      in.nics_per_node, in.nic_gbps));
  b.assumptions.push_back(fmt::format(
      "the step budget is {:g} s of pure communication, no overlap with compute", in.step_seconds));
  if (!b.collectives.empty() && in.moe_layers > 0) {
    b.assumptions.push_back(
        "MoE: every parameter, experts included, is counted in the data-parallel gradient "
        "traffic as if replicated; sharding experts over the expert-parallel group lowers it");
  }
  if (p.tp > in.gpus_per_node) {
    b.warnings.push_back(
        fmt::format("tp={} is larger than a node ({} GPUs): tensor-parallel all-reduces, the most "
                    "latency-sensitive traffic, go through the NICs; keep tp <= gpus per node",
                    p.tp, in.gpus_per_node));
  }
  if (b.needed_gbps_per_nic > 0 && b.headroom < 1.0) {
    b.warnings.push_back(fmt::format(
        "a {} Gb/s NIC cannot move one step's traffic ({} per NIC) in {:g} s: it needs {:.0f} "
        "Gb/s; communication takes {:.1f} s per step at line rate",
        in.nic_gbps, format_bytes(b.bytes_per_nic), in.step_seconds, b.needed_gbps_per_nic,
        b.seconds_at_line_rate));
  } else if (b.needed_gbps_per_nic > 0 && b.headroom < 2.0) {
    b.warnings.push_back(fmt::format(
        "headroom {:.2f}x is below 2x: protocol headers, retransmission and congestion control "
        "need about double the raw figure",
        b.headroom));
  }
}

}  // namespace

Result<int> dtype_bytes(std::string_view dtype) {
  const std::string name = to_lower(trim(dtype));
  if (name == "bf16" || name == "fp16" || name == "float16" || name == "bfloat16") {
    return 2;
  }
  if (name == "fp32" || name == "float32" || name == "tf32") {
    return 4;
  }
  if (name == "fp8" || name == "int8") {
    return 1;
  }
  return invalid(fmt::format("unknown dtype '{}': use bf16, fp16, fp32 or fp8", dtype));
}

Result<Parallelism> parse_parallelism(std::string_view text) {
  Parallelism p;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    if (item.empty()) {
      continue;
    }
    const auto kv = split(item, '=');
    const auto value = kv.size() == 2 ? parse_i64(kv[1]) : std::nullopt;
    if (!value || *value < 1 || *value > 1'000'000) {
      return invalid(fmt::format("'{}' in --parallelism is not name=size (dp=32,tp=8,pp=1)", item));
    }
    const std::string key = to_lower(trim(kv[0]));
    const int size = static_cast<int>(*value);
    if (key == "dp") {
      p.dp = size;
    } else if (key == "tp") {
      p.tp = size;
    } else if (key == "pp") {
      p.pp = size;
    } else if (key == "ep") {
      p.ep = size;
    } else {
      return invalid(fmt::format("unknown parallelism '{}': use dp, tp, pp or ep", kv[0]));
    }
  }
  return p;
}

std::string format_bytes(double bytes) {
  static constexpr std::array<const char*, 5> k_units = {"B", "kB", "MB", "GB", "TB"};
  size_t unit = 0;
  while (std::abs(bytes) >= 1000.0 && unit + 1 < k_units.size()) {
    bytes /= 1000.0;
    ++unit;
  }
  return fmt::format("{:.4g} {}", bytes, k_units[unit]);
}

Result<TrafficBudget> budget_traffic(const TrafficInputs& raw) {
  ND_TRY(validate(raw));
  TrafficBudget b;
  b.inputs = raw;
  TrafficInputs& in = b.inputs;
  ND_TRY_ASSIGN(b.bytes_per_value, dtype_bytes(in.dtype));
  if (in.nics_per_node == 0) {
    in.nics_per_node = in.gpus_per_node;
  }
  if (in.parallelism.ep == 0) {
    in.parallelism.ep = in.parallelism.dp;
  }
  const Parallelism& p = in.parallelism;
  b.gpus = p.dp * p.tp * p.pp;
  b.nodes = (b.gpus + in.gpus_per_node - 1) / in.gpus_per_node;
  b.model_bytes = in.params * b.bytes_per_value;
  b.shard_bytes = b.model_bytes / (p.tp * p.pp);

  add_data_parallel(b);
  add_tensor_parallel(b);
  add_pipeline(b);
  add_moe(b);

  for (const CollectiveTraffic& c : b.collectives) {
    (c.crosses_network ? b.network_bytes_per_gpu : b.nvlink_bytes_per_gpu) += c.bytes_per_gpu;
  }
  const int gpus_on_a_node = std::min(in.gpus_per_node, b.gpus);
  b.bytes_per_nic = b.network_bytes_per_gpu * gpus_on_a_node / in.nics_per_node;
  b.needed_gbps_per_nic = b.bytes_per_nic * 8 / 1e9 / in.step_seconds;
  b.needed_gbps_fabric = b.needed_gbps_per_nic * in.nics_per_node * b.nodes;
  b.headroom = b.needed_gbps_per_nic > 0 ? in.nic_gbps / b.needed_gbps_per_nic : 0;
  b.seconds_at_line_rate = b.bytes_per_nic * 8 / 1e9 / in.nic_gbps;
  describe(b);
  return b;
}

}  // namespace netdoctor::plan
