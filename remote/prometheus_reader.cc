#include "remote/prometheus_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include "base/archive_tree.h"
#include "base/strings.h"
#include "remote/node_exporter_names.h"
#include "remote/ordered_async.h"
#include "remote/pipelined_fetch.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_batches.h"
#include "remote/prometheus_bundle.h"
#include "remote/prometheus_host_bundle.h"
#include "remote/prometheus_switch_bundle.h"
#include "remote/redact.h"

namespace netdoctor::remote {
namespace {

// Prometheus refuses a range query of more than 11,000 points per series.
constexpr double k_max_points = 11'000.0;

// The textfile series hosts export for netdoctor (docs/prometheus.md).
constexpr const char* k_textfile_names = "netdoctor_rdma_link_info|netdoctor_lldp_neighbor_info";

std::string selector_of(const std::string& names, const std::string& matchers,
                        const std::string& extra) {
  return fmt::format("{{__name__=~\"{}\"{}{}}}", names, matchers.empty() ? "" : "," + matchers,
                     extra.empty() ? "" : "," + extra);
}

struct Batch {
  Batch(std::string query, std::vector<std::string> selected, bool of_hosts,
        bool skip_labelled = false, std::string asked_for = {})
      : promql(std::move(query)),
        values(std::move(selected)),
        hosts(of_hosts),
        skip_switch_labelled(skip_labelled),
        what(std::move(asked_for)) {}

  std::string promql;
  std::vector<std::string> values;  // the label values it asks for, named in its problems
  bool hosts = true;                // host batch (laid out and freed) or switch batch
  // Series with a switch label came with the switch groups: a switch="" matcher would select
  // them out, but Prometheus answers it by walking every series it holds.
  bool skip_switch_labelled = false;
  std::string what;  // what it asks for, when not all of its machines' series
};

class Reader {
 public:
  Reader(HttpClient& client, const PrometheusRequest& request, MachineSink* sink)
      : m_client(client),
        m_request(request),
        m_sink(sink),
        m_shown(redact_url(request.url)),
        m_step(request.step.value_or(request.window)),
        m_start(request.at - request.window),
        m_builder("prometheus " + m_shown),
        m_switch_bundle(m_left_out) {
    m_layout.host_label = request.host_label;
    m_layout.source = "prometheus " + m_shown;
    m_parsers.push_back(std::make_unique<AnswerParser>());
  }

  // Whether the switch groups ask for the queue series that becomes model metric `name`.
  bool switch_groups_want(std::string_view name) const {
    if (m_request.switch_queue_wanted && !m_request.switch_queue_wanted(name)) {
      return false;
    }
    return !m_request.queue_traffic_rule || !is_queue_traffic_metric(name);
  }

  // The switch series of the machines `machines` selects; with one PFC priority asked for,
  // the PFC series of that priority apart from the rest.
  std::string switch_query(const std::string& machines) const {
    const std::string& extra = m_request.selector;
    const std::string without_pfc = switch_query_pattern_without_pfc(
        [this](std::string_view name) { return switch_groups_want(name); },
        m_request.switch_counter_wanted);
    if (!m_request.switch_pfc_priority) {
      return selector_of(without_pfc + "|" + switch_pfc_pattern(), machines, extra);
    }
    return fmt::format(
        "{} or {}", selector_of(without_pfc, machines, extra),
        selector_of(switch_pfc_pattern(),
                    fmt::format("{},priority=\"{}\"", machines, *m_request.switch_pfc_priority),
                    extra));
  }

