#include "runbook/known_commands.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"

namespace netdoctor::runbook {

namespace {

// "-d=" declares a flag taking a value; "-v" a switch.
std::vector<KnownFlag> flags(std::initializer_list<std::string_view> specs) {
  std::vector<KnownFlag> out;
  for (std::string_view spec : specs) {
    const bool value = ends_with(spec, "=");
    if (value) {
      spec.remove_suffix(1);
    }
    out.push_back({std::string(spec), value});
  }
  return out;
}

std::vector<KnownCommand> make_table() {
  const auto perftest_bw =
      flags({"-d=", "-i=", "-x=", "-s=", "-D=", "-n=", "-q=", "-m=", "-p=", "-F", "-a", "-R",
             "--report_gbits", "--tclass="});
  const auto perftest_lat =
      flags({"-d=", "-i=", "-x=", "-s=", "-n=", "-m=", "-p=", "-F", "-a", "-R", "--tclass="});
  const auto nccl_tests =
      flags({"-b=", "-e=", "-f=", "-g=", "-t=", "-n=", "-w=", "-c=", "-o=", "-d=", "-z="});
  const auto ip_flags = flags({"-d", "-s", "-4", "-6", "-br", "-j", "-p", "-o", "-details"});
  const auto rdma_flags = flags({"-d", "-j", "-p"});
  const auto counters_flags = flags({"-p=", "-a", "-i="});
  const Side h = Side::Host;
  const Side s = Side::Switch;
  const Side a = Side::Any;
  return {
      // Host: NIC and link.
      {"ethtool",
       {},
       flags({"-S", "-i", "-a", "-m", "-k", "-g", "-l", "-c", "--show-fec", "-I",
              "--include-statistics"}),
       h,
       "NIC link settings, statistics (-S), driver/firmware (-i), pause (-a), module (-m)"},
      {"ip", {"address"}, ip_flags, h, "addresses and MTU per netdev"},
      {"ip", {"addr"}, ip_flags, h, "addresses and MTU per netdev"},
      {"ip", {"link"}, ip_flags, h, "netdev state and MTU"},
      {"ip", {"route"}, ip_flags, h, "routing table"},
      {"ip", {"rule"}, ip_flags, h, "policy routing rules"},
      {"ip", {"neigh"}, ip_flags, h, "ARP / neighbour table"},
      {"ibv_devinfo",
       {},
       flags({"-v", "-d=", "-i=", "-l"}),
       h,
       "RDMA devices: firmware, port state, active MTU, speed and width"},
      {"ibv_devices", {}, {}, h, "RDMA device names"},
      {"ibstat", {}, {}, h, "RDMA port state, rate and firmware"},
      {"ibdev2netdev", {}, flags({"-v"}), h, "RDMA device to netdev map (MLNX_OFED)"},
      {"show_gids", {}, {}, h, "GID table: RoCE version and IP per GID index"},
      {"rdma", {"link", "show"}, rdma_flags, h, "RDMA link state and its netdev"},
      {"rdma", {"link"}, rdma_flags, h, "RDMA link state and its netdev"},
      {"rdma", {"statistic", "show"}, rdma_flags, h, "RDMA hw counters per port"},
      {"rdma", {"statistic"}, rdma_flags, h, "RDMA hw counters per port"},
      {"rdma", {"dev", "show"}, rdma_flags, h, "RDMA devices"},
      {"mlnx_qos", {}, flags({"-i="}), h, "NIC trust mode, PFC per priority, buffers (mlx5)"},
      {"dcb",
       {"pfc", "show"},
       flags({"-s", "-j", "-N", "-p"}),
       h,
       "PFC per priority, any driver (iproute2)"},
      {"dcb",
       {"apptrust", "show"},
       flags({"-s", "-j", "-N", "-p"}),
       h,
       "the fields the NIC classifies by (iproute2)"},
      {"dcb",
       {"app", "show"},
       flags({"-s", "-j", "-N", "-p"}),
       h,
       "DSCP/PCP to priority rules (iproute2)"},
      {"dcb",
       {"ets", "show"},
       flags({"-s", "-j", "-N", "-p"}),
       h,
       "priority to traffic class, ETS shares (iproute2)"},
      {"dcb",
       {"buffer", "show"},
       flags({"-s", "-j", "-N", "-p"}),
       h,
       "priority to receive buffer, sizes (iproute2)"},
      {"mlxlink",
       {},
       flags({"-d=", "-p=", "-m", "-e", "-c"}),
       h,
       "mlx5 link: speed, FEC, BER and error counters (-c), module (-m), eye (-e)"},
      {"mlxconfig", {"query"}, flags({"-d="}), h, "mlx5 firmware configuration"},
      {"lspci", {}, flags({"-s=", "-vv", "-v"}), h, "PCIe link speed and width of the NIC"},
      {"dmesg", {}, flags({"-T"}), h, "kernel log: PCIe bandwidth warnings, link flaps"},
      {"chronyc", {"tracking"}, flags({"-n"}), h, "clock offset against the reference"},
      {"chronyc", {"sources"}, flags({"-n", "-v"}), h, "time sources and their state"},
      {"chronyc", {"sourcestats"}, flags({"-n", "-v"}), h, "time source drift statistics"},
      {"pmc",
       {},
       flags({"-u", "-b=", "-d="}),
       h,
       "linuxptp management client: PTP offset from the master, port and servo state"},
      {"ntpq", {}, flags({"-p", "-n", "-pn"}), h, "ntpd peers: reach, offset, selected source"},
      {"lldpcli",
       {"show", "neighbors"},
       flags({"-f="}),
       h,
       "the switch port each NIC is cabled to"},
      {"ib_write_bw", {}, perftest_bw, h, "RDMA write bandwidth between two hosts"},
      {"ib_read_bw", {}, perftest_bw, h, "RDMA read bandwidth between two hosts"},
      {"ib_send_bw", {}, perftest_bw, h, "RDMA send bandwidth between two hosts"},
      {"ib_write_lat", {}, perftest_lat, h, "RDMA write latency between two hosts"},
      {"ib_read_lat", {}, perftest_lat, h, "RDMA read latency between two hosts"},
      {"ib_send_lat", {}, perftest_lat, h, "RDMA send latency between two hosts"},
      // NCCL's own view (nccl-tests; run with NCCL_DEBUG=INFO to see its transports).
      {"all_reduce_perf", {}, nccl_tests, h, "nccl-tests all-reduce: bus bandwidth per size"},
      {"all_gather_perf", {}, nccl_tests, h, "nccl-tests all-gather: bus bandwidth per size"},
      {"alltoall_perf", {}, nccl_tests, h, "nccl-tests all-to-all: bus bandwidth per size"},
      // The active search (docs/sweep.md): perftest pairs and nccl-tests through a launcher.
      {"netdoctor",
       {"sweep"},
       flags({"--hosts=", "--via=", "--format=", "--test=", "--device=", "--budget=", "--per-leaf=",
              "--leaf-map=", "--incident=", "--force"}),
       h,
       "find the slow NIC, host or link with perftest pairs and nccl-tests"},
      {"lsmod", {}, {}, h, "loaded kernel modules (nvidia_peermem for GPUDirect RDMA)"},
      {"ping", {}, flags({"-c=", "-s=", "-M=", "-I=", "-i="}), h, "reachability and path MTU"},
      {"arping", {}, flags({"-D", "-I=", "-c="}), h, "duplicate address detection"},
      {"sysctl", {}, {}, h, "kernel settings (arp_announce, rp_filter)"},
      // InfiniBand subnet (infiniband-diags, ibdiagnet): run on any host with a port on it.
      {"perfquery",
       {},
       flags({"-x", "-l", "-c", "-R", "-r", "-a", "-X", "-C=", "-P="}),
       h,
       "PMA counters of a port: PortXmitData, PortXmitWait, errors (-x 64-bit, -c Tick)"},
      {"ibqueryerrors",
       {},
       flags({"-c", "-r", "-k", "-K", "-d", "--details", "--data", "-s=", "-C=", "-P="}),
       h,
       "ports whose error counters (symbol errors, PortXmitWait, discards) are past their "
       "thresholds"},
      {"iblinkinfo",
       {},
       flags({"-l", "-p", "-d", "--switches-only", "--cas-only", "-S=", "-D=", "-C=", "-P="}),
       h,
       "every switch port: state, physical state, width, speed and the node at the other end"},
      {"ibnetdiscover",
       {},
       flags({"-p", "-l", "-s", "-C=", "-P="}),
       h,
       "the subnet's nodes, GUIDs, LIDs and cabling"},
      {"ibdiagnet",
       {},
       flags({"--pm_pause_time=", "-P=", "--routing", "-r", "-o=", "-pc", "--pc", "--get_phy_info",
              "--reset_phy_info", "-i=", "-p="}),
       h,
       "fabric-wide check: PM counters over a pause, BER, routing tables, link speeds, SMs"},
      {"ibroute",
       {},
       flags({"-a", "-n", "-M", "-C=", "-P="}),
       h,
       "a switch's forwarding table: the port each destination LID leaves by"},
      {"ibportstate",
       {},
       flags({"-C=", "-P=", "-D"}),
       h,
       "query, enable, disable or reset one port: state, width and speed active / supported"},
      {"ibswitches", {}, flags({"-C=", "-P="}), h, "the subnet's switches: GUID, description, LID"},
      {"ibhosts", {}, flags({"-C=", "-P="}), h, "the subnet's HCAs"},
      {"sminfo",
       {},
       flags({"-C=", "-P="}),
       h,
       "the master subnet manager: GUID, LID, priority, state, activity count"},
      // Switch: SONiC.
      {"show", {"pfc", "counters"}, {}, s, "PFC frames received (Rx) and sent (Tx) per port"},
      {"show", {"queue", "counters"}, {}, s, "packets, bytes and drops per port queue"},
      {"show",
       {"interfaces", "counters"},
       counters_flags,
       s,
       "per port OK/ERR/DRP/OVR counts, rates and utilisation"},
      {"show", {"interfaces", "counters", "errors"}, counters_flags, s, "per port error counts"},
      {"show", {"interfaces", "counters", "rates"}, counters_flags, s, "per port rates"},
      {"show", {"interfaces", "status"}, {}, s, "per port speed, MTU, oper state"},
      {"show",
       {"interfaces", "transceiver", "eeprom"},
       flags({"-d"}),
       s,
       "optic type and DOM (light levels)"},
      {"show", {"lldp", "table"}, {}, s, "LLDP neighbours per port"},
      {"show", {"pfcwd", "stats"}, {}, s, "PFC watchdog storms detected and restored"},
      {"show", {"pfcwd", "config"}, {}, s, "PFC watchdog action and timers"},
      {"show", {"ecn"}, {}, s, "WRED/ECN profile thresholds"},
      {"show", {"version"}, {}, s, "SONiC and ASIC firmware versions"},
      {"show", {"queue", "watermark", "unicast"}, {}, s, "peak queue occupancy"},
      {"show", {"priority-group", "watermark", "headroom"}, {}, s, "peak headroom use"},
      {"ecnconfig", {}, flags({"-l", "-p="}), s, "WRED/ECN profiles (-l lists them)"},
      // Filters and helpers usable on both sides.
      {"grep",
       {},
       flags({"-E", "-H", "-i", "-v", "-c", "-w", "-o", "-r", "-e=", "-A=", "-B="}),
       a,
       "select lines"},
      {"cat", {}, {}, a, "print a file"},
      {"ls", {}, flags({"-l"}), a, "list a directory"},
      {"head", {}, flags({"-n="}), a, "first lines"},
      {"sort", {}, flags({"-n", "-r", "-h", "-k=", "-t="}), a, "sort lines"},
      {"awk", {}, flags({"-F="}), a, "pick columns"},
      {"sleep", {}, {}, a, "wait between two reads"},
      {"date", {}, flags({"-u"}), a, "this machine's clock"},
      {"watch", {}, flags({"-n=", "-d"}), a, "repeat a command"},
  };
}

// The positional words of `words` under `form`'s flags. Strict: an unknown flag is an error;
// lenient: it is taken for a switch (to find which subcommand the words name).
Result<std::vector<std::string>> positionals(const KnownCommand& form, const Words& words,
                                             bool strict = true) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.size() < 2 || word[0] != '-') {
      out.push_back(word);
      continue;
    }
    const auto eq = word.find('=');
    const std::string name = word.substr(0, eq);
    auto flag = std::find_if(form.flags.begin(), form.flags.end(),
                             [&name](const KnownFlag& f) { return f.name == name; });
    if (flag == form.flags.end() && !strict) {
      continue;
    }
    if (flag == form.flags.end()) {
      std::vector<std::string> known;
      for (const auto& f : form.flags) {
        known.push_back(f.name);
      }
      std::string what = form.tool;
      for (const auto& w : form.words) {
        what += " " + w;
      }
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("unknown flag '{}' for '{}' (known: {})", name, what,
                                    known.empty() ? std::string("none") : join(known, " ")));
    }
    if (flag->takes_value && eq == std::string::npos) {
      if (i + 1 >= words.size()) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("flag '{}' of '{}' needs a value", name, form.tool));
      }
      ++i;
    }
  }
  return out;
}

