#include "parsers/nccl_log.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<std::uint32_t> parse_u32(std::string_view s) {
  auto value = parse_u64(s);
  if (!value || *value > 0xffffffffu) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*value);
}

// Drops what a launcher puts before NCCL's own prefix: "[56] " (mpirun rank) or
// "[1,0]<stdout>:" (mpirun --tag-output).
std::string_view strip_launcher_prefix(std::string_view s) {
  s = trim_left(s);
  if (!s.starts_with('[')) {
    return s;
  }
  auto close = s.find(']');
  if (close == std::string_view::npos) {
    return s;
  }
  std::string_view inner = s.substr(1, close - 1);
  std::string_view after = s.substr(close + 1);
  if (all_digits(inner) && after.starts_with(' ')) {
    return trim_left(after);
  }
  if (inner.find(',') != std::string_view::npos &&
      (after.starts_with("<stdout>:") || after.starts_with("<stderr>:"))) {
    return trim_left(after.substr(9));
  }
  return s;
}

// Who printed a line: "host:pid:tid [cudaDev] [file.cc:line]" before "NCCL INFO|WARN".
struct Origin {
  std::string host;
  std::optional<std::uint64_t> pid;
  std::optional<std::uint32_t> cuda_dev;
  std::string location;
};

Origin parse_origin(std::string_view head) {
  Origin o;
  auto words = split_ws(head);
  std::size_t i = 0;
  if (!words.empty()) {
    auto parts = split(words[0], ':');
    if (parts.size() >= 3 && parse_u64(parts.back()) && parse_u64(parts[parts.size() - 2])) {
      o.pid = parse_u64(parts[parts.size() - 2]);
      std::string_view id = words[0];
      id = id.substr(0, id.rfind(':'));
      o.host = std::string(id.substr(0, id.rfind(':')));
      i = 1;
    }
  }
  if (i < words.size() && words[i].starts_with('[') && words[i].ends_with(']')) {
    o.cuda_dev = parse_u32(words[i].substr(1, words[i].size() - 2));
    ++i;
  }
  std::vector<std::string> rest;
  for (; i < words.size(); ++i) {
    rest.emplace_back(words[i]);
  }
  o.location = join(rest, " ");
  return o;
}

// "NET/IB/0/GDRDMA" -> transport "NET/IB", nic 0, GDRDMA; "P2P/IPC/read" -> "P2P/IPC";
// "SHM/direct/direct" -> "SHM".
void read_transport(std::string_view via, NcclLogChannel& ch) {
  auto words = split_ws(via);
  if (words.empty()) {
    return;
  }
  auto parts = split(words[0], '/');
  if (parts[0] == "NET" && parts.size() > 1) {
    ch.transport = "NET/" + std::string(parts[1]);
    if (parts.size() > 2) {
      ch.nic = parse_u32(parts[2]);
    }
  } else if (parts[0] == "P2P" && parts.size() > 1) {
    ch.transport = "P2P/" + std::string(parts[1]);
  } else {
    ch.transport = std::string(parts[0]);
  }
  ch.gdrdma = std::find(parts.begin(), parts.end(), "GDRDMA") != parts.end();
}

// "8[0]" -> rank 8, device "0".
bool read_endpoint(std::string_view word, std::uint32_t& rank, std::string& device) {
  auto open = word.find('[');
  auto value = parse_u32(word.substr(0, open));
  if (!value) {
    return false;
  }
  rank = *value;
  if (open != std::string_view::npos && word.ends_with(']')) {
    device = std::string(word.substr(open + 1, word.size() - open - 2));
  }
  return true;
}

std::optional<NcclLogChannel> parse_channel(const Origin& o, std::string_view msg) {
  auto words = split_ws(msg);
  auto colon = msg.find(" : ");
  auto via_at = msg.find(" via ");
  if (words.size() < 2 || (words[0] != "Channel" && words[0] != "Ring") ||
      colon == std::string_view::npos || via_at == std::string_view::npos || via_at < colon) {
    return std::nullopt;
  }
  NcclLogChannel ch;
  ch.host = o.host;
  ch.pid = o.pid;
  ch.cuda_dev = o.cuda_dev;
  ch.ring = words[0] == "Ring";
  auto id = parse_u32(words[1].substr(0, words[1].find('/')));
  auto ends = split_ws(msg.substr(colon + 3, via_at - colon - 3));
  if (!id || ends.size() < 3 || ends[1] != "->" ||
      !read_endpoint(ends[0], ch.from_rank, ch.from_device) ||
      !read_endpoint(ends[2], ch.to_rank, ch.to_device)) {
    return std::nullopt;
  }
  ch.channel = *id;
  if (ends.size() > 3 && ends[3].starts_with('[') && ends[3].ends_with(']')) {
    ch.direction = std::string(ends[3].substr(1, ends[3].size() - 2));
  }
  ch.via = std::string(trim(msg.substr(via_at + 5)));
  read_transport(ch.via, ch);
  return ch;
}

