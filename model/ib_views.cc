#include "model/ib_views.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"
#include "model/source_names.h"

namespace netdoctor::model {
namespace {

constexpr std::string_view k_commands = "/sos_commands";
constexpr std::string_view k_perfquery_prefix = "perfquery";
constexpr std::string_view k_diagnet_dir = "/var/tmp/ibdiagnet2";

// sminfo that ran but reached no SM ("ibwarn: ... sminfo: iberror: failed: query"): an
// observation (no SM answered), not a broken file.
bool failed_query(std::string_view text) {
  const std::string lower = to_lower(text);
  return trim(text).empty() || contains(lower, "iberror") || contains(lower, "failed") ||
         contains(lower, "timeout") || contains(lower, "ibwarn") || contains(lower, "can't");
}

void read_sminfo(const SampleSource& sample, SourceLog& log, SourceMap& sources,
                 IbSampleViews& views) {
  const std::vector<std::string> argv = {"sminfo"};
  auto text = log.command(sample, argv, source::k_sminfo, sources);
  if (!text) {
    return;
  }
  auto parsed = parsers::parse_sminfo(*text);
  if (parsed.ok()) {
    views.sminfo = std::move(parsed).value();
    views.sminfo_ran = true;
  } else if (failed_query(*text)) {
    views.sminfo_ran = true;
  } else {
    log.malformed(source::k_sminfo, sample.display_command(argv), parsed.error(), sources);
  }
}

// Every sos_commands/<group>/perfquery* file, in group and name order.
void read_perfquery(const SampleSource& sample, SourceLog& log, SourceMap& sources,
                    IbSampleViews& views) {
  auto groups = peek_dir(log, sample, std::string(k_commands), source::k_perfquery, sources);
  if (!groups) {
    return;
  }
  bool any = false;
  for (const auto& group : *groups) {
    if (group.kind != DirEntry::Kind::Dir) {
      continue;
    }
    const std::string dir = fmt::format("{}/{}", k_commands, group.name);
    auto files = peek_dir(log, sample, dir, source::k_perfquery, sources);
    for (const auto& file : files.value_or(std::vector<DirEntry>{})) {
      if (file.kind == DirEntry::Kind::Dir || !starts_with(file.name, k_perfquery_prefix)) {
        continue;
      }
      any = true;
      const std::string path = fmt::format("{}/{}", dir, file.name);
      auto text = log.read_file(sample, path, source::k_perfquery, sources);
      if (!text) {
        continue;
      }
      auto parsed = parsers::parse_perfquery(*text);
      if (!parsed.ok()) {
        log.malformed(source::k_perfquery, sample.display_path(path), parsed.error(), sources);
        continue;
      }
      views.perfquery.push_back(std::move(parsed).value());
    }
  }
  if (!any) {
    record_source(sources, source::k_perfquery, Availability::Absent,
                  sample.display_path("/sos_commands/*/perfquery*") + ": not captured");
  }
}

void read_ibnodes(const SampleSource& sample, SourceLog& log, SourceMap& sources,
                  IbSampleViews& views) {
  for (const char* command : {"ibswitches", "ibhosts", "ibnodes"}) {
    auto found = parse_command<parsers::IbNodes>(log, sample, {command}, source::k_ibnodes, sources,
                                                 parsers::parse_ibnodes);
    if (found) {
      views.nodes.insert(views.nodes.end(), found->nodes.begin(), found->nodes.end());
    }
  }
}

// An ibdiagnet run copied in (spec/bundle.md 1.1): each of its files parsed when present.
template <typename T, typename Parse>
void read_diagnet_file(const SampleSource& sample, SourceLog& log, SourceMap& sources,
                       const std::vector<DirEntry>& present, const std::string& suffix, Parse parse,
                       std::optional<T>& into) {
  const std::string name = "ibdiagnet2." + suffix;
  if (std::none_of(present.begin(), present.end(),
                   [&name](const DirEntry& e) { return e.name == name; })) {
    return;  // not copied in: each file of an ibdiagnet run is optional
  }
  const std::string path = fmt::format("{}/{}", k_diagnet_dir, name);
  auto text = log.read_file(sample, path, source::k_ibdiagnet, sources);
  if (!text) {
    return;
  }
  auto parsed = parse(*text);
  if (!parsed.ok()) {
    log.malformed(source::k_ibdiagnet, sample.display_path(path), parsed.error(), sources);
    return;
  }
  into = std::move(parsed).value();
}

void read_diagnet(const SampleSource& sample, SourceLog& log, SourceMap& sources,
                  IbDiagnetViews& views) {
  auto present = peek_dir(log, sample, std::string(k_diagnet_dir), source::k_ibdiagnet, sources);
  if (!present) {
    return;  // no ibdiagnet run copied in (or withheld)
  }
  read_diagnet_file(sample, log, sources, *present, "db_csv", parsers::parse_ibdiagnet_db_csv,
                    views.db_csv);
  read_diagnet_file(sample, log, sources, *present, "pm", parsers::parse_ibdiagnet_pm, views.pm);
  read_diagnet_file(sample, log, sources, *present, "net_dump", parsers::parse_ibdiagnet_net_dump,
                    views.net_dump);
  read_diagnet_file(sample, log, sources, *present, "log", parsers::parse_ibdiagnet_log, views.log);
  read_diagnet_file(sample, log, sources, *present, "sm", parsers::parse_ibdiagnet_sm, views.sm);
  views.dir = sample.display_path(k_diagnet_dir);
}

}  // namespace

IbSampleViews read_ib_views(const MachineSample& sample, SourceLog& log, SourceMap& sources) {
  IbSampleViews views;
  views.name = sample.name;
  const SampleSource& source = *sample.source;
  auto at = source.captured_at();
  if (at.ok()) {
    views.captured_at = *at;
    log.observed(source::k_captured_at, sources);
  } else if (at.error().code == ErrorCode::NotFound) {
    record_source(sources, source::k_captured_at, Availability::Absent, at.error().describe());
  } else {
    record_source(sources, source::k_captured_at, Availability::Malformed, at.error().describe());
    log.problem(source::k_captured_at, at.error());
  }
  for (const auto& argv : {std::vector<std::string>{"ibnetdiscover"},
                           std::vector<std::string>{"ibnetdiscover", "-p"}}) {
    auto net = parse_command<parsers::IbNetDiscover>(log, source, argv, source::k_ibnetdiscover,
                                                     sources, parsers::parse_ibnetdiscover);
    if (net) {
      views.discovered.push_back(std::move(*net));
    }
  }
  views.links = parse_command<parsers::IbLinkInfo>(
      log, source, {"iblinkinfo"}, source::k_iblinkinfo, sources, parsers::parse_iblinkinfo);
  read_ibnodes(source, log, sources, views);
  read_perfquery(source, log, sources, views);
  views.errors =
      parse_command<parsers::IbQueryErrors>(log, source, {"ibqueryerrors"}, source::k_ibqueryerrors,
                                            sources, parsers::parse_ibqueryerrors);
  read_sminfo(source, log, sources, views);
  read_diagnet(source, log, sources, views.diagnet);
  return views;
}

}  // namespace netdoctor::model
