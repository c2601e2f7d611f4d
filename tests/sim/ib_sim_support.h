// Helpers for the InfiniBand simulator tests: run an IB simulation into memory and read the
// fabric views back with the real parsers (parsers/ib*), the way the loader will.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "parsers/iblinkinfo.h"
#include "parsers/ibnetdiscover.h"
#include "parsers/ibnodes.h"
#include "parsers/perfquery.h"
#include "parsers/sminfo.h"
#include "sim_test_support.h"

namespace netdoctor::sim::testing {

inline SimConfig ib_config(std::size_t hosts, std::size_t nics, std::vector<std::string> faults,
                           std::uint64_t seed = 7, IbSpeed speed = IbSpeed::Hdr) {
  SimConfig config = config_for(hosts, nics, std::move(faults), seed);
  config.fabric = FabricKind::Ib;
  config.ib_speed = speed;
  return config;
}

inline std::string fabric_file(const Bundle& bundle, std::size_t k, const std::string& name) {
  return bundle.file("fabric/" + bundle.sample(k) + "/sos_commands/infiniband/" + name);
}

inline double fabric_time(const Bundle& bundle, std::size_t k) {
  return parse_double(trim(bundle.file("fabric/" + bundle.sample(k) + "/captured_at")))
      .value_or(0.0);
}

// LID of every switch by its name (leaf-01), from ibswitches.
inline std::map<std::string, std::uint32_t> switch_lids(const Bundle& bundle) {
  std::map<std::string, std::uint32_t> lids;
  auto nodes = parsers::parse_ibnodes(fabric_file(bundle, 0, "ibswitches"));
  EXPECT_TRUE(nodes.ok());
  for (const parsers::IbNode& node : nodes.value().nodes) {
    std::string name = node.description.substr(4);  // "MF0;leaf-01:MQM8700/U1"
    name.resize(name.find(':'));
    lids[name] = node.lid.value_or(0);
  }
  return lids;
}

// A node's PMA counters per fabric sample, parsed once (-x and plain merged, as the parser
// merges them).
class FabricCounters {
 public:
  explicit FabricCounters(const Bundle& bundle) : m_bundle(bundle) {}

  // nullopt when absent or saturated.
  std::optional<std::uint64_t> value(std::size_t k, std::uint32_t lid, int port,
                                     const std::string& name) {
    const parsers::Perfquery& perf = parsed(k, lid);
    const parsers::PerfqueryPort* p = perf.find_port(lid, std::to_string(port));
    const parsers::PerfCounter* c = p == nullptr ? nullptr : p->find(name);
    if (c == nullptr || c->saturated || !c->value) {
      return std::nullopt;
    }
    return c->value;
  }

  // Per-second rate between fabric samples 0 and 1; -1 when it cannot be told.
  double rate(std::uint32_t lid, int port, const std::string& name) {
    const auto a = value(0, lid, port, name);
    const auto b = value(1, lid, port, name);
    if (!a || !b) {
      return -1.0;
    }
    const double dt = fabric_time(m_bundle, 1) - fabric_time(m_bundle, 0);
    return (static_cast<double>(*b) - static_cast<double>(*a)) / dt;
  }

 private:
  const parsers::Perfquery& parsed(std::size_t k, std::uint32_t lid) {
    const auto key = std::make_pair(k, lid);
    auto it = m_cache.find(key);
    if (it == m_cache.end()) {
      const std::string id = std::to_string(lid);
      std::string text = fabric_file(m_bundle, k, "perfquery_-x_-l_" + id);
      const auto plain = m_bundle.files.find("fabric/" + m_bundle.sample(k) +
                                             "/sos_commands/infiniband/perfquery_-l_" + id);
      if (plain != m_bundle.files.end()) {
        text += plain->second;
      }
      auto perf = parsers::parse_perfquery(text);
      EXPECT_TRUE(perf.ok()) << id;
      it = m_cache.emplace(key, perf.ok() ? std::move(perf).value() : parsers::Perfquery{}).first;
    }
    return it->second;
  }

  const Bundle& m_bundle;
  std::map<std::pair<std::size_t, std::uint32_t>, parsers::Perfquery> m_cache;
};

// "port:leaf-02/7" -> {"leaf-02", 7}.
inline std::pair<std::string, int> split_port(const std::string& entity) {
  const std::string rest = entity.substr(entity.find(':') + 1);
  const size_t slash = rest.find('/');
  return {rest.substr(0, slash), std::stoi(rest.substr(slash + 1))};
}

}  // namespace netdoctor::sim::testing