// "GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)", older "... for GPU 0 / HCA mlx5_0".
std::optional<NcclGdrState> parse_gdr(std::string_view msg) {
  auto at = msg.find("GPU Direct RDMA ");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  NcclGdrState gdr;
  std::string_view rest = msg.substr(at + 16);
  if (!rest.starts_with("Enabled") && !rest.starts_with("Disabled")) {
    return std::nullopt;
  }
  gdr.enabled = rest.starts_with("Enabled");
  if (auto hca = rest.find("HCA "); hca != std::string_view::npos) {
    auto words = split_ws(rest.substr(hca + 4));
    std::size_t i = 0;
    if (!words.empty()) {
      gdr.hca_index = parse_u32(words[0]);
      i = gdr.hca_index ? 1 : 0;
    }
    if (i < words.size()) {
      std::string_view name = words[i];
      if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'') {
        name = name.substr(1, name.size() - 2);
      }
      gdr.hca = std::string(name);
    }
  }
  if (rest.ends_with(')')) {
    auto open = rest.rfind('(');
    gdr.note = std::string(rest.substr(open + 1, rest.size() - open - 2));
  }
  return gdr;
}

// "NCCL_IB_GID_INDEX set by environment to 3." / "NCCL_IB_HCA set to mlx5_4".
std::optional<std::pair<std::string, std::string>> parse_env(std::string_view msg) {
  if (!msg.starts_with("NCCL_")) {
    return std::nullopt;
  }
  std::string_view name = msg.substr(0, msg.find(' '));
  for (std::string_view phrase : {" set by environment to ", " set to "}) {
    if (auto at = msg.find(phrase); at == name.size()) {
      std::string_view value = trim(msg.substr(at + phrase.size()));
      if (value.ends_with('.')) {
        value.remove_suffix(1);
      }
      return std::pair{std::string(name), std::string(value)};
    }
  }
  return std::nullopt;
}

// "comm 0x.. rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x.. - Init COMPLETE".
std::optional<NcclLogRank> parse_comm(const Origin& o, std::string_view msg) {
  if (!contains(msg, "comm 0x") || !contains(msg, " nranks ") || !contains(msg, "Init ")) {
    return std::nullopt;
  }
  NcclLogRank r;
  r.host = o.host;
  r.pid = o.pid;
  auto words = split_ws(msg);
  bool has_rank = false;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string_view key = words[i];
    const std::string_view value = words[i + 1];
    if (key == "comm") {
      r.comm = std::string(value);
    } else if (key == "rank" && parse_u32(value)) {
      r.rank = *parse_u32(value);
      has_rank = true;
    } else if (key == "nranks") {
      r.nranks = parse_u32(value);
    } else if (key == "cudaDev") {
      r.cuda_dev = parse_u32(value);
    } else if (key == "busId") {
      r.bus_id = std::string(value);
    } else if (key == "commId") {
      r.comm_id = std::string(value);
    }
  }
  r.init_complete = msg.ends_with("Init COMPLETE");
  return has_rank ? std::optional<NcclLogRank>(std::move(r)) : std::nullopt;
}

std::string version_in(std::string_view text) {
  auto at = text.find("NCCL version ");
  if (at == std::string_view::npos) {
    return {};
  }
  auto words = split_ws(text.substr(at + 13));
  return words.empty() ? std::string() : std::string(words[0]);
}

// Collects the record, host by host.
class Builder {
 public:
  void version(std::string version) {
    if (!version.empty() &&
        std::find(m_log.versions.begin(), m_log.versions.end(), version) == m_log.versions.end()) {
      m_log.versions.push_back(std::move(version));
    }
  }

  void warn(const Origin& o, std::string_view msg) {
    host(o);
    m_log.warnings.push_back({o.host, o.pid, o.location, std::string(msg)});
  }

