// ib-link-errors: physical-layer damage on every cable of the InfiniBand subnet, judged by what
// grew while the capture ran, never by the history the counters carry.
//
// Reads each port's PMA error counters over two fabric samples (perfquery -x, or ibdiagnet's
// PM file): SymbolErrorCounter, PortRcvErrors, LocalLinkIntegrityErrors,
// ExcessiveBufferOverrunErrors, LinkErrorRecoveryCounter, LinkDownedCounter and
// PortRcvRemotePhysicalErrors. A healthy subnet carries traffic with fewer symbol errors than
// its bit error ratio target allows: the port's data rate x {ber_limit} x the window is the
// budget (on HDR and NDR symbol errors are what FEC could not correct, what the application
// sees). Its other error counters stay flat, and no link retrains or goes down.
//
// A port receiving symbol errors beyond its budget, or whose receive error counters grow, sits
// on a damaged cable, optic or port: named first, then the port at the other end and the link
// (ib-link-errors; the peer is named in the link). A link that retrained or went down during the
// window is flapping now (ib-link-flap). Packets arriving already marked bad
// (PortRcvRemotePhysicalErrors) were damaged before the far end forwarded them: the peer's side is
// to blame (ib-remote-errors). A counter stuck at its maximum says only "at least that many, some
// time": history, never a rate (ib-error-history, weak). Frozen counts, however high, are history
// and judged healthy.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "probes/fleet_probe.h"
#include "probes/ib_links.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Unit conversion, not a judgement.
constexpr double k_bits_per_gbit = 1e9;

// An error counter: its canonical metric, its IBTA name, and the all-ones maximum of its
// PortCounters field (IBTA vol 1, 16.1.3.5), which a saturated value is "at least".
struct Counter {
  const char* metric;
  const char* name;
  double maximum;
};
constexpr Counter k_symbol{metric::k_ib_symbol_errors, "SymbolErrorCounter", 65535.0};
constexpr Counter k_recovery{metric::k_ib_link_error_recovery, "LinkErrorRecoveryCounter", 255.0};
constexpr Counter k_downed{metric::k_ib_link_downed, "LinkDownedCounter", 255.0};
constexpr Counter k_remote{metric::k_ib_rcv_remote_physical_errors, "PortRcvRemotePhysicalErrors",
                           65535.0};
// Damage received on the port's own cable, besides symbol errors.
constexpr Counter k_receive[] = {
    {metric::k_ib_rcv_errors, "PortRcvErrors", 65535.0},
    {metric::k_ib_local_link_integrity_errors, "LocalLinkIntegrityErrors", 15.0},
    {metric::k_ib_excessive_buffer_overrun, "ExcessiveBufferOverrunErrors", 15.0}};

struct PortErrors {
  IbEnd end;
  double window_s = 0.0;
  std::optional<double> symbols;  // growth in the window
  double budget = 0.0;            // symbol errors the BER target allows over the window
  std::vector<std::pair<std::string, double>> receive;  // counters that grew, by name
  double downs = 0.0;
  double recoveries = 0.0;
  double remote = 0.0;
  std::vector<std::string> saturated;  // "SymbolErrorCounter at least 65535"
};

struct Survey {
  std::vector<PortErrors> ports;  // ports with a rate of their error counters
  std::size_t total = 0;          // cabled or up ports
  std::size_t resets = 0;         // ports whose counters went down in the window (cleared)
};

// The growth of one counter over the window; nullopt when it has no rate.
std::optional<double> growth(const model::IbPort& port, const char* metric, bool& reset) {
  const Reading r = read_counter(port.samples, metric);
  reset = reset || r.status == model::RateStatus::Reset;
  return r.is_rate() ? std::optional<double>(r.delta) : std::nullopt;
}

double window_of(const model::IbPort& port) {
  for (const char* metric : {k_symbol.metric, k_downed.metric, k_receive[0].metric}) {
    const Reading r = read_counter(port.samples, metric);
    if (r.is_rate()) {
      return r.window_s;
    }
  }
  return 0.0;
}

