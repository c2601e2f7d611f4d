#include "plan/plan_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <limits>

namespace netdoctor::plan {
namespace {

Error invalid(std::string message, const std::string& origin) {
  return make_error(ErrorCode::InvalidArgument, std::move(message), origin);
}

std::string canonical_key(std::string_view key) {
  std::string out(key);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

Result<int> read_int(const toml::node& node, const std::string& key, const std::string& origin) {
  const auto value = node.value<std::int64_t>();
  if (!value || *value < 0 || *value > std::numeric_limits<int>::max()) {
    return invalid(fmt::format("'{}' must be a non-negative integer", key), origin);
  }
  return static_cast<int>(*value);
}

Result<double> read_number(const toml::node& node, const std::string& key,
                           const std::string& origin) {
  const auto value = node.value<double>();  // integers convert too
  if (!value) {
    return invalid(fmt::format("'{}' must be a number", key), origin);
  }
  return *value;
}

// Ratios and fractions may be written as strings ("1:3", "20%") or numbers (3, 0.2).
Result<std::string> read_text(const toml::node& node) {
  if (const auto text = node.value<std::string>()) {
    return *text;
  }
  if (const auto number = node.value<double>()) {
    return fmt::format("{:g}", *number);
  }
  return make_error(ErrorCode::InvalidArgument, "not a string or number");
}

Status apply(FabricInputs& in, const std::string& key, const toml::node& node,
             const std::string& origin) {
  if (key == "nodes") {
    ND_TRY_ASSIGN(in.nodes, read_int(node, key, origin));
  } else if (key == "gpus_per_node") {
    ND_TRY_ASSIGN(in.gpus_per_node, read_int(node, key, origin));
  } else if (key == "nic_gbps") {
    ND_TRY_ASSIGN(in.nic_gbps, read_number(node, key, origin));
  } else if (key == "nics_per_node") {
    ND_TRY_ASSIGN(in.nics_per_node, read_int(node, key, origin));
  } else if (key == "leaf_ports") {
    ND_TRY_ASSIGN(in.leaf_ports, read_int(node, key, origin));
  } else if (key == "leaf_port_gbps") {
    ND_TRY_ASSIGN(in.leaf_port_gbps, read_number(node, key, origin));
  } else if (key == "breakout") {
    ND_TRY_ASSIGN(in.breakout, read_int(node, key, origin));
  } else if (key == "nodes_per_leaf") {
    ND_TRY_ASSIGN(in.nodes_per_leaf, read_int(node, key, origin));
  } else if (key == "spines") {
    ND_TRY_ASSIGN(in.spines, read_int(node, key, origin));
  } else if (key == "spine_ports") {
    ND_TRY_ASSIGN(in.spine_ports, read_int(node, key, origin));
  } else if (key == "rail_optimized") {
    const auto value = node.value<bool>();
    if (!value) {
      return invalid("'rail_optimized' must be true or false", origin);
    }
    in.rail_optimized = *value;
  } else if (key == "oversubscription" || key == "spare") {
    const Result<std::string> text = read_text(node);
    if (!text.ok()) {
      return invalid(fmt::format("'{}' must be a string like \"1:1\" / \"20%\" or a number", key),
                     origin);
    }
    Result<double> value =
        key == "spare" ? parse_fraction(text.value()) : parse_oversubscription(text.value());
    if (!value.ok()) {
      return invalid(value.error().message, origin);
    }
    (key == "spare" ? in.spare : in.oversubscription) = value.value();
  } else {
    return invalid(fmt::format("unknown key '{}' (see plan/PLAN_FILE.md for the keys)", key),
                   origin);
  }
  return {};
}

}  // namespace

Result<FabricInputs> parse_plan_file(std::string_view text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return invalid(fmt::format("not valid TOML at line {}, column {}: {}", where.line, where.column,
                               error.description()),
                   origin);
  }
  const toml::table* table = &root;
  if (const toml::table* fabric = root["fabric"].as_table()) {
    if (root.size() != 1) {
      return invalid("put every key under [fabric], or none", origin);
    }
    table = fabric;
  }
  FabricInputs in;
  for (const auto& [key, node] : *table) {
    ND_TRY(apply(in, canonical_key(key.str()), node, origin));
  }
  if (in.nodes == 0 || in.nic_gbps <= 0) {
    return invalid("a plan needs at least 'nodes' and 'nic_gbps'", origin);
  }
  return in;
}

std::string write_plan_file(const FabricInputs& in) {
  std::string out = "# netdoctor fabric plan (keys as the `plan fabric` flags)\n";
  out += fmt::format("nodes = {}\ngpus_per_node = {}\nnic_gbps = {:g}\n", in.nodes,
                     in.gpus_per_node, in.nic_gbps);
  out += fmt::format("nics_per_node = {}\nleaf_ports = {}\nleaf_port_gbps = {:g}\n",
                     in.nics_per_node, in.leaf_ports, in.leaf_port_gbps);
  out += fmt::format("breakout = {}\noversubscription = \"{}\"\nspare = \"{:g}%\"\n", in.breakout,
                     format_ratio(in.oversubscription), in.spare * 100);
  out += fmt::format("rail_optimized = {}\nnodes_per_leaf = {}\nspines = {}\nspine_ports = {}\n",
                     in.rail_optimized, in.nodes_per_leaf, in.spines, in.spine_ports);
  return out;
}

}  // namespace netdoctor::plan
