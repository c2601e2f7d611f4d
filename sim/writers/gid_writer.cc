#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstdio>

#include "base/strings.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

using Words = std::array<std::uint16_t, 8>;

constexpr int k_table_size = 8;  // entries written: the used ones, then zero ones

struct GidEntry {
  std::string gid;   // sysfs form: 8 groups of 4 hex digits
  std::string ipv4;  // show_gids' IPv4 column
  int version = 2;
};

std::string gid_text(const Words& words) {
  return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}:{:04x}:{:04x}:{:04x}:{:04x}", words[0], words[1],
                     words[2], words[3], words[4], words[5], words[6], words[7]);
}

// fe80::/64 with the EUI-64 of the MAC, as the kernel derives the default GID.
Words link_local(const std::string& mac) {
  unsigned m[6] = {};
  std::sscanf(mac.c_str(), "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]);
  return {0xfe80,
          0,
          0,
          0,
          static_cast<std::uint16_t>(((m[0] ^ 2u) << 8) | m[1]),
          static_cast<std::uint16_t>((m[2] << 8) | 0xffu),
          static_cast<std::uint16_t>((0xfeu << 8) | m[3]),
          static_cast<std::uint16_t>((m[4] << 8) | m[5])};
}

Words ipv4_mapped(const std::string& ip) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d);
  return {0,
          0,
          0,
          0,
          0,
          0xffff,
          static_cast<std::uint16_t>((a << 8) | b),
          static_cast<std::uint16_t>((c << 8) | d)};
}

// An IPv6 address as ip prints it ("fd00:10:2::3", "::" at most once), without a prefix.
Words ipv6_words(std::string_view text) {
  Words words{};
  const auto gap = text.find("::");
  const auto head = split(text.substr(0, gap), ':');
  for (std::size_t i = 0; i < head.size() && i < words.size(); ++i) {
    words[i] = static_cast<std::uint16_t>(parse_hex(head[i]).value_or(0));
  }
  if (gap != std::string_view::npos) {
    const auto tail = split(text.substr(gap + 2), ':');
    for (std::size_t i = 0; i < tail.size() && i < words.size(); ++i) {
      words[words.size() - tail.size() + i] =
          static_cast<std::uint16_t>(parse_hex(tail[i]).value_or(0));
    }
  }
  return words;
}

// The used entries in index order: v1 then v2 per address (v1 only when RoCE v2 is off), in
// the order the addresses came.
std::vector<GidEntry> gid_table(const Nic& nic) {
  std::vector<GidEntry> table;
  const bool v2 = nic.gid_layout != GidLayout::V1Only;
  const auto pair = [&table, v2](const Words& words, const std::string& ipv4) {
    table.push_back({gid_text(words), ipv4, 1});
    if (v2) {
      table.push_back({gid_text(words), ipv4, 2});
    }
  };
  pair(link_local(nic.mac), "");
  if (!nic.ipv6.empty()) {
    pair(ipv6_words(nic.ipv6), "");
  }
  if (nic.gid_layout != GidLayout::NoIpv4) {
    pair(ipv4_mapped(nic.ip), nic.ip);
  }
  return table;
}

}  // namespace

void gid_files(const Nic& nic, const FileSink& emit) {
  const std::string port = "sys/class/infiniband/" + nic.rdma_dev + "/ports/1/";
  const std::vector<GidEntry> table = gid_table(nic);
  for (int i = 0; i < std::max(k_table_size, static_cast<int>(table.size())); ++i) {
    if (i >= static_cast<int>(table.size())) {
      emit(fmt::format("{}gids/{}", port, i), gid_text(Words{}) + "\n");
      continue;
    }
    const GidEntry& entry = table[static_cast<std::size_t>(i)];
    emit(fmt::format("{}gids/{}", port, i), entry.gid + "\n");
    emit(fmt::format("{}gid_attrs/types/{}", port, i),
         entry.version == 1 ? "IB/RoCE v1\n" : "RoCE v2\n");
    emit(fmt::format("{}gid_attrs/ndevs/{}", port, i), nic.netdev + "\n");
  }
}

std::string show_gids(const Host& host) {
  std::string out =
      "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
      "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n";
  std::size_t found = 0;
  for (const Nic& nic : host.nics) {
    const std::vector<GidEntry> table = gid_table(nic);
    for (std::size_t i = 0; i < table.size(); ++i, ++found) {
      const GidEntry& entry = table[i];
      const std::string ipv4 = entry.ipv4.empty() ? "\t\t" : "\t" + entry.ipv4 + "  \t";
      out += fmt::format("{}\t1\t{}\t{}{}v{}\t{}\n", nic.rdma_dev, i, entry.gid, ipv4,
                         entry.version, nic.netdev);
    }
  }
  return out + fmt::format("n_gids_found={}\n", found);
}

}  // namespace netdoctor::sim