// The symbol errors a port may receive over the window and still meet the BER target.
double symbol_budget(const model::IbPort& port, double window_s, const Judgement& judgement) {
  const double gbps = port.data_gbps.value_or(port.supported_data_gbps.value_or(0.0));
  return std::max(judgement.limit("min_symbol_errors"),
                  gbps * k_bits_per_gbit * window_s * judgement.limit("ber_limit"));
}

void read_saturated(const model::IbPort& port, PortErrors& out) {
  for (const Counter& c :
       {k_symbol, k_recovery, k_downed, k_remote, k_receive[0], k_receive[1], k_receive[2]}) {
    if (port.saturated.count(c.metric) != 0) {
      out.saturated.push_back(fmt::format("{} at least {:.0f}", c.name, c.maximum));
    }
  }
}

// One port's errors, or nullopt when its counters have no rate over the window.
std::optional<PortErrors> read_port(const IbEnd& end, const Judgement& judgement, bool& reset) {
  const model::IbPort& port = *end.port;
  PortErrors out;
  out.end = end;
  out.window_s = window_of(port);
  read_saturated(port, out);
  out.symbols = growth(port, k_symbol.metric, reset);
  out.budget = symbol_budget(port, out.window_s, judgement);
  bool any = out.symbols.has_value();
  for (const Counter& c : k_receive) {
    const auto grew = growth(port, c.metric, reset);
    any = any || grew.has_value();
    if (grew && *grew > 0.0) {
      out.receive.emplace_back(c.name, *grew);
    }
  }
  const auto downs = growth(port, k_downed.metric, reset);
  const auto recoveries = growth(port, k_recovery.metric, reset);
  const auto remote = growth(port, k_remote.metric, reset);
  any = any || downs || recoveries || remote;
  out.downs = downs.value_or(0.0);
  out.recoveries = recoveries.value_or(0.0);
  out.remote = remote.value_or(0.0);
  if (!any && out.saturated.empty()) {
    return std::nullopt;
  }
  return out;
}

// Symbol errors beyond the budget, or receive errors growing: the cable this port receives on.
void judge_damage(const PortErrors& p, Judgement& judgement) {
  std::vector<std::string> parts;
  double strength = 0.0;
  const bool over_budget = p.symbols && *p.symbols > p.budget;
  if (over_budget) {
    strength = saturating(*p.symbols / p.budget, judgement.limit("budget_half_strength"));
    parts.push_back(
        fmt::format("{} SymbolErrorCounter in {:.0f} s, over its budget of {} (BER "
                    "{:.0g} at {} Gb/s)",
                    human(*p.symbols), p.window_s, human(p.budget), judgement.limit("ber_limit"),
                    human(p.end.port->data_gbps.value_or(0.0))));
  }
  double received = 0.0;
  for (const auto& [name, delta] : p.receive) {
    received += delta;
    parts.push_back(fmt::format("{} {}", human(delta), name));
  }
  if (received >= judgement.limit("min_receive_errors")) {
    strength = std::max(strength, saturating(received, judgement.limit("receive_half_strength")));
  } else if (strength == 0.0) {
    return;
  }
  std::string text = fmt::format("{} receives errors on its cable: ", p.end.label());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    text += (i == 0 ? "" : "; ") + parts[i];
  }
  // The deciding figure: symbol errors against their budget, else the receive errors (none
  // is normal).
  judgement.find("ib-link-errors", ib_port_and_link(judgement.fabric().ib, p.end), strength, text,
                 over_budget ? *p.symbols : received, over_budget ? p.budget : 0.0, "errors");
}

// A retrain or a link-down in the window, once per link (both ends count the same event).
void judge_flap(const PortErrors& p, std::set<std::string>& links, Judgement& judgement) {
  const double events = p.downs + p.recoveries;
  if (events < judgement.limit("min_flap_events")) {
    return;
  }
  const std::string link = ib_link_name(judgement.fabric().ib, p.end);
  if (!link.empty() && !links.insert(link).second) {
    return;
  }
  judgement.find("ib-link-flap", ib_link_entities(judgement.fabric().ib, p.end),
                 saturating(events, judgement.limit("flap_half_strength")),
                 fmt::format("{} went down {} times and retrained {} times in {:.0f} s "
                             "(LinkDownedCounter, LinkErrorRecoveryCounter)",
                             p.end.label(), human(p.downs), human(p.recoveries), p.window_s),
                 events, 0.0, "events");
}

