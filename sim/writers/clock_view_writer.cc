// The clock views besides chronyc tracking, in the layouts their tools print (linuxptp's
// phc2sys and pmc, chronyc sources, ntpq -pn; see tests/parsers/data/clock_*). A synced host
// shows a locked servo or a selected source with a small offset; an unsynced one an unlocked
// servo or no selected source, carrying the drift of host.clock_offset_s.
#include <fmt/format.h>

#include <cmath>

#include "sim/rng.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

constexpr double k_ns_per_s = 1e9;
constexpr double k_ms_per_s = 1e3;

// phc2sys steering CLOCK_REALTIME from the NIC's PHC: five summary lines a second apart.
std::string phc2sys_log(const Host& host, double host_time, double small_offset_s) {
  std::string out;
  const char* servo = host.clock_synced ? "s2" : "s0";
  const double offset_s = host.clock_synced ? small_offset_s : host.clock_offset_s;
  for (int line = 0; line < 5; ++line) {
    out += fmt::format(
        "phc2sys[{:.3f}]: CLOCK_REALTIME phc offset {:>9.0f} {} freq {:>+7.0f} "
        "delay {:>6}\n",
        host_time - 5.0 + line, offset_s * k_ns_per_s + line, servo, -1200.0 + 3.0 * line,
        500 + line);
  }
  return out;
}

std::string pmc_time_status(const Host& host, double small_offset_s) {
  return fmt::format(
      "sending: GET TIME_STATUS_NP\n"
      "\t0c42a1.fffe.6d0511-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
      "\t\tmaster_offset              {:.0f}\n"
      "\t\tingress_time               0\n"
      "\t\tcumulativeScaledRateOffset +0.000000000\n"
      "\t\tscaledLastGmPhaseChange    0\n"
      "\t\tgmTimeBaseIndicator        0\n"
      "\t\tlastGmPhaseChange          0x0000'0000000000000000.0000\n"
      "\t\tgmPresent                  {}\n"
      "\t\tgmIdentity                 {}\n",
      host.clock_synced ? small_offset_s * k_ns_per_s : 0.0, host.clock_synced ? "true" : "false",
      host.clock_synced ? "001b21.fffe.6fa0f4" : "0c42a1.fffe.6d0511");
}

std::string chronyc_sources(const Host& host, double small_offset_s) {
  std::string out =
      "MS Name/IP address         Stratum Poll Reach LastRx Last sample               \n"
      "===============================================================================\n";
  if (host.clock_synced) {
    const double us = small_offset_s * 1e6;
    out += fmt::format(
        "^* 10.0.1.1                      2   6   377    35   {:+.0f}us[{:+.0f}us] "
        "+/-  120us\n",
        us, us + 3.0);
    out += "^+ 10.0.1.2                      2   6   377    34    +12us[  +15us] +/-  140us\n";
  } else {
    out += "^? 10.0.1.1                      0   6     0     -     +0ns[   +0ns] +/-    0ns\n";
    out += "^? 10.0.1.2                      0   6     0     -     +0ns[   +0ns] +/-    0ns\n";
  }
  return out;
}

// ntpq prints the server's offset relative to the host, in ms: a fast host reads negative.
std::string ntpq_peers(const Host& host, double small_offset_s) {
  std::string out =
      "     remote           refid      st t when poll reach   delay   offset  jitter\n"
      "==============================================================================\n";
  if (host.clock_synced) {
    out += fmt::format(
        "*10.0.1.1        .GPS.            1 u   35   64  377    0.120  {:>7.3f}   "
        "0.020\n",
        -small_offset_s * k_ms_per_s);
    out += "+10.0.1.2        10.0.1.1         2 u   34   64  377    0.140    0.012   0.025\n";
  } else {
    out += " 10.0.1.1        .INIT.          16 u    -   64    0    0.000    0.000   0.000\n";
    out += " 10.0.1.2        .INIT.          16 u    -   64    0    0.000    0.000   0.000\n";
  }
  return out;
}

}  // namespace

std::pair<std::string, std::string> clock_view_output(const Fabric& fabric, const Host& host,
                                                      ClockView view, double host_time,
                                                      std::size_t sample) {
  // A synced host's own small offset to its reference, tens of microseconds.
  const double small = (hash_unit(fabric.noise_seed, host.name, 300 + sample) - 0.5) * 1e-4;
  switch (view) {
    case ClockView::PtpLog:
      return {"var/log/phc2sys.log", phc2sys_log(host, host_time, small)};
    case ClockView::Pmc:
      return {"sos_commands/ptp/pmc_-u_-b_0_GET_TIME_STATUS_NP", pmc_time_status(host, small)};
    case ClockView::ChronySources:
      return {"sos_commands/chrony/chronyc_sources", chronyc_sources(host, small)};
    case ClockView::Ntpq:
      return {"sos_commands/ntp/ntpq_-pn", ntpq_peers(host, small)};
    case ClockView::ChronyTracking:
      break;
  }
  return {"sos_commands/chrony/chronyc_tracking",
          chronyc_tracking(fabric, host, host_time, sample)};
}

}  // namespace netdoctor::sim
