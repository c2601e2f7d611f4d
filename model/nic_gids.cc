#include "model/nic_gids.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/sysfs_paths.h"

namespace netdoctor::model {
namespace {

constexpr std::size_t k_gid_groups = 8;  // a GID is 128 bits printed as 8 groups of 16

// The index files and directory entries are small decimal numbers.
std::optional<int> gid_index(std::string_view name) {
  auto value = parse_u64(name);
  if (!value || *value > 65535) {
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

std::string type_of_show_gids(const parsers::ShowGidsEntry& entry) {
  if (!entry.roce_version) {
    return {};
  }
  return *entry.roce_version == 2 ? k_gid_roce_v2 : k_gid_roce_v1;
}

// One sysfs entry: its GID, then (for a used entry) its type and netdev. False for a zero entry
// or one that did not read or parse (logged).
bool read_sysfs_gid(SourceLog& log, const SampleSource& sample, const std::string& port, int index,
                    Nic& nic, Gid& gid) {
  const std::string& source = source::k_sysfs_gids;
  const std::string path = fmt::format("{}/gids/{}", port, index);
  auto text = read_value(log, sample, path, source, nic.sources);
  if (!text) {
    return false;
  }
  auto parsed = parse_gid_text(*text);
  if (!parsed) {
    log.malformed(source, sample.display_path(path),
                  make_error(ErrorCode::Parse, fmt::format("'{}' is not a GID", *text)),
                  nic.sources);
    return false;
  }
  if (parsed->zero) {
    return false;
  }
  gid = Gid{index, *text, {}, {}, parsed->ipv4};
  const std::string type_path = fmt::format("{}/gid_attrs/types/{}", port, index);
  if (auto type = read_value(log, sample, type_path, source, nic.sources)) {
    if (*type == k_gid_roce_v1 || *type == k_gid_roce_v2) {
      gid.type = *type;
    } else {
      log.malformed(source, sample.display_path(type_path),
                    make_error(ErrorCode::Parse, fmt::format("'{}' is not a GID type", *type)),
                    nic.sources);
    }
  }
  const std::string ndev_path = fmt::format("{}/gid_attrs/ndevs/{}", port, index);
  if (auto ndev = read_value(log, sample, ndev_path, source, nic.sources)) {
    gid.ndev = *ndev;
  }
  return true;
}

// False when the port has no gids directory in the copy.
bool fill_from_sysfs(SourceLog& log, const SampleSource& sample, Nic& nic) {
  const std::string port = fmt::format("{}{}/ports/{}", k_sysfs_ib, nic.device, nic.port);
  auto entries = list_dir(log, sample, port + "/gids", source::k_sysfs_gids, nic.sources);
  if (!entries) {
    return false;
  }
  log.observed(source::k_sysfs_gids, nic.sources);
  for (const auto& entry : *entries) {
    const auto index = gid_index(entry.name);
    Gid gid;
    if (index && read_sysfs_gid(log, sample, port, *index, nic, gid)) {
      nic.gids.push_back(std::move(gid));
    }
  }
  std::sort(nic.gids.begin(), nic.gids.end(),
            [](const Gid& a, const Gid& b) { return a.index < b.index; });
  return true;
}

void fill_from_show_gids(SourceLog& log, const SampleSource& sample, const parsers::ShowGids& show,
                         Nic& nic) {
  for (const auto& row : show.gids) {
    if (row.device != nic.device || static_cast<int>(row.port) != nic.port) {
      continue;
    }
    log.observed(source::k_show_gids, nic.sources);
    auto parsed = parse_gid_text(row.gid);
    if (!parsed) {
      log.malformed(source::k_show_gids, sample.display_command({"show_gids"}),
                    make_error(ErrorCode::Parse, fmt::format("'{}' is not a GID", row.gid)),
                    nic.sources);
      continue;
    }
    if (!parsed->zero) {
      nic.gids.push_back(Gid{static_cast<int>(row.index), row.gid, type_of_show_gids(row),
                             row.netdev, parsed->ipv4});
    }
  }
  if (nic.gids.empty()) {
    record_source(nic.sources, source::k_show_gids, Availability::Absent, "device not listed");
  }
}

}  // namespace

std::optional<GidText> parse_gid_text(std::string_view text) {
  const auto groups = split(trim(text), ':');
  if (groups.size() != k_gid_groups) {
    return std::nullopt;
  }
  std::array<std::uint16_t, k_gid_groups> words{};
  for (std::size_t i = 0; i < k_gid_groups; ++i) {
    auto value = groups[i].size() <= 4 ? parse_hex(groups[i]) : std::nullopt;
    if (!value) {
      return std::nullopt;
    }
    words[i] = static_cast<std::uint16_t>(*value);
  }
  GidText out;
  out.zero = std::all_of(words.begin(), words.end(), [](std::uint16_t w) { return w == 0; });
  const bool mapped =
      std::all_of(words.begin(), words.begin() + 5, [](std::uint16_t w) { return w == 0; }) &&
      words[5] == 0xffff;
  if (mapped) {
    out.ipv4 =
        fmt::format("{}.{}.{}.{}", words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff);
  }
  return out;
}

void fill_gids(SourceLog& log, const SampleSource& sample,
               const std::optional<parsers::ShowGids>& show, Nic& nic) {
  if (!fill_from_sysfs(log, sample, nic) && show) {
    fill_from_show_gids(log, sample, *show, nic);
  }
}

}  // namespace netdoctor::model