  Result<PrometheusRead> run() {
    const std::string extra = m_request.selector;
    const std::string host_names =
        host_metric_pattern(m_request.ethtool_stats, m_request.sysfs_counter_wanted);
    const std::string switch_names = switch_query_pattern();
    const std::string no_switch_label = m_layout.switch_label + "=\"\"";
    // 1. The machines.
    std::vector<HttpRequest> discovery = {
        get(label_values_url(m_request.url, m_request.host_label,
                             selector_of(host_names, "", extra), m_start, m_request.at)),
        get(label_values_url(m_request.url, m_layout.switch_label,
                             selector_of(switch_names, "", extra), m_start, m_request.at)),
        get(label_values_url(m_request.url, m_request.host_label,
                             selector_of(switch_names, no_switch_label, extra), m_start,
                             m_request.at))};
    auto outcomes = m_client.perform(discovery);
    m_read.stats.queries += outcomes.size();
    std::vector<std::vector<std::string>> values(outcomes.size());
    std::optional<Error> first_error;
    std::size_t answered = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      auto listed = label_values(outcomes[i]);
      if (listed.ok()) {
        values[i] = std::move(*listed);
        ++answered;
        continue;
      }
      Error error = listed.error();
      error.message =
          fmt::format("listing the {} failed: {}", i == 0 ? "hosts" : "switches", error.message);
      first_error = first_error.value_or(error);
      m_read.problems.push_back(std::move(error));
    }
    if (answered == 0) {
      return *first_error;
    }
    if (values[0].empty() && values[1].empty() && values[2].empty()) {
      return make_error(
          ErrorCode::NotFound,
          fmt::format("no node_infiniband_, node_ethtool_, node_network_, netdoctor_ or switch "
                      "(IF-MIB, sonic_queue_) series between {:.3f} and {:.3f}{}",
                      m_start, m_request.at, extra.empty() ? "" : " matching " + extra),
          m_shown);
    }
    for (std::size_t i : {std::size_t{1}, std::size_t{2}}) {
      for (const auto& value : values[i]) {
        m_switches.insert(host_from_instance(value));
      }
    }
    // 2. The batches: switches first (their series meet in one layout, finished and freed before
    // the hosts come), then host groups. A switch's own node_exporter series (SONiC) come with
    // the switches.
    std::vector<std::string> host_values;
    std::vector<std::string> switch_host_values;
    for (auto& value : values[0]) {
      (m_switches.count(host_from_instance(value)) != 0 ? switch_host_values : host_values)
          .push_back(std::move(value));
    }
    std::vector<Batch> batches;
    const std::size_t size = m_request.machines_per_query;
    for (const auto& value : values[1]) {
      m_switch_selected_by[value].push_back(SwitchValue{value, false});
    }
    for (const auto& value : values[2]) {
      m_switch_selected_by[host_from_instance(value)].push_back(SwitchValue{value, true});
    }
    for (auto& group : group_values(values[1], size)) {
      batches.emplace_back(switch_query(exact_values_matcher(m_layout.switch_label, group)),
                           std::move(group), false);
    }
    for (auto& group : group_values(values[2], size)) {
      batches.emplace_back(switch_query(exact_values_matcher(m_request.host_label, group)),
                           std::move(group), false, true);
    }
    for (auto& group : group_values(switch_host_values, size)) {
      batches.push_back(
          {selector_of(host_names, exact_values_matcher(m_request.host_label, group), extra),
           std::move(group), false});
    }
    const std::size_t switch_batches = batches.size();
    for (auto& group : group_values(host_values, size)) {
      batches.push_back(
          {selector_of(host_names, exact_values_matcher(m_request.host_label, group), extra),
           std::move(group), true});
    }
    // 3. Fetched ahead on a thread of its own, at most queries_in_flight at a time; each answer
    // laid out and freed in turn. The switches' queue traffic, when asked for apart, comes
    // between the switch groups and the host groups: what a switch wants depends on the rest of
    // its series.
    std::size_t failed = 0;
    {
      PipelinedFetch fetch(m_client, requests_of(batches, 0, switch_batches),
                           m_request.queries_in_flight);
      failed += read_batches(fetch, batches, 0, switch_batches, batches.size(), first_error);
    }
    // The queue traffic and the host groups in one pipeline: the server computes the first host
    // answers while the switches are laid out and loaded.
    std::vector<Batch> traffic;
    if (m_request.queue_traffic_rule) {
      traffic = queue_traffic_batches();
    }
    std::vector<HttpRequest> requests = requests_of(traffic, 0, traffic.size());
    for (auto& request : requests_of(batches, switch_batches, batches.size())) {
      requests.push_back(std::move(request));
    }
    PipelinedFetch fetch(m_client, std::move(requests), m_request.queries_in_flight);
    read_batches(fetch, traffic, 0, traffic.size(), traffic.size(), first_error);
    finish_switches();
    failed += read_host_batches(fetch, batches, switch_batches, batches.size(), first_error);
    if (failed == batches.size() && first_error) {
      return *first_error;
    }
    finish();
    return std::move(m_read);
  }

 private:
  // How a switch was selected: by its switch label's value, else its host label's.
  struct SwitchValue {
    std::string value;
    bool by_host_label = false;
  };