bool words_match(const KnownCommand& form, const std::vector<std::string>& args) {
  if (args.size() < form.words.size()) {
    return false;
  }
  return std::equal(form.words.begin(), form.words.end(), args.begin());
}

void flush(std::vector<Words>& out, Words& current, std::string& word, bool& in_word) {
  if (in_word) {
    current.push_back(word);
    word.clear();
    in_word = false;
  }
  if (!current.empty()) {
    out.push_back(current);
    current.clear();
  }
}

// "NCCL_DEBUG=INFO": an environment variable's name (upper case, digits, '_') and its value.
bool is_assignment(const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) {
    return false;
  }
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

const char* to_string(Side side) {
  switch (side) {
    case Side::Host:
      return "host";
    case Side::Switch:
      return "switch";
    case Side::Any:
      return "any";
  }
  return "any";
}

const std::vector<KnownCommand>& known_commands() {
  static const std::vector<KnownCommand> k_table = make_table();
  return k_table;
}

Result<std::vector<Words>> split_command_line(std::string_view line) {
  std::vector<Words> out;
  Words current;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'' || c == '"') {
      const auto close = line.find(c, i + 1);
      if (close == std::string_view::npos) {
        return make_error(ErrorCode::Parse, fmt::format("unterminated {} quote", c));
      }
      word.append(line.substr(i + 1, close - i - 1));
      in_word = true;
      i = close;
    } else if (c == '|' || c == ';' || (c == '&' && i + 1 < line.size() && line[i + 1] == '&')) {
      if (i + 1 < line.size() && line[i + 1] == c) {
        ++i;  // "||" and "&&" separate commands like "|" and ";"
      }
      flush(out, current, word, in_word);
    } else if (c == ' ' || c == '\t') {
      if (in_word) {
        current.push_back(word);
        word.clear();
        in_word = false;
      }
    } else {
      word.push_back(c);
      in_word = true;
    }
  }
  flush(out, current, word, in_word);
  for (auto& words : out) {
    if (!words.empty() && words.front() == "sudo") {
      words.erase(words.begin());
    }
    // Leading NAME=value words are the command's environment (NCCL_DEBUG=INFO all_reduce_perf).
    while (!words.empty() && is_assignment(words.front())) {
      words.erase(words.begin());
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const Words& w) { return w.empty(); }),
            out.end());
  if (out.empty()) {
    return make_error(ErrorCode::Parse, "empty command");
  }
  return out;
}