  // False when the line gives nothing the record keeps.
  bool info(const Origin& o, std::string_view msg) {
    if (auto v = version_in(msg); !v.empty() && msg.starts_with("NCCL version")) {
      host(o);
      version(std::move(v));
      return true;
    }
    if (auto env = parse_env(msg)) {
      m_log.env[env->first] = env->second;
      return true;
    }
    if (auto ch = parse_channel(o, msg)) {
      host(o);
      m_log.channels.push_back(std::move(*ch));
      return true;
    }
    if (auto rank = parse_comm(o, msg)) {
      add_rank(std::move(*rank));
      return true;
    }
    if (auto gdr = parse_gdr(msg)) {
      add_gdr(host(o), std::move(*gdr));
      return true;
    }
    return net_line(host(o), msg);
  }

  NcclLog take() { return std::move(m_log); }

 private:
  NcclLogHost& host(const Origin& o) {
    auto it = std::find_if(m_log.hosts.begin(), m_log.hosts.end(),
                           [&o](const NcclLogHost& h) { return h.host == o.host; });
    NcclLogHost& h = it != m_log.hosts.end() ? *it : m_log.hosts.emplace_back();
    h.host = o.host;
    if (o.pid && std::find(h.pids.begin(), h.pids.end(), *o.pid) == h.pids.end()) {
      h.pids.push_back(*o.pid);
    }
    return h;
  }

  // "NET/IB : Using ...", "NET/Socket : Using ...", "Using network X", "Connected all rings,
  // use ring PXN 0 GDR 0".
  static bool net_line(NcclLogHost& h, std::string_view msg) {
    if (msg.starts_with("Connected all rings") && contains(msg, " GDR ")) {
      auto words = split_ws(msg.substr(msg.find(" GDR ") + 5));
      if (!words.empty() && (words[0] == "0" || words[0] == "1")) {
        h.rings_gdr = words[0] == "1";
        return true;
      }
      return false;
    }
    if (msg.starts_with("Using network ")) {
      auto words = split_ws(msg.substr(14));
      h.network = words.empty() ? std::string() : std::string(words[0]);
      return true;
    }
    if (msg.starts_with("NET/IB") && contains(msg, "Using [")) {
      bool relaxed = false;
      auto devices = parse_nccl_net_ib_devices(msg, relaxed);
      if (h.ib_devices.empty()) {
        h.ib_devices = std::move(devices);
        h.relaxed_ordering = relaxed;
        if (auto oob = msg.find("OOB "); oob != std::string_view::npos) {
          auto words = split_ws(msg.substr(oob + 4));
          h.oob = words.empty() ? std::string() : std::string(words[0]);
        }
      }
      return true;
    }
    if (msg.starts_with("NET/Socket") && contains(msg, "Using [")) {
      for (auto word : split_ws(msg.substr(msg.find("Using [") + 6))) {
        auto close = word.find(']');
        if (!word.starts_with('[') || close == std::string_view::npos) {
          continue;
        }
        std::string dev(word.substr(close + 1));
        if (std::find(h.socket_devices.begin(), h.socket_devices.end(), dev) ==
            h.socket_devices.end()) {
          h.socket_devices.push_back(std::move(dev));
        }
      }
      return true;
    }
    return false;
  }

  static void add_gdr(NcclLogHost& h, NcclGdrState gdr) {
    auto same = [&gdr](const NcclGdrState& g) {
      return g.hca_index == gdr.hca_index && g.hca == gdr.hca && g.enabled == gdr.enabled;
    };
    if (std::none_of(h.gdr.begin(), h.gdr.end(), same)) {
      h.gdr.push_back(std::move(gdr));
    }
  }

  void add_rank(NcclLogRank rank) {
    Origin o{rank.host, rank.pid, rank.cuda_dev, {}};
    host(o);
    auto it = std::find_if(m_log.ranks.begin(), m_log.ranks.end(), [&rank](const NcclLogRank& r) {
      return r.comm == rank.comm && r.rank == rank.rank && r.host == rank.host;
    });
    if (it == m_log.ranks.end()) {
      m_log.ranks.push_back(std::move(rank));
    } else {
      it->init_complete = it->init_complete || rank.init_complete;
    }
  }

  NcclLog m_log;
};

struct Marker {
  std::size_t at = 0;
  bool warn = false;
};