  // The range queries of batches[first, end).
  std::vector<HttpRequest> requests_of(const std::vector<Batch>& batches, std::size_t first,
                                       std::size_t end) const {
    std::vector<HttpRequest> requests;
    for (std::size_t i = first; i < end; ++i) {
      requests.push_back(range_request(batches[i].promql));
    }
    return requests;
  }

  // Switch (or queue traffic) batches[first, end), numbered among `count`, one after another:
  // their series go to the switch bundle, finished once all are read. The number that failed.
  std::size_t read_batches(PipelinedFetch& fetch, const std::vector<Batch>& batches,
                           std::size_t first, std::size_t end, std::size_t count,
                           std::optional<Error>& first_error) {
    const std::size_t failed_before = m_read.stats.failed_batches;
    for (std::size_t i = first; i < end; ++i) {
      read_switch_batch(batches[i], i + 1, count, fetch.next(), first_error);
    }
    m_read.stats.queries += end - first;
    return m_read.stats.failed_batches - failed_before;
  }

  // The host batches[first, end): each laid out as bundle files on a thread of its own once its
  // answer came, up to layout_threads at once, and taken into the read in their order (its hosts
  // handed to the sink, or the tree), so that the read does not depend on the threads. The
  // number that failed.
  std::size_t read_host_batches(PipelinedFetch& fetch, const std::vector<Batch>& batches,
                                std::size_t first, std::size_t end,
                                std::optional<Error>& first_error) {
    const std::size_t failed_before = m_read.stats.failed_batches;
    // A parser per layout thread: the batches in flight at once have distinct i % at_once.
    const std::size_t at_once = std::max<std::size_t>(1, m_request.layout_threads);
    while (m_parsers.size() < at_once) {
      m_parsers.push_back(std::make_unique<AnswerParser>());
    }
    run_in_order(
        end - first, at_once,
        [&](std::size_t i) {
          return [this, &batch = batches[first + i], number = first + i + 1, count = batches.size(),
                  outcome = fetch.next(), &parser = *m_parsers[i % at_once]] {
            return lay_out_hosts(batch, number, count, outcome, parser);
          };
        },
        [&](HostLayout laid) { take_hosts(std::move(laid), first_error); });
    m_parsers.clear();  // the last answer is read: their memory goes
    m_read.stats.queries += end - first;
    return m_read.stats.failed_batches - failed_before;
  }

  // The queries for the queue traffic the switches want (queue_traffic_rule): per group of
  // switches, their sent packets, their sent bytes, or both.
  std::vector<Batch> queue_traffic_batches() const {
    // (names asked for, selected by host label) -> the label values
    std::map<std::pair<std::string, bool>, std::vector<std::string>> groups;
    for (const auto& [sw, wanted] :
         m_switch_bundle.queue_traffic_wanted(m_request.queue_traffic_rule)) {
      const auto selected = m_switch_selected_by.find(sw);
      if (selected == m_switch_selected_by.end()) {
        continue;
      }
      const std::string names = queue_traffic_pattern(wanted);
      // Its series may come by either label (IF-MIB by the switch's, queues by its instance).
      for (const SwitchValue& by : selected->second) {
        groups[{names, by.by_host_label}].push_back(by.value);
      }
    }
    std::vector<Batch> out;
    for (auto& [key, values] : groups) {
      const auto& [names, by_host_label] = key;
      const std::string& label = by_host_label ? m_request.host_label : m_layout.switch_label;
      for (auto& group : group_values(values, m_request.machines_per_query)) {
        out.emplace_back(selector_of(names, exact_values_matcher(label, group), m_request.selector),
                         std::move(group), false, by_host_label, "queue traffic");
      }
    }
    return out;
  }

  HttpRequest get(std::string url) const {
    HttpRequest one;
    one.url = std::move(url);
    one.timeout = m_request.timeout;
    return one;
  }

  HttpRequest range_request(const std::string& promql) const {
    std::string base = m_request.url;
    while (!base.empty() && base.back() == '/') {
      base.pop_back();
    }
    HttpRequest one = get(base + "/api/v1/query_range");
    one.method = "POST";
    one.headers = {"Content-Type: application/x-www-form-urlencoded"};
    one.body = query_range_form(RangeQuery{promql, m_start, m_request.at, m_step});
    return one;
  }

