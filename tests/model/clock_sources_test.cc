// A host's clock comes from whichever view was captured (chronyc tracking first, then linuxptp
// logs, pmc, chronyc sources, ntpq), and says which; real outputs from the parser fixtures.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/load_mem_bundle.h"
#include "tests/model/mem_bundle.h"
#include "tests/parsers/parser_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;
using testing::parser_fixture;
using testing::read_text;
using testing::reference_file;

using testing::load_mem_bundle;

const Host& host_named(const Fabric& fabric, const std::string& name) {
  const Host* host = fabric.find_host(name);
  if (host == nullptr) {
    throw std::runtime_error("no host " + name);
  }
  return *host;
}

Fabric every_view() {
  MemBundle b;
  for (const char* host : {"tracking", "ptp", "pmc", "sources", "ntpq", "none"}) {
    b.time(host, "0", 10.0);
  }
  // chronyc tracking wins where it was captured, whatever else was.
  b.command("tracking", "0", {"chronyc", "tracking"},
            read_text(reference_file("local/chronyc_tracking_synchronised.txt")));
  b.command("tracking", "0", {"chronyc", "sources"},
            read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt")));
  b.file("ptp", "0", "/var/log/phc2sys.log", parser_fixture("clock_ptp4l_phc2sys_journal.txt"));
  b.command("pmc", "0", {"pmc", "-u", "-b", "0", "GET TIME_STATUS_NP"},
            parser_fixture("clock_pmc_-u_-b0_slave.txt"));
  b.command("sources", "0", {"chronyc", "sources"},
            read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt")));
  b.command("ntpq", "0", {"ntpq", "-pn"}, parser_fixture("clock_ntpq_-p_ntpd.txt"));
  b.command("none", "0", {"chronyc", "sources"}, "506 Cannot talk to daemon\n");
  return load_mem_bundle(b);
}

TEST(ClockSources, ChronycTrackingComesFirst) {
  const Fabric fabric = every_view();
  const ClockState& clock = host_named(fabric, "tracking").clock;
  EXPECT_EQ(clock.source, source::k_chronyc_tracking);
  EXPECT_DOUBLE_EQ(*clock.offset_s, 0.000006463);
}

TEST(ClockSources, LinuxptpLogAndPmc) {
  const Fabric fabric = every_view();
  const ClockState& ptp = host_named(fabric, "ptp").clock;
  EXPECT_EQ(ptp.source, source::k_ptp4l_log);
  ASSERT_TRUE(ptp.offset_s.has_value());
  ASSERT_TRUE(ptp.synchronised.has_value());
  const ClockState& pmc = host_named(fabric, "pmc").clock;
  EXPECT_EQ(pmc.source, source::k_pmc);
  EXPECT_DOUBLE_EQ(*pmc.offset_s, -17e-9);
  EXPECT_EQ(pmc.synchronised, true);
  EXPECT_EQ(pmc.reference, "001b21.fffe.6fa0f4");
}

TEST(ClockSources, SelectedSourceOfChronycSourcesAndNtpq) {
  const Fabric fabric = every_view();
  const ClockState& sources = host_named(fabric, "sources").clock;
  EXPECT_EQ(sources.source, source::k_chronyc_sources);
  EXPECT_DOUBLE_EQ(*sources.offset_s, 0.001181);
  EXPECT_EQ(sources.reference, "play.xtdv.gr");
  EXPECT_EQ(sources.synchronised, true);
  const ClockState& ntpq = host_named(fabric, "ntpq").clock;
  EXPECT_EQ(ntpq.source, source::k_ntpq);
  EXPECT_TRUE(ntpq.synchronised.has_value());
}

TEST(ClockSources, AnUnreadableViewIsAProblemAndGivesNoClock) {
  const Fabric fabric = every_view();
  const Host& host = host_named(fabric, "none");
  EXPECT_TRUE(host.clock.source.empty());
  EXPECT_FALSE(host.clock.offset_s.has_value());
  EXPECT_EQ(host.sources.at(source::k_chronyc_sources).availability, Availability::Malformed);
}

}  // namespace
}  // namespace netdoctor::model
