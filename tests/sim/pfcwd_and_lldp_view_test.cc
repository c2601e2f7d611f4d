// The simulator's SONiC PFC watchdog (show pfcwd stats / config) and its LLDP text view: a
// healthy fabric's watchdog detects nothing; pfc-storm marks the port facing the storming NIC;
// a text-only LLDP capture cables the fabric as the JSON one does.
#include <gtest/gtest.h>

#include "model/source_names.h"
#include "parsers/sonic_pfcwd_stats.h"
#include "sim_test_support.h"

namespace netdoctor::sim::testing {
namespace {

parsers::SonicPfcwd pfcwd_of(const Bundle& bundle, const std::string& sw, std::size_t k,
                             const std::string& command) {
  auto parsed = parsers::parse_sonic_pfcwd_stats(
      bundle.file("switches/" + sw + "/" + bundle.sample(k) + "/sos_commands/sonic/" + command));
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().describe());
  return parsed.ok() ? std::move(parsed).value() : parsers::SonicPfcwd{};
}

TEST(SimPfcwd, HealthyFabricWatchesEveryPortsRoceQueueAndDetectsNothing) {
  const Bundle bundle = run(config_for(6, 2, {}, 13));
  for (const Switch& sw : bundle.simulation.fabric.switches) {
    const auto stats = pfcwd_of(bundle, sw.name, 1, "show_pfcwd_stats");
    ASSERT_EQ(stats.queues.size(), 2 * sw.ports.size()) << sw.name;  // queues 3 and 4
    for (const auto& q : stats.queues) {
      EXPECT_EQ(q.status, "operational") << q.queue;
      EXPECT_EQ(q.storms_detected, 0u) << q.queue;
      EXPECT_EQ(q.tx_drop, 0u) << q.queue;
    }
    EXPECT_NE(stats.find_queue(sw.ports[0].name + ":3"), nullptr);
    const auto config = pfcwd_of(bundle, sw.name, 1, "show_pfcwd_config");
    ASSERT_EQ(config.ports.size(), sw.ports.size());
    EXPECT_EQ(config.ports[0].action, "drop");
    EXPECT_EQ(config.ports[0].detection_time_ms, 200u);
    EXPECT_EQ(config.polling_interval_ms, 200u);
  }
  const model::Fabric model = load_model(bundle);
  EXPECT_EQ(model.switches.at(0).sources.at(model::source::k_show_pfcwd).availability,
            model::Availability::Observed);
  EXPECT_TRUE(model.switches.at(0).ports.at(0).pfcwd.watches(3));
}

TEST(SimPfcwd, PfcStormMarksOnlyThePortFacingTheOriginStormedWithGrowingStorms) {
  const Bundle bundle = run(config_for(8, 4, {"pfc-storm"}, 21));
  const std::string port = bundle.simulation.faults.at(0).culprits.at(2);  // port:leaf/EthernetN
  const std::string leaf = port.substr(5, port.find('/') - 5);
  const std::string port_name = port.substr(port.find('/') + 1);
  const auto before = pfcwd_of(bundle, leaf, 0, "show_pfcwd_stats");
  const auto after = pfcwd_of(bundle, leaf, 1, "show_pfcwd_stats");
  const auto* q0 = before.find_queue(port_name + ":3");
  const auto* q1 = after.find_queue(port_name + ":3");
  ASSERT_NE(q0, nullptr);
  ASSERT_NE(q1, nullptr);
  EXPECT_TRUE(q1->stormed);
  ASSERT_TRUE(q0->storms_detected && q1->storms_detected && q1->storms_restored);
  EXPECT_GT(*q1->storms_detected, *q0->storms_detected);
  EXPECT_EQ(*q1->storms_restored + 1, *q1->storms_detected);
  EXPECT_GT(q1->tx_drop.value_or(0), q0->tx_drop.value_or(0));
  // The other lossless queue of that port, and every other port, saw no storm.
  for (const auto& q : after.queues) {
    if (q.queue != port_name + ":3") {
      EXPECT_EQ(q.storms_detected, 0u) << q.queue;
      EXPECT_FALSE(q.stormed) << q.queue;
    }
  }
  for (const Switch& sw : bundle.simulation.fabric.switches) {
    if (sw.name != leaf) {
      for (const auto& q : pfcwd_of(bundle, sw.name, 1, "show_pfcwd_stats").queues) {
        EXPECT_EQ(q.storms_detected, 0u) << sw.name << " " << q.queue;
      }
    }
  }
}

// Each NIC's cabling as the model has it.
std::vector<std::string> cabling(const model::Fabric& fabric) {
  std::vector<std::string> out;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      out.push_back(nic.nic_entity() + " -> " + nic.port_entity());
    }
  }
  return out;
}

TEST(SimLldpView, TextOnlyCaptureIsCabledLikeTheJsonOne) {
  SimConfig config = config_for(6, 2, {"pfc-storm"}, 17);
  const Bundle json = run(config);
  config.lldp_view = LldpView::Text;
  const Bundle text = run(config);
  const std::string host = text.simulation.fabric.hosts.at(0).name;
  const std::string dir = "hosts/" + host + "/" + text.sample(0) + "/sos_commands/lldp/";
  EXPECT_EQ(text.files.count(dir + "lldpcli_show_neighbors"), 1u);
  EXPECT_EQ(text.files.count(dir + "lldpcli_show_neighbors_-f_json"), 0u);
  EXPECT_EQ(json.files.count(dir + "lldpcli_show_neighbors"), 0u);
  const auto from_json = cabling(load_model(json));
  ASSERT_EQ(from_json.size(), 12u);
  EXPECT_EQ(from_json.front().find(" -> port:"), from_json.front().find(" -> "));
  const model::Fabric from_text = load_model(text);
  EXPECT_EQ(cabling(from_text), from_json);
  // The host's own LLDP was read (the switches' LLDP tables alone would cable it too).
  for (const auto& h : from_text.hosts) {
    for (const auto& nic : h.nics) {
      EXPECT_EQ(nic.sources.at(model::source::k_lldpcli).availability,
                model::Availability::Observed)
          << nic.nic_entity();
    }
  }
}

TEST(SimLldpView, ParsesTheViewNames) {
  EXPECT_EQ(parse_lldp_view("text").value(), LldpView::Text);
  EXPECT_EQ(parse_lldp_view(" JSON ").value(), LldpView::Json);
  EXPECT_FALSE(parse_lldp_view("xml").ok());
}

}  // namespace
}  // namespace netdoctor::sim::testing