  // The answer's body when it is a 2xx, else the error; counts the bytes.
  Result<std::string_view> body_of(const HttpOutcome& outcome, std::size_t& bytes) const {
    if (!outcome.ok()) {
      return outcome.error();
    }
    bytes += outcome->body.size();
    if (outcome->status / 100 != 2) {
      // Prometheus explains a refusal in a JSON error body.
      auto refused = parse_range_answer(outcome->body);
      return make_error(ErrorCode::Io,
                        fmt::format("HTTP {}{}", outcome->status,
                                    refused.ok() ? "" : ": " + refused.error().message));
    }
    return std::string_view(outcome->body);
  }

  Result<std::vector<std::string>> label_values(const HttpOutcome& outcome) {
    auto body = body_of(outcome, m_read.stats.bytes);
    auto out =
        body.ok() ? parse_label_values(*body) : Result<std::vector<std::string>>(body.error());
    if (!out.ok()) {
      Error error = out.error();
      error.context = m_shown;
      return error;
    }
    return out;
  }

  // What one answer gave, apart from the reader's state: its problems (Prometheus' warnings), or
  // the failure that left its machines out.
  struct AnswerRead {
    std::vector<Error> problems;
    std::optional<Error> failure;
    std::size_t series = 0;
    std::size_t bytes = 0;
  };

  // One host batch laid out on its own, so that batches are laid out on several threads at once
  // and merged in their order (the result does not depend on the threads).
  struct HostLayout {
    AnswerRead answer;
    std::size_t hosts = 0;
    std::size_t unnamed = 0;
    std::size_t late_switch_series = 0;
    LeftOut left_out;
    std::unique_ptr<FileTree> tree;  // with a sink: the batch's files
    MachineFiles files;              // without one
    std::optional<Error> silent;     // hosts of the batch without a series
  };

  std::string batch_name(const Batch& batch, std::size_t number, std::size_t count) const {
    return fmt::format("{}batch {} of {} ({} {})", batch.what.empty() ? "" : batch.what + " ",
                       number, count, batch.hosts ? "hosts" : "switches", name_some(batch.values));
  }

  // Reads `outcome`, the answer to `batch`, a series at a time into `each`.
  AnswerRead read_answer(const Batch& batch, const std::string& what, const HttpOutcome& outcome,
                         AnswerParser& parser, const SeriesVisitor& each) const {
    AnswerRead out;
    auto body = body_of(outcome, out.bytes);
    auto warnings = body.ok() ? parser.read(outcome->body,
                                            [&](PromSeries& series) {
                                              ++out.series;
                                              each(series);
                                            })
                              : Result<std::vector<std::string>>(body.error());
    if (!warnings.ok()) {
      Error error = warnings.error();
      error.context = m_shown;
      error.message =
          fmt::format("{} failed: {}; {} not in the diagnosis", what, error.message,
                      batch.hosts ? "these hosts are"
                                  : (batch.what.empty() ? "these switches' ports are"
                                                        : "these switches' " + batch.what + " is"));
      out.failure = std::move(error);
      return out;
    }
    for (const auto& warning : *warnings) {
      out.problems.push_back(make_error(
          ErrorCode::Io,
          fmt::format("{}: Prometheus warned \"{}\"; its answer may be partial", what, warning),
          m_shown));
    }
    return out;
  }

  // Adds what an answer gave to the read; false when it failed.
  bool take_answer(AnswerRead& answer, std::optional<Error>& first_error) {
    m_read.stats.bytes += answer.bytes;
    if (answer.failure) {
      first_error = first_error.value_or(*answer.failure);
      m_read.problems.push_back(std::move(*answer.failure));
      ++m_read.stats.failed_batches;
      return false;
    }
    std::move(answer.problems.begin(), answer.problems.end(), std::back_inserter(m_read.problems));
    m_read.stats.series += answer.series;
    return true;
  }

  // A switch (or queue traffic) batch: its series go to the switch bundle as they are read (a
  // switch's series come in several batches).
  void read_switch_batch(const Batch& batch, std::size_t number, std::size_t count,
                         const HttpOutcome& outcome, std::optional<Error>& first_error) {
    AnswerRead answer = read_answer(
        batch, batch_name(batch, number, count), outcome, *m_parsers.front(),
        [&](PromSeries& series) {
          if (batch.skip_switch_labelled && !series.label(m_layout.switch_label).empty()) {
            return;
          }
          const std::string machine = machine_of(series, m_layout);
          if (machine.empty()) {
            ++m_unnamed;
          } else {
            m_switch_bundle.add(machine, series);
          }
        });
    take_answer(answer, first_error);
  }