// Packets that arrive already marked bad were damaged before the far end forwarded them.
void judge_remote(const PortErrors& p, Judgement& judgement) {
  if (p.remote < judgement.limit("min_remote_errors")) {
    return;
  }
  const IbEnd peer = ib_peer_end(judgement.fabric().ib, p.end);
  judgement.find("ib-remote-errors", ib_link_entities(judgement.fabric().ib, p.end, true),
                 saturating(p.remote, judgement.limit("remote_half_strength")),
                 fmt::format("{} received {} packets already marked bad "
                             "(PortRcvRemotePhysicalErrors) in {:.0f} s: damaged at or before {}",
                             p.end.label(), human(p.remote), p.window_s,
                             peer.known() ? peer.label() : std::string("its peer")),
                 p.remote, 0.0, "packets");
}

// A counter at its maximum: at least that many errors, some time since it was last cleared.
void judge_history(const PortErrors& p, Judgement& judgement) {
  if (p.saturated.empty()) {
    return;
  }
  std::string text = fmt::format(
      "{} has error counters stuck at their maximum (history of "
      "unknown age, not a rate): ",
      p.end.label());
  for (std::size_t i = 0; i < p.saturated.size(); ++i) {
    text += (i == 0 ? "" : ", ") + p.saturated[i];
  }
  judgement.find("ib-error-history", ib_port_and_link(judgement.fabric().ib, p.end),
                 judgement.limit("history_strength"), text);
}

class IbLinkErrorsProbe final : public FleetProbe<Survey> {
 public:
  IbLinkErrorsProbe()
      : FleetProbe(
            {.id = "ib-link-errors",
             .description = "InfiniBand symbol/receive errors, retrains and link downs "
                            "growing per port, against a BER budget",
             .cost = CostClass::Passive,
             .reads = {source::k_perfquery, source::k_ibdiagnet, source::k_ibnetdiscover},
             .findings = {"ib-link-errors", "ib-link-flap", "ib-remote-errors", "ib-error-history"},
             .clearing = "ib-link-errors-ok",
             .thresholds = {"ber_limit", "min_symbol_errors", "budget_half_strength",
                            "min_receive_errors", "receive_half_strength", "min_flap_events",
                            "flap_half_strength", "min_remote_errors", "remote_half_strength",
                            "history_strength", "clean_strength"},
             .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const IbEnd& end : ib_ports(judgement.fabric().ib)) {
      if (!end.port->cabled() && !end.port->is_up()) {
        continue;  // an unused switch port
      }
      ++fleet.total;
      bool reset = false;
      if (auto errors = read_port(end, judgement, reset)) {
        fleet.ports.push_back(std::move(*errors));
      }
      fleet.resets += reset ? 1U : 0U;
    }
    if (fleet.resets > 0) {
      judgement.note(
          fmt::format("error counters cleared on {} IB ports during the window", fleet.resets));
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"IB ports", "perfquery error counters over two fabric samples", fleet.ports.size(),
             fleet.total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    std::set<std::string> flapped;
    for (const PortErrors& p : fleet.ports) {
      judge_damage(p, judgement);
      judge_flap(p, flapped, judgement);
      judge_remote(p, judgement);
      judge_history(p, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    double window = 0.0;
    for (const PortErrors& p : fleet.ports) {
      window = std::max(window, p.window_s);
    }
    Clearance healthy;
    healthy.summary = fmt::format(
        "no IB error growth over {:.0f} s on {} ports: symbol errors within the BER {:.0g} "
        "budget, receive error, retrain and link-down counters flat",
        window, fleet.ports.size(), judgement.limit("ber_limit"));
    healthy.strength = judgement.limit("clean_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_ib_link_errors_probe() {
  return std::make_unique<IbLinkErrorsProbe>();
}

}  // namespace netdoctor::probes