std::optional<Marker> find_marker(std::string_view line) {
  auto info = line.find("NCCL INFO");
  auto warn = line.find("NCCL WARN");
  if (info == std::string_view::npos && warn == std::string_view::npos) {
    return std::nullopt;
  }
  return warn < info ? Marker{warn, true} : Marker{info, false};
}

}  // namespace

const NcclLogHost* NcclLog::find_host(std::string_view host) const {
  for (const auto& h : hosts) {
    if (h.host == host) {
      return &h;
    }
  }
  return nullptr;
}

Result<NcclLog> parse_nccl_log(std::string_view text) {
  ND_TRY(detail::check_text(text));
  Builder builder;
  std::size_t nccl_lines = 0;
  std::size_t unrecognised = 0;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = strip_launcher_prefix(trim(detail::strip_quote(raw)));
    if (line.empty()) {
      continue;
    }
    auto marker = find_marker(line);
    if (!marker) {
      if (auto v = version_in(line); !v.empty() && line.starts_with("NCCL version")) {
        ++nccl_lines;
        builder.version(std::move(v));
      } else {
        ++unrecognised;
      }
      continue;
    }
    ++nccl_lines;
    Origin origin = parse_origin(line.substr(0, marker->at));
    std::string_view message = trim(line.substr(marker->at + 9));
    if (marker->warn) {
      builder.warn(origin, message);
    } else if (!builder.info(origin, message)) {
      ++unrecognised;
    }
  }
  if (nccl_lines == 0) {
    return detail::parse_error("no 'NCCL INFO', 'NCCL WARN' or 'NCCL version' line found");
  }
  NcclLog log = builder.take();
  log.nccl_lines = nccl_lines;
  log.unrecognised_lines = unrecognised;
  return log;
}

nlohmann::json to_json(const NcclLog& log) {
  using detail::opt;
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& h : log.hosts) {
    nlohmann::json ib = nlohmann::json::array();
    for (const auto& d : h.ib_devices) {
      ib.push_back({{"index", d.index},
                    {"name", d.name},
                    {"port", d.port},
                    {"link", d.link},
                    {"sharp", d.sharp}});
    }
    nlohmann::json gdr = nlohmann::json::array();
    for (const auto& g : h.gdr) {
      gdr.push_back({{"hca_index", opt(g.hca_index)},
                     {"hca", g.hca},
                     {"enabled", g.enabled},
                     {"note", g.note}});
    }
    hosts.push_back({{"host", h.host},
                     {"pids", h.pids},
                     {"ib_devices", ib},
                     {"relaxed_ordering", h.relaxed_ordering},
                     {"oob", h.oob},
                     {"socket_devices", h.socket_devices},
                     {"network", h.network},
                     {"gdr", gdr},
                     {"rings_gdr", opt(h.rings_gdr)}});
  }
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& r : log.ranks) {
    ranks.push_back({{"rank", r.rank},
                     {"nranks", opt(r.nranks)},
                     {"host", r.host},
                     {"pid", opt(r.pid)},
                     {"cuda_dev", opt(r.cuda_dev)},
                     {"bus_id", r.bus_id},
                     {"comm", r.comm},
                     {"comm_id", r.comm_id},
                     {"init_complete", r.init_complete}});
  }
  nlohmann::json channels = nlohmann::json::array();
  for (const auto& c : log.channels) {
    channels.push_back({{"host", c.host},
                        {"pid", opt(c.pid)},
                        {"cuda_dev", opt(c.cuda_dev)},
                        {"channel", c.channel},
                        {"from_rank", c.from_rank},
                        {"from_device", c.from_device},
                        {"to_rank", c.to_rank},
                        {"to_device", c.to_device},
                        {"local_rank", c.local_rank()},
                        {"direction", c.direction},
                        {"transport", c.transport},
                        {"nic", opt(c.nic)},
                        {"gdrdma", c.gdrdma},
                        {"via", c.via},
                        {"ring", c.ring}});
  }
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& w : log.warnings) {
    warnings.push_back(
        {{"host", w.host}, {"pid", opt(w.pid)}, {"location", w.location}, {"message", w.message}});
  }
  return {{"versions", log.versions},
          {"hosts", hosts},
          {"ranks", ranks},
          {"channels", channels},
          {"env", log.env},
          {"warnings", warnings},
          {"nccl_lines", log.nccl_lines},
          {"unrecognised_lines", log.unrecognised_lines}};
}

}  // namespace netdoctor::parsers
