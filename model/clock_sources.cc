#include "model/clock_sources.h"

#include "model/host_facts.h"
#include "model/source_names.h"
#include "parsers/chronyc_sources.h"
#include "parsers/ntpq.h"
#include "parsers/pmc.h"
#include "parsers/ptp4l_log.h"

namespace netdoctor::model {
namespace {

void fill_from_status(const parsers::ClockStatus& status, const std::string& source,
                      ClockState& clock) {
  clock.source = source;
  clock.offset_s = status.offset_s;
  clock.synchronised = status.synchronised;
  clock.reference = status.selected_source;
  // The daemon's own words, where chrony would print its leap status.
  clock.leap_status = status.daemon + (status.synchronised ? " locked" : " not locked");
}

// ptp4l and phc2sys logs: phc2sys (it steers the system clock) first.
bool read_ptp_logs(SourceLog& log, const SampleSource& sample, SourceMap& sources,
                   ClockState& clock) {
  for (const char* path : {"/var/log/phc2sys.log", "/var/log/ptp4l.log"}) {
    auto text = log.read_file(sample, path, source::k_ptp4l_log, sources);
    if (!text) {
      continue;
    }
    auto parsed = parsers::parse_ptp4l_log(*text);
    if (!parsed.ok()) {
      log.malformed(source::k_ptp4l_log, sample.display_path(path), parsed.error(), sources);
      continue;
    }
    fill_from_status(parsed->status, source::k_ptp4l_log, clock);
    return true;
  }
  return false;
}

// pmc prints its request and nothing else when no ptp4l answers: no view of the clock.
bool pmc_answered(const parsers::PmcRecord& record) {
  return !record.responses.empty();
}

template <typename Record>
bool any_record(const Record& /*record*/) {
  return true;
}

// Reads one clock command; `answered` says whether its output holds a view of the clock at all.
template <typename Record, typename Parse>
bool read_command(SourceLog& log, const SampleSource& sample, SourceMap& sources,
                  const std::vector<std::string>& argv, const std::string& source, Parse parse,
                  ClockState& clock, bool (*answered)(const Record&) = any_record<Record>) {
  auto record = parse_command<Record>(log, sample, argv, source, sources, parse);
  if (!record || !answered(*record)) {
    return false;
  }
  fill_from_status(record->status, source, clock);
  return true;
}

}  // namespace

void read_clock(SourceLog& log, const SampleSource& sample,
                const std::optional<parsers::ChronyTracking>& tracking, SourceMap& sources,
                ClockState& clock) {
  if (tracking) {
    fill_clock(*tracking, clock);
    clock.source = source::k_chronyc_tracking;
    return;
  }
  if (read_ptp_logs(log, sample, sources, clock) ||
      read_command<parsers::PmcRecord>(log, sample, sources,
                                       {"pmc", "-u", "-b", "0", "GET TIME_STATUS_NP"},
                                       source::k_pmc, parsers::parse_pmc, clock, pmc_answered) ||
      read_command<parsers::PmcRecord>(log, sample, sources,
                                       {"pmc", "-u", "-b", "0", "GET CURRENT_DATA_SET"},
                                       source::k_pmc, parsers::parse_pmc, clock, pmc_answered) ||
      read_command<parsers::ChronySources>(log, sample, sources, {"chronyc", "sources"},
                                           source::k_chronyc_sources,
                                           parsers::parse_chronyc_sources, clock) ||
      read_command<parsers::NtpqPeers>(log, sample, sources, {"ntpq", "-p"}, source::k_ntpq,
                                       parsers::parse_ntpq, clock)) {
    return;
  }
  read_command<parsers::NtpqPeers>(log, sample, sources, {"ntpq", "-pn"}, source::k_ntpq,
                                   parsers::parse_ntpq, clock);
}

}  // namespace netdoctor::model