  // A host batch laid out as bundle files; reads only what does not change while host batches
  // are read (run on several threads at once).
  HostLayout lay_out_hosts(const Batch& batch, std::size_t number, std::size_t count,
                           const HttpOutcome& outcome, AnswerParser& parser) const {
    HostLayout out;
    const std::string what = batch_name(batch, number, count);
    HostBundle hosts(m_layout.source, out.left_out);
    std::set<std::string> seen;
    out.answer = read_answer(batch, what, outcome, parser, [&](PromSeries& series) {
      const std::string machine = machine_of(series, m_layout);
      if (machine.empty()) {
        ++out.unnamed;
      } else if (m_switches.count(machine) != 0) {
        ++out.late_switch_series;  // the switches were finished with their own groups
      } else {
        hosts.add(machine, series);
        seen.insert(machine);
      }
    });
    if (out.answer.failure) {
      return out;
    }
    out.files = hosts.finish(out.answer.problems);
    out.hosts = out.files.size();
    if (m_sink != nullptr) {
      out.tree = tree_of("hosts", out.files);
    }
    std::vector<std::string> silent;
    for (const auto& value : batch.values) {
      const std::string host = host_from_instance(value);
      if (seen.count(host) == 0 && m_switches.count(host) == 0) {
        silent.push_back(value);
      }
    }
    if (!silent.empty()) {
      out.silent =
          make_error(ErrorCode::NotFound,
                     fmt::format("{}: no series in the window for {} {}; not in the diagnosis",
                                 what, silent.size() == 1 ? "host" : "hosts", name_some(silent)),
                     m_shown);
    }
    return out;
  }

  // A laid-out host batch into the read: its problems, its hosts to the sink (or the tree).
  void take_hosts(HostLayout laid, std::optional<Error>& first_error) {
    m_unnamed += laid.unnamed;
    m_late_switch_series += laid.late_switch_series;
    m_left_out.unsafe += laid.left_out.unsafe;
    if (!take_answer(laid.answer, first_error)) {
      return;
    }
    m_read.stats.hosts += laid.hosts;
    if (laid.tree) {
      hand_over(std::move(laid.tree));
    } else {
      emit("hosts", laid.files);
    }
    if (laid.silent) {
      m_read.problems.push_back(std::move(*laid.silent));
    }
  }

  // Sample directories named by their place on the query's grid of point times ("000", "001"),
  // so that every batch names a time alike.
  std::map<double, std::string> sample_names(const MachineFiles& machines) const {
    const auto points = static_cast<std::size_t>(std::floor(m_request.window / m_step + 1e-9)) + 1;
    const int width = std::max(3, static_cast<int>(std::to_string(points).size()));
    std::map<double, std::string> names;
    for (const auto& [machine, samples] : machines) {
      for (const auto& [time, files] : samples) {
        const double place = std::max(0.0, std::round((time - m_start) / m_step));
        names.emplace(time, fmt::format("{:0{}}", static_cast<long long>(place), width));
      }
    }
    return names;
  }

  // `machines` written under root/ into a tree of their own, to be handed to the sink; they go.
  std::unique_ptr<FileTree> tree_of(std::string_view root, MachineFiles& machines) const {
    ArchiveTreeBuilder tree(m_layout.source);
    emit_machine_files(
        root, machines, sample_names(machines),
        [&tree](std::string path, std::string content) { tree.add_file(path, content); });
    machines.clear();
    return tree.finish();
  }

  void hand_over(std::unique_ptr<FileTree> tree) {
    std::vector<Error> problems = hand_machines_to(std::move(tree), *m_sink);
    std::move(problems.begin(), problems.end(), std::back_inserter(m_read.problems));
  }

  // `machines` into the read: handed to the sink, or kept in the read's tree without one.
  void emit(std::string_view root, MachineFiles& machines) {
    if (m_sink != nullptr) {
      hand_over(tree_of(root, machines));
      return;
    }
    emit_machine_files(
        root, machines, sample_names(machines),
        [this](std::string path, std::string content) { m_builder.add_file(path, content); });
  }

  // A group of switches rendered as files, and written into a tree of its own for the sink
  // (run on several threads at once).
  struct SwitchLayout {
    std::size_t switches = 0;
    RenderedSwitches rendered;
    std::unique_ptr<FileTree> tree;  // with a sink: the group's files
  };
  SwitchLayout lay_out_switches(SwitchLayouts group) const {
    SwitchLayout out;
    out.switches = group.size();
    out.rendered = render_switches(std::move(group));
    if (m_sink != nullptr) {
      out.tree = tree_of("switches", out.rendered.files);
    }
    return out;
  }