Result<const KnownCommand*> match_command(const Words& words) {
  if (words.empty()) {
    return make_error(ErrorCode::Parse, "empty command");
  }
  std::vector<const KnownCommand*> forms;
  for (const auto& form : known_commands()) {
    if (form.tool == words.front()) {
      forms.push_back(&form);
    }
  }
  if (forms.empty()) {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("unknown tool '{}' (not in runbook/known_commands.cc)", words.front()));
  }
  // Longest subcommand first, so `show interfaces counters errors` wins over its prefix.
  std::stable_sort(forms.begin(), forms.end(), [](const KnownCommand* x, const KnownCommand* y) {
    return x->words.size() > y->words.size();
  });
  for (const KnownCommand* form : forms) {
    auto lenient = positionals(*form, words, false);
    if (!lenient.ok() || !words_match(*form, *lenient)) {
      continue;
    }
    auto strict = positionals(*form, words, true);
    if (!strict.ok()) {
      return strict.error();
    }
    return form;
  }
  std::vector<std::string> known;
  for (const KnownCommand* form : forms) {
    known.push_back(join(form->words, " "));
  }
  return make_error(ErrorCode::InvalidArgument,
                    fmt::format("unknown subcommand for '{}' in '{}' (known: {})", words.front(),
                                join(words, " "), join(known, ", ")));
}

Result<std::vector<const KnownCommand*>> check_command_line(std::string_view line) {
  ND_TRY_ASSIGN(auto commands, split_command_line(line));
  std::vector<const KnownCommand*> out;
  for (const Words& words : commands) {
    ND_TRY_ASSIGN(const KnownCommand* form, match_command(words));
    out.push_back(form);
    if (form->tool == "watch") {
      // The repeated command is one quoted argument: check it as well.
      ND_TRY_ASSIGN(auto args, positionals(*form, words));
      if (args.empty()) {
        return make_error(ErrorCode::InvalidArgument, "watch needs a command");
      }
      ND_TRY_ASSIGN(auto inner, check_command_line(args.front()));
      out.insert(out.end(), inner.begin(), inner.end());
    }
  }
  return out;
}

}  // namespace netdoctor::runbook
