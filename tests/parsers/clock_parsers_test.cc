// chronyc sources, ntpq -p, pmc, ptp4l/phc2sys logs, and the helpers they share. Every record
// gives its offset in seconds with positive = the local clock ahead of its reference.
#include <gtest/gtest.h>

#include <string>

#include "parsers/chronyc_sources.h"
#include "parsers/clock_common.h"
#include "parsers/ntpq.h"
#include "parsers/pmc.h"
#include "parsers/ptp4l_log.h"
#include "parsers/registry.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(ClockCommonTest, UnitsAgesAndReach) {
  EXPECT_DOUBLE_EQ(*suffixed_seconds("+1181us"), 0.001181);
  EXPECT_DOUBLE_EQ(*suffixed_seconds("-12ns"), -12e-9);
  EXPECT_DOUBLE_EQ(*suffixed_seconds(" 34ms"), 0.034);
  EXPECT_DOUBLE_EQ(*suffixed_seconds("+12s"), 12.0);
  EXPECT_FALSE(suffixed_seconds("1181").has_value());
  EXPECT_FALSE(suffixed_seconds("us").has_value());
  EXPECT_DOUBLE_EQ(*seconds_from("-0.1837", TimeUnit::Milliseconds), -0.0001837);
  EXPECT_FALSE(seconds_from("12 34", TimeUnit::Nanoseconds).has_value());
  EXPECT_DOUBLE_EQ(*age_seconds("26"), 26.0);
  EXPECT_DOUBLE_EQ(*age_seconds("4m"), 240.0);
  EXPECT_DOUBLE_EQ(*age_seconds("5d"), 432000.0);
  EXPECT_FALSE(age_seconds("-").has_value());
  EXPECT_EQ(reach_from_octal("377"), 255u);
  EXPECT_EQ(reach_from_octal("47"), 39u);
  EXPECT_EQ(reach_from_octal("0"), 0u);
  EXPECT_FALSE(reach_from_octal("378").has_value());
  EXPECT_FALSE(reach_from_octal("777").has_value());
  EXPECT_FALSE(reach_from_octal("1234").has_value());
}

