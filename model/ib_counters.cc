#include "model/ib_counters.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/source_reading.h"

namespace netdoctor::model {
namespace {

using PortKey = std::pair<std::size_t, std::uint32_t>;  // node index, port number

// The port `number` of `node`, added in number order when no view listed it (a counter read
// from it says it exists), with an empty sample at each of `times`.
IbPort& port_at(IbNode& node, std::uint32_t number, const std::vector<double>& times) {
  auto it = std::lower_bound(node.ports.begin(), node.ports.end(), number,
                             [](const IbPort& port, std::uint32_t n) { return port.number < n; });
  if (it != node.ports.end() && it->number == number) {
    return *it;
  }
  IbPort added;
  added.number = number;
  added.samples.resize(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    added.samples[i].captured_at = times[i];
  }
  added.lid = node.kind == IbNodeKind::Ca ? std::nullopt : node.lid;
  added.guid = node.kind == IbNodeKind::Ca ? 0 : node.guid;
  return *node.ports.insert(it, std::move(added));
}

// One counter into the port's sample: its value, or its saturation.
void put(const CounterMap& map, std::string_view name, std::uint64_t value, bool saturated,
         std::size_t sample, IbPort& port) {
  const CounterMapping* mapping = map.find(name);
  if (mapping == nullptr || sample >= port.samples.size()) {
    return;
  }
  auto& values = port.samples[sample].values;
  if (saturated) {
    values.erase(mapping->key);
    port.saturated.try_emplace(mapping->key.name, sample);
    return;
  }
  values.insert_or_assign(mapping->key, static_cast<double>(value) * mapping->scale);
}

std::optional<std::uint32_t> port_number(std::string_view text) {
  auto number = parse_u64(text);
  if (!number || *number == 0 || *number > 0xffff) {
    return std::nullopt;  // "ALL" (a switch's sum over its ports) and port 0 are no cable's
  }
  return static_cast<std::uint32_t>(*number);
}

// What one sample's perfquery files read: the ports, and which of their metrics an extended
// (64-bit) block gave, so that a plain block of another file does not overwrite them.
struct PerfqueryRead {
  std::set<PortKey> ports;
  std::set<std::pair<PortKey, std::string>> extended;
};

// One pass over a file's readings: the extended counters, or (second pass) the plain ones
// where no extended block of any file gave the metric.
void apply_perfquery(const parsers::Perfquery& perf, bool extended_pass, std::size_t sample,
                     const CounterMap& map, const IbIndexes& index, std::vector<IbNode>& nodes,
                     PerfqueryRead& read) {
  for (const auto& reading : perf.ports) {
    auto number = port_number(reading.port);
    if (!reading.lid || !number) {
      continue;
    }
    auto target = index.by_lid.find(*reading.lid);
    if (target == index.by_lid.end()) {
      continue;
    }
    const PortKey key{target->second.node, *number};
    IbNode& node = nodes[key.first];
    IbPort& port = port_at(node, *number, index.times);
    for (const auto& counter : reading.counters) {
      const CounterMapping* mapping = map.find(counter.name);
      if (!counter.value || mapping == nullptr || counter.extended != extended_pass) {
        continue;
      }
      if (extended_pass) {
        read.extended.emplace(key, mapping->key.name);
      } else if (read.extended.count({key, mapping->key.name}) > 0) {
        continue;
      }
      put(map, counter.name, *counter.value, counter.saturated, sample, port);
    }
    record_source(node.sources, source::k_perfquery, Availability::Observed);
    read.ports.insert(key);
  }
}

// The node of an ibqueryerrors port: by its GUID (an HCA port's, or a switch's port 0 GUID).
std::optional<std::size_t> error_node(const parsers::IbErrorNode& found,
                                      const parsers::IbErrorPort& port, const IbIndexes& index) {
  for (auto guid : {std::optional<std::uint64_t>(port.guid), found.guid}) {
    if (!guid) {
      continue;
    }
    if (auto it = index.by_port_guid.find(*guid); it != index.by_port_guid.end()) {
      return it->second.node;
    }
  }
  return std::nullopt;
}

void apply_errors(const parsers::IbQueryErrors& errors, std::size_t sample, const CounterMap& map,
                  const IbIndexes& index, std::vector<IbNode>& nodes,
                  const std::set<PortKey>& read) {
  for (const auto& found : errors.nodes) {
    for (const auto& reported : found.ports) {
      if (!reported.port_number || *reported.port_number == 0) {
        continue;
      }
      auto at = error_node(found, reported, index);
      if (!at || read.count({*at, *reported.port_number}) > 0) {
        continue;  // unknown, or perfquery read it: its full reading wins
      }
      IbNode& node = nodes[*at];
      IbPort& port = port_at(node, *reported.port_number, index.times);
      for (const auto& counter : reported.counters) {
        put(map, counter.name, counter.value, counter.saturated, sample, port);
      }
      record_source(node.sources, source::k_ibqueryerrors, Availability::Observed);
    }
  }
}

}  // namespace

void apply_ib_counters(const IbSampleViews& views, std::size_t sample, const CounterMap& map,
                       const IbIndexes& index, std::vector<IbNode>& nodes) {
  PerfqueryRead read;
  for (bool extended : {true, false}) {
    for (const auto& perf : views.perfquery) {
      apply_perfquery(perf, extended, sample, map, index, nodes, read);
    }
  }
  if (views.errors) {
    apply_errors(*views.errors, sample, map, index, nodes, read.ports);
  }
}

}  // namespace netdoctor::model