  // Every switch's files, a group at a time: each group laid out on a thread of its own, up to
  // layout_threads at once, and handed over in the groups' order (so the read does not depend on
  // the threads); a switch's layout goes as its files are written.
  void finish_switches() {
    std::vector<SwitchLayouts> groups = m_switch_bundle.take_groups(m_request.machines_per_query);
    std::vector<std::vector<std::string>> lacking;  // per family, the switches lacking it
    run_in_order(
        groups.size(), m_request.layout_threads,
        [&](std::size_t i) {
          return [this, group = std::move(groups[i])]() mutable {
            return lay_out_switches(std::move(group));
          };
        },
        [&](SwitchLayout laid) {
          m_read.stats.switches += laid.switches;
          gather_lacking(laid.rendered, lacking);
          if (laid.tree) {
            hand_over(std::move(laid.tree));
          } else {
            emit("switches", laid.rendered.files);
          }
        });
    add_lacking_problems(lacking, m_read.problems, m_layout.source);
  }

  void finish() {
    m_read.tree = m_builder.finish();
    add_left_out_problems(m_unnamed, m_left_out, m_layout, m_read.problems);
    if (m_late_switch_series > 0) {
      m_read.problems.push_back(make_error(
          ErrorCode::Parse,
          fmt::format("{} series of the host groups name a switch (their '{}' label) and were "
                      "left out: a host's series belong to the host",
                      m_late_switch_series, m_layout.switch_label),
          m_shown));
    }
    if (m_read.stats.switches == 0) {
      m_read.problems.push_back(make_error(
          ErrorCode::NotFound,
          fmt::format("switch data not available: no switch series between {:.3f} and {:.3f}{} "
                      "(snmp_exporter if_mib, netdoctor_switch_pfc_*, sonic_queue_*), so switch "
                      "ports, their PFC and queue counters are not in the diagnosis "
                      "(docs/prometheus.md)",
                      m_start, m_request.at,
                      m_request.selector.empty() ? "" : " matching " + m_request.selector),
          m_shown));
    }
  }

  HttpClient& m_client;
  const PrometheusRequest& m_request;
  MachineSink* m_sink;
  std::string m_shown;
  double m_step;
  double m_start;
  PromLayoutOptions m_layout;
  std::set<std::string> m_switches;
  // switch -> how its groups select it: by the switch label (snmp_exporter), by the host label
  // (an exporter on the switch), or both
  std::map<std::string, std::vector<SwitchValue>> m_switch_selected_by;
  LeftOut m_left_out;
  std::size_t m_unnamed = 0;
  std::size_t m_late_switch_series = 0;
  ArchiveTreeBuilder m_builder;
  SwitchBundle m_switch_bundle;
  // What reading answers allocates, kept from one answer to the next: the first reads the switch
  // answers, then one per layout thread reads the host answers.
  std::vector<std::unique_ptr<AnswerParser>> m_parsers;
  PrometheusRead m_read;
};

}  // namespace

std::string host_metric_pattern(
    const std::vector<std::string>& ethtool_stats,
    const std::function<bool(std::string_view file)>& sysfs_counter_wanted) {
  std::vector<std::string> names = sysfs_metric_names(sysfs_counter_wanted);
  names.emplace_back("node_ethtool_info");
  if (ethtool_stats.empty()) {
    names.emplace_back("node_ethtool_.+");
  }
  std::set<std::string> ethtool;
  for (const auto& stat : ethtool_stats) {
    if (auto metric = ethtool_metric_from_stat(stat)) {
      ethtool.insert(*metric);
    }
  }
  names.insert(names.end(), ethtool.begin(), ethtool.end());
  names.emplace_back(k_textfile_names);
  return fmt::format("{}", fmt::join(names, "|"));
}

Result<PrometheusRead> read_prometheus(HttpClient& client, const PrometheusRequest& request,
                                       MachineSink* sink) {
  const std::string shown = redact_url(request.url);
  const double step = request.step.value_or(request.window);
  if (!(request.window > 0.0) || !(step > 0.0) || !std::isfinite(request.at)) {
    return make_error(ErrorCode::InvalidArgument, "window and step must be positive", shown);
  }
  if (request.window / step > k_max_points) {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("window / step is over {} points; use a larger step", k_max_points), shown);
  }
  return Reader(client, request, sink).run();
}

}  // namespace netdoctor::remote