TEST(ChronycSourcesTest, Rhel9ReferenceSelectedSourceAndOctalReach) {
  auto s =
      parse_chronyc_sources(read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt")));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->sources.size(), 2u);
  const auto& first = s->sources[0];
  EXPECT_EQ(first.mode, '^');
  EXPECT_EQ(first.mode_word, "server");
  EXPECT_EQ(first.state, '*');
  EXPECT_EQ(first.state_word, "selected");
  EXPECT_EQ(first.name, "play.xtdv.gr");
  EXPECT_EQ(first.stratum, 2u);
  EXPECT_EQ(first.poll_log2, 6);
  EXPECT_EQ(first.reach_octal, "47");
  EXPECT_EQ(first.reach, 39u);  // octal 47: a restart, not all 8 polls yet
  EXPECT_EQ(first.last_rx, "26");
  EXPECT_DOUBLE_EQ(*first.last_rx_s, 26.0);
  EXPECT_DOUBLE_EQ(*first.adjusted_offset_s, 0.001181);
  EXPECT_DOUBLE_EQ(*first.measured_offset_s, 0.001072);
  EXPECT_DOUBLE_EQ(*first.error_s, 0.034);
  EXPECT_EQ(first.last_sample, "+1181us[+1072us] +/-   34ms");
  const auto& second = s->sources[1];
  EXPECT_EQ(second.name, "115.165.161.155");
  EXPECT_EQ(second.state_word, "not_combined");
  EXPECT_EQ(second.reach, 51u);  // octal 63
  EXPECT_DOUBLE_EQ(*second.error_s, 0.032);
  EXPECT_FALSE(s->number_of_sources.has_value());  // chrony 4 prints no "210" line
  EXPECT_EQ(s->selected, "play.xtdv.gr");
  EXPECT_EQ(s->falsetickers, 0u);
  EXPECT_EQ(s->unreachable, 0u);
  EXPECT_TRUE(s->unparsed_rows.empty());
  EXPECT_EQ(s->status.daemon, "chrony");
  EXPECT_EQ(s->status.selected_source, "play.xtdv.gr");
  EXPECT_DOUBLE_EQ(*s->status.offset_s, 0.001181);  // local clock ahead
  EXPECT_TRUE(s->status.synchronised);
}

TEST(ChronycSourcesTest, VerboseLegendRefclockFalsetickerAndUnreachable) {
  auto s = parse_chronyc_sources(parser_fixture("clock_chronyc_sources_-v_chrony3.txt"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->sources.size(), 5u);  // the legend lines are no sources
  EXPECT_EQ(s->number_of_sources, 5u);
  EXPECT_EQ(s->selected, "PHC0");
  EXPECT_EQ(s->sources[0].mode_word, "refclock");
  EXPECT_EQ(s->sources[0].poll_log2, -2);
  EXPECT_DOUBLE_EQ(*s->status.offset_s, -12e-9);
  EXPECT_DOUBLE_EQ(*s->sources[0].measured_offset_s, -15e-9);
  EXPECT_DOUBLE_EQ(*s->sources[2].last_rx_s, 240.0);
  EXPECT_DOUBLE_EQ(*s->sources[2].measured_offset_s, 0.000661);  // "[ +661us]"
  EXPECT_EQ(s->sources[3].state_word, "falseticker");
  EXPECT_DOUBLE_EQ(*s->sources[3].adjusted_offset_s, 12.0);
  EXPECT_EQ(s->sources[4].state_word, "unreachable");
  EXPECT_EQ(s->sources[4].reach, 0u);
  EXPECT_FALSE(s->sources[4].last_rx_s.has_value());
  EXPECT_EQ(s->combined, 1u);
  EXPECT_EQ(s->falsetickers, 1u);
  EXPECT_EQ(s->unreachable, 1u);
}

TEST(ChronycSourcesTest, NoSelectedSourceCutRowsAndForeignText) {
  const std::string header =
      "MS Name/IP address         Stratum Poll Reach LastRx Last sample\n"
      "===============================================================================\n";
  auto unsync = parse_chronyc_sources(
      header + "^? 10.0.0.1                      0   6     0     -     +0ns[   +0ns] +/-    0ns\n" +
      "^* 10.0.0.2                      2   6   377\n");
  ASSERT_TRUE(unsync.ok());
  ASSERT_EQ(unsync->sources.size(), 1u);
  EXPECT_EQ(unsync->unparsed_rows,
            std::vector<std::string>{"^* 10.0.0.2                      2   6   377"});
  EXPECT_EQ(unsync->selected, "");
  EXPECT_FALSE(unsync->status.synchronised);
  EXPECT_FALSE(unsync->status.offset_s.has_value());
  auto empty = parse_chronyc_sources(header);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->sources.empty());
  EXPECT_EQ(parse_chronyc_sources("506 Cannot talk to daemon\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_chronyc_sources("NIC statistics:\n     rx_packets: 1\n").ok());
  EXPECT_FALSE(parse_chronyc_sources("MS Name/IP addr").ok());
  EXPECT_FALSE(
      parse_chronyc_sources(read_text(reference_file("clock/chronyc_tracking_linode_2026.txt")))
          .ok());
  EXPECT_FALSE(
      parse_chronyc_sources(read_text(reference_file("clock/ntpq_p_ntpsec_wide.txt"))).ok());
}

TEST(NtpqTest, NtpsecWideReferenceOffsetSignTurned) {
  auto p = parse_ntpq(read_text(reference_file("clock/ntpq_p_ntpsec_wide.txt")));
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->peers.size(), 1u);  // the zsh prompt line is no peer
  const auto& peer = p->peers[0];
  EXPECT_EQ(peer.tally, '+');
  EXPECT_EQ(peer.tally_word, "candidate");
  EXPECT_EQ(peer.remote, "10.53.21.1");
  EXPECT_EQ(peer.refid, "17.253.84.251");
  EXPECT_EQ(peer.stratum, 2u);
  EXPECT_EQ(peer.type, "u");
  EXPECT_DOUBLE_EQ(*peer.when_s, 8.0);
  EXPECT_EQ(peer.poll_s, 64u);
  EXPECT_EQ(peer.reach_octal, "1");
  EXPECT_EQ(peer.reach, 1u);
  EXPECT_DOUBLE_EQ(*peer.delay_s, 0.0058984);
  EXPECT_DOUBLE_EQ(*peer.offset_ms, -0.1837);
  EXPECT_DOUBLE_EQ(*peer.offset_s, 0.0001837);  // server behind = local clock ahead
  EXPECT_DOUBLE_EQ(*peer.jitter_s, 0.0018213);
  EXPECT_EQ(p->selected, "");  // a candidate, no sys.peer yet
  EXPECT_EQ(p->status.daemon, "ntpd");
  EXPECT_FALSE(p->status.synchronised);
}

TEST(NtpqTest, NtpdTallyCodesInitAndDays) {
  auto p = parse_ntpq(parser_fixture("clock_ntpq_-p_ntpd.txt"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->peers.size(), 7u);
  EXPECT_EQ(p->selected, "time-a.example.");
  EXPECT_EQ(p->peers[0].refid, ".GPS.");
  EXPECT_EQ(p->peers[0].reach, 255u);
  EXPECT_DOUBLE_EQ(*p->status.offset_s, 0.000456);
  EXPECT_TRUE(p->status.synchronised);
  EXPECT_EQ(p->peers[2].tally_word, "outlier");
  EXPECT_DOUBLE_EQ(*p->peers[2].offset_s, -0.002871);
  EXPECT_EQ(p->peers[3].tally_word, "falseticker");
  EXPECT_EQ(p->peers[4].tally, ' ');
  EXPECT_EQ(p->peers[4].tally_word, "reject");
  EXPECT_EQ(p->peers[4].remote, "0.pool.example.");
  EXPECT_EQ(p->peers[4].type, "p");
  EXPECT_EQ(p->peers[5].refid, ".INIT.");
  EXPECT_EQ(p->peers[5].stratum, 16u);
  EXPECT_EQ(p->peers[5].when, "-");
  EXPECT_FALSE(p->peers[5].when_s.has_value());
  EXPECT_EQ(p->peers[6].remote, "LOCAL(0)");
  EXPECT_DOUBLE_EQ(*p->peers[6].when_s, 5 * 86400.0);
  EXPECT_TRUE(p->unparsed_rows.empty());
}

TEST(NtpqTest, NtpsecWrappedLongRemotes) {
  auto p = parse_ntpq(parser_fixture("clock_ntpq_-pw_ntpsec_wrapped.txt"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->peers.size(), 3u);
  EXPECT_EQ(p->peers[0].remote, "ntp-gm-01.rack12.pod3.cluster.example.internal.corp");
  EXPECT_EQ(p->peers[0].refid, "10.40.0.1");
  EXPECT_EQ(p->peers[0].stratum, 1u);
  EXPECT_DOUBLE_EQ(*p->peers[0].offset_ms, 0.0031);
  EXPECT_EQ(p->selected, "ntp-gm-01.rack12.pod3.cluster.example.internal.corp");
  EXPECT_DOUBLE_EQ(*p->status.offset_s, -0.0000031);
  EXPECT_EQ(p->peers[1].remote, "10.40.0.2");
  EXPECT_EQ(p->peers[2].tally, ' ');
  EXPECT_EQ(p->peers[2].remote, "2.pool.ntp.org.very-long-pool-name.example.com.invalid");
  EXPECT_EQ(p->peers[2].poll_s, 256u);
  EXPECT_TRUE(p->unparsed_rows.empty());
}

TEST(NtpqTest, NoAssociationsCutRowsAndForeignText) {
  auto none = parse_ntpq("No association ID's returned\n");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->no_associations);
  EXPECT_TRUE(none->peers.empty());
  EXPECT_FALSE(none->status.synchronised);
  auto cut = parse_ntpq(
      "     remote           refid      st t when poll reach   delay   offset  jitter\n"
      "==============================================================================\n"
      "*time-a.example. .GPS.            1 u   45   64  3\n"
      "+10.0.0.2        10.0.0.1         2 u   12   64  399    0.512    0.321   0.045\n");
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut->peers.empty());  // cut row; reach 399 is not octal
  EXPECT_EQ(cut->unparsed_rows.size(), 2u);
  EXPECT_EQ(cut->selected, "");
  EXPECT_EQ(parse_ntpq("ntpq: read: Connection refused\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_ntpq("NIC stat").ok());
  EXPECT_FALSE(
      parse_ntpq(read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt"))).ok());
}

// Shape of every pmc sample here: linuxptp pmc.c (richardcochran/linuxptp, pmc.c, pmc_show():
// "\t%s seq %hu %s " + "MANAGEMENT " + "<ID> " then "\n\t\t<key> <value>" lines) and the
// expected outputs of mlichvar/linuxptp-testsuite, file 20-pmc (GET TIME_STATUS_NP,
// CURRENT_DATA_SET with "offsetFromMaster -?[0-9]+\.[0-9]+", PARENT_DATA_SET, PORT_DATA_SET
// with one response per port).
TEST(PmcTest, SlaveTimeStatusCurrentPortAndParentDataSets) {
  auto r = parse_pmc(parser_fixture("clock_pmc_-u_-b0_slave.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->requests, (std::vector<std::string>{"GET TIME_STATUS_NP", "GET CURRENT_DATA_SET",
                                                   "GET PORT_DATA_SET", "GET PARENT_DATA_SET"}));
  ASSERT_EQ(r->responses.size(), 4u);
  const auto& ts = r->responses[0];
  EXPECT_EQ(ts.port_identity, "507c6f.fffe.1fb16c-0");
  EXPECT_EQ(ts.clock_identity, "507c6f.fffe.1fb16c");
  EXPECT_EQ(ts.port, 0u);
  EXPECT_EQ(ts.seq, 0u);
  EXPECT_EQ(ts.action, "RESPONSE");
  EXPECT_EQ(ts.tlv, "MANAGEMENT");
  EXPECT_EQ(ts.management_id, "TIME_STATUS_NP");
  EXPECT_EQ(ts.fields.at("ingress_time"), "1733220001123456789");
  EXPECT_EQ(ts.fields.at("lastGmPhaseChange"), "0x0000'0000000000000000.0000");
  EXPECT_EQ(ts.fields.at("cumulativeScaledRateOffset"), "+0.000000000");
  EXPECT_EQ(r->responses[2].port, 1u);
  EXPECT_EQ(r->responses[3].fields.at("gm.ClockClass"), "6");
  EXPECT_DOUBLE_EQ(*r->offset_s, -17e-9);  // master_offset wins over offsetFromMaster
  EXPECT_EQ(r->gm_present, true);
  EXPECT_EQ(r->gm_identity, "001b21.fffe.6fa0f4");
  EXPECT_EQ(r->steps_removed, 1u);
  EXPECT_DOUBLE_EQ(*r->mean_path_delay_s, 615e-9);
  EXPECT_EQ(r->port_state, "SLAVE");
  EXPECT_EQ(r->other_lines, 0u);
  EXPECT_EQ(r->status.daemon, "linuxptp");
  EXPECT_EQ(r->status.selected_source, "001b21.fffe.6fa0f4");
  EXPECT_DOUBLE_EQ(*r->status.offset_s, -17e-9);
  EXPECT_TRUE(r->status.synchronised);
}

TEST(PmcTest, CurrentDataSetAloneWithDecimalOffset) {
  auto r = parse_pmc(
      "sending: GET CURRENT_DATA_SET\n"
      "\t123456.fffe.780102-2 seq 0 RESPONSE MANAGEMENT CURRENT_DATA_SET \n"
      "\t\tstepsRemoved     1\n"
      "\t\toffsetFromMaster -12.5\n"
      "\t\tmeanPathDelay    650.0\n");
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(*r->offset_s, -12.5e-9);
  EXPECT_FALSE(r->gm_present.has_value());
  EXPECT_TRUE(r->status.synchronised);  // one step from a master, no port state to contradict
}

TEST(PmcTest, GrandmasterItselfTwoPortsAndNoAnswer) {
  auto gm = parse_pmc(
      "sending: GET TIME_STATUS_NP\n"
      "\t123456.fffe.780101-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
      "\t\tmaster_offset              0\n"
      "\t\tgmPresent                  false\n"
      "\t\tgmIdentity                 123456.fffe.780101\n"
      "sending: GET PORT_DATA_SET\n"
      "\t123456.fffe.780101-1 seq 1 RESPONSE MANAGEMENT PORT_DATA_SET \n"
      "\t\tportIdentity            123456.fffe.780101-1\n"
      "\t\tportState               MASTER\n");
  ASSERT_TRUE(gm.ok());
  EXPECT_EQ(gm->gm_present, false);
  EXPECT_EQ(gm->port_state, "MASTER");
  EXPECT_FALSE(gm->status.synchronised);
  EXPECT_EQ(gm->status.selected_source, "");
  auto boundary = parse_pmc(
      "sending: GET PORT_DATA_SET\n"
      "\t123456.fffe.780102-1 seq 0 RESPONSE MANAGEMENT PORT_DATA_SET \n"
      "\t\tportState               MASTER\n"
      "\t123456.fffe.780102-2 seq 0 RESPONSE MANAGEMENT PORT_DATA_SET \n"
      "\t\tportState               SLAVE\n");
  ASSERT_TRUE(boundary.ok());
  EXPECT_EQ(boundary->responses.size(), 2u);
  EXPECT_EQ(boundary->port_state, "SLAVE");
  auto silent = parse_pmc("sending: GET TIME_STATUS_NP\n");
  ASSERT_TRUE(silent.ok());  // ptp4l did not answer: a request, no response
  EXPECT_TRUE(silent->responses.empty());
  EXPECT_FALSE(silent->status.synchronised);
  EXPECT_FALSE(silent->offset_s.has_value());
}

TEST(PmcTest, RejectsOtherText) {
  EXPECT_EQ(parse_pmc("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_pmc("pmc: failed to open configuration file\n").ok());
  EXPECT_FALSE(parse_pmc("\t\tmaster_offset -17\n\t\tgmPresent true\n").ok());  // headless
  EXPECT_FALSE(
      parse_pmc(read_text(reference_file("clock/ptp4l_summary_and_phc2sys_openil.txt"))).ok());
}

TEST(Ptp4lLogTest, OpenilSummariesAndPhc2sysSamples) {
  auto log =
      parse_ptp4l_log(read_text(reference_file("clock/ptp4l_summary_and_phc2sys_openil.txt")));
  ASSERT_TRUE(log.ok()) << log.error().message;
  ASSERT_EQ(log->streams.size(), 2u);
  const auto& ptp4l = log->streams[0];
  EXPECT_EQ(ptp4l.program, "ptp4l");
  EXPECT_EQ(ptp4l.clock, "");
  EXPECT_TRUE(ptp4l.samples.empty());
  ASSERT_EQ(ptp4l.summaries.size(), 10u);
  EXPECT_DOUBLE_EQ(*ptp4l.summaries[0].monotonic_s, 1306.933);
  EXPECT_DOUBLE_EQ(ptp4l.summaries[0].rms_s, 196e-9);
  EXPECT_DOUBLE_EQ(ptp4l.summaries[0].max_s, 286e-9);
  EXPECT_DOUBLE_EQ(*ptp4l.summaries[0].freq_ppb, -6060.0);
  EXPECT_DOUBLE_EQ(*ptp4l.summaries[0].freq_dev_ppb, 271.0);
  EXPECT_DOUBLE_EQ(*ptp4l.summaries[0].delay_ns, 233.0);
  EXPECT_DOUBLE_EQ(*ptp4l.summaries[0].delay_dev_ns, 0.0);
  EXPECT_DOUBLE_EQ(ptp4l.summaries[9].max_s, 494e-9);
  const auto& phc2sys = log->streams[1];
  EXPECT_EQ(phc2sys.program, "phc2sys");
  EXPECT_EQ(phc2sys.clock, "CLOCK_REALTIME");
  EXPECT_EQ(phc2sys.source, "phc");
  ASSERT_EQ(phc2sys.samples.size(), 4u);
  EXPECT_EQ(phc2sys.samples[0].offset_ns, 630);
  EXPECT_EQ(phc2sys.samples[0].servo_state, 0u);
  EXPECT_EQ(phc2sys.samples[0].servo_word, "unlocked");
  EXPECT_DOUBLE_EQ(*phc2sys.samples[0].freq_ppb, -10694.0);
  EXPECT_EQ(phc2sys.samples[0].path_delay_ns, 5604);
  EXPECT_DOUBLE_EQ(*phc2sys.samples[0].monotonic_s, 1232.392);
  EXPECT_DOUBLE_EQ(phc2sys.samples[3].offset_s, -84e-9);
  EXPECT_EQ(phc2sys.samples[3].servo_word, "locked");
  EXPECT_DOUBLE_EQ(*log->last_offset_s, -84e-9);
  EXPECT_EQ(log->last_servo_state, 2u);
  EXPECT_EQ(log->last_servo_word, "locked");
  EXPECT_EQ(log->phc2sys_source, "enp3s0");
  ASSERT_EQ(log->messages.size(), 3u);
  EXPECT_EQ(log->messages[0].text, "reconfiguring after port state change");
  EXPECT_EQ(log->messages[1].text, "selecting CLOCK_REALTIME for synchronization");
  EXPECT_EQ(log->program_lines, 17u);
  EXPECT_EQ(log->other_lines, 1u);  // the shell prompt with the phc2sys command
  EXPECT_EQ(log->status.daemon, "linuxptp");
  EXPECT_EQ(log->status.selected_source, "enp3s0");
  EXPECT_DOUBLE_EQ(*log->status.offset_s, -84e-9);
  EXPECT_TRUE(log->status.synchronised);
}

TEST(Ptp4lLogTest, JournalWithStepsPortStatesAndBestMaster) {
  auto log = parse_ptp4l_log(parser_fixture("clock_ptp4l_phc2sys_journal.txt"));
  ASSERT_TRUE(log.ok()) << log.error().message;
  ASSERT_EQ(log->streams.size(), 2u);
  const auto& ptp4l = log->streams[0];
  ASSERT_EQ(ptp4l.samples.size(), 4u);
  EXPECT_EQ(ptp4l.source, "master");
  EXPECT_EQ(ptp4l.samples[0].offset_ns, -1234567);
  EXPECT_EQ(ptp4l.samples[1].servo_word, "jump");
  EXPECT_DOUBLE_EQ(*ptp4l.samples[1].freq_ppb, 1234.0);
  EXPECT_EQ(ptp4l.samples[1].path_delay_ns, 679);
  EXPECT_DOUBLE_EQ(ptp4l.samples[3].offset_s, -12e-9);
  EXPECT_DOUBLE_EQ(*ptp4l.samples[3].monotonic_s, 12348.678);
  ASSERT_EQ(log->transitions.size(), 4u);
  EXPECT_EQ(log->transitions[0].interface, "ens1f0np0");
  EXPECT_EQ(log->transitions[1].port, 0u);
  EXPECT_EQ(log->transitions[3].from, "UNCALIBRATED");
  EXPECT_EQ(log->transitions[3].to, "SLAVE");
  EXPECT_EQ(log->transitions[3].event, "MASTER_CLOCK_SELECTED");
  EXPECT_EQ(log->port_states.at(0), "LISTENING");
  EXPECT_EQ(log->port_state, "SLAVE");
  EXPECT_EQ(log->best_master, "001b21.fffe.6fa0f4");
  EXPECT_EQ(log->messages.back().text, "timed out while polling for tx timestamp");
  EXPECT_EQ(log->other_lines, 1u);  // systemd
  // phc2sys steers the system clock: its last sample is the host's offset.
  EXPECT_DOUBLE_EQ(*log->status.offset_s, 7e-9);
  EXPECT_TRUE(log->status.synchronised);
  EXPECT_EQ(log->status.selected_source, "001b21.fffe.6fa0f4");
}

TEST(Ptp4lLogTest, PlainFormTagsOldPortsSysOffsetAndUnlocked) {
  auto log = parse_ptp4l_log(
      "ptp4l[5190.100]: port 1: LISTENING to MASTER on ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES\n"
      "ptp4l[5190.101]: selected local clock 3c2c30.fffe.6f7b10 as best master\n"
      "ptp4l[5190.102]: assuming the grand master role\n"
      "phc2sys[5196.800]: eth0 sys offset       123 s2 freq      -5 delay   1000\n"
      "ptp4l[5196.819]: [eth3] master offset 5 s2 freq +3 path delay 400\n"
      "ptp4l[5197.819]: [eth3] master offset 900000 s0 freq +0 path delay 400\n"
      "ptp4l[5198.000]: rms 12 max 34 freq +567 +/- 8 delay 900 +/- 2\n");
  ASSERT_TRUE(log.ok()) << log.error().message;
  ASSERT_EQ(log->streams.size(), 3u);
  EXPECT_EQ(log->streams[0].program, "phc2sys");
  EXPECT_EQ(log->streams[0].clock, "eth0");
  EXPECT_EQ(log->streams[0].source, "sys");
  EXPECT_EQ(log->streams[1].tag, "eth3");
  EXPECT_EQ(log->streams[1].samples.size(), 2u);
  EXPECT_EQ(log->streams[2].summaries.size(), 1u);  // untagged ptp4l
  EXPECT_DOUBLE_EQ(log->streams[2].summaries[0].rms_s, 12e-9);
  EXPECT_EQ(log->port_state, "MASTER");
  EXPECT_EQ(log->best_master, "3c2c30.fffe.6f7b10");
  EXPECT_EQ(log->messages.size(), 2u);
  EXPECT_EQ(log->last_servo_word, "unlocked");
  EXPECT_DOUBLE_EQ(*log->status.offset_s, 900000e-9);  // last sample: no phc2sys CLOCK_REALTIME
  EXPECT_FALSE(log->status.synchronised);
}

TEST(Ptp4lLogTest, SummaryOnlySlaveAndForeignText) {
  auto slave = parse_ptp4l_log(
      "ptp4l[10.0]: port 1: UNCALIBRATED to SLAVE on MASTER_CLOCK_SELECTED\n"
      "ptp4l[11.0]: rms 12 max 34 freq +567 +/- 8\n");
  ASSERT_TRUE(slave.ok());
  EXPECT_FALSE(slave->status.offset_s.has_value());
  EXPECT_TRUE(slave->status.synchronised);
  EXPECT_FALSE(slave->streams[0].summaries[0].delay_ns.has_value());
  // The first phc2sys sample of a PHC still at 0: ~1.6e18 ns off, stepped (s1), not locked yet.
  auto stepping =
      parse_ptp4l_log("phc2sys[3.0]: CLOCK_REALTIME phc offset 1600000000000000000 s1 freq +0\n");
  ASSERT_TRUE(stepping.ok());
  EXPECT_DOUBLE_EQ(*stepping->status.offset_s, 1.6e9);
  EXPECT_EQ(stepping->last_servo_word, "jump");
  EXPECT_FALSE(stepping->streams[0].samples[0].path_delay_ns.has_value());
  EXPECT_FALSE(stepping->status.synchronised);
  EXPECT_EQ(parse_ptp4l_log("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_ptp4l_log("$ sudo phc2sys -a -rr -m\nptp4l is not running\n").ok());
  EXPECT_FALSE(parse_ptp4l_log("Dec 03 10:00:00 host systemd[1]: Started ptp4l.service.\n").ok());
  EXPECT_FALSE(
      parse_ptp4l_log(read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt"))).ok());
  auto odd = parse_ptp4l_log("ptp4l[1.0]: master offset abc s9 freq\n");
  ASSERT_TRUE(odd.ok());  // a ptp4l line it cannot read is kept as text
  EXPECT_TRUE(odd->streams.empty());
  EXPECT_EQ(odd->messages.at(0).text, "master offset abc s9 freq");
}

TEST(ClockRegistryTest, KindsDispatchAndShareTheStatusShape) {
  const std::pair<const char*, const char*> cases[] = {
      {"chronyc-sources", "clock/chronyc_sources_rhel9_chrony4.txt"},
      {"ntpq", "clock/ntpq_p_ntpsec_wide.txt"},
      {"ptp4l-log", "clock/ptp4l_summary_and_phc2sys_openil.txt"},
  };
  for (const auto& [kind, file] : cases) {
    EXPECT_TRUE(is_parser_kind(kind));
    auto json = parse_to_json(kind, read_text(reference_file(file)));
    ASSERT_TRUE(json.ok()) << kind;
    const auto& status = (*json)["status"];
    for (const char* key : {"daemon", "selected_source", "offset_s", "synchronised"}) {
      EXPECT_TRUE(status.contains(key)) << kind << " " << key;
    }
  }
  auto pmc = parse_to_json("pmc", parser_fixture("clock_pmc_-u_-b0_slave.txt"));
  ASSERT_TRUE(pmc.ok());
  EXPECT_EQ((*pmc)["responses"][0]["fields"]["gmPresent"], "true");
  EXPECT_EQ((*pmc)["status"]["daemon"], "linuxptp");
  auto chrony = parse_to_json("chronyc-sources",
                              read_text(reference_file("clock/chronyc_sources_rhel9_chrony4.txt")));
  EXPECT_EQ((*chrony)["sources"][0]["state"], "*");
  EXPECT_EQ((*chrony)["sources"][0]["reach"], 39);
}

}  // namespace
}  // namespace netdoctor::parsers
