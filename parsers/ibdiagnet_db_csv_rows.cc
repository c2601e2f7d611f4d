// ibdiagnet2.db_csv: the typed rows of NODES, PORTS, LINKS, SM_INFO, PM_INFO, PM_DELTA and
// NODES_INFO / GENERAL_INFO_SMP, read through each section's own header.
#include <fmt/format.h>

#include <array>
#include <set>
#include <span>

#include "parsers/ibdiagnet_common.h"
#include "parsers/ibdiagnet_db_csv.h"

namespace netdoctor::parsers::detail {
namespace {

// One row seen through its section's header.
class Row {
 public:
  Row(const IbdiagSection& section, const std::vector<std::string>& row)
      : m_section(section), m_row(row) {}

  using Names = std::span<const std::string_view>;
  // The field under the first of `names` present in the header ("" when none or short row).
  std::string_view text(Names names) const {
    for (auto name : names) {
      if (auto at = m_section.column(name); at && *at < m_row.size()) {
        return m_row[*at];
      }
    }
    return {};
  }
  std::string_view text(std::initializer_list<std::string_view> names) const {
    return text(Names(names.begin(), names.size()));
  }
  template <typename N>
  std::optional<std::uint64_t> u64(const N& names) const {
    return ibdiag::number(text(names));
  }
  std::optional<std::uint64_t> u64(std::initializer_list<std::string_view> names) const {
    return ibdiag::number(text(names));
  }
  template <typename N>
  std::optional<std::uint32_t> u32(const N& names) const {
    return narrow(u64(names));
  }
  std::optional<std::uint32_t> u32(std::initializer_list<std::string_view> names) const {
    return narrow(u64(names));
  }

 private:
  static std::optional<std::uint32_t> narrow(std::optional<std::uint64_t> v) {
    if (!v || *v > 0xffffffffu) {
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(*v);
  }

  const IbdiagSection& m_section;
  const std::vector<std::string>& m_row;
};

constexpr std::array<std::string_view, 2> k_node_guid = {"NodeGUID", "NodeGuid"};
constexpr std::array<std::string_view, 2> k_port_guid = {"PortGUID", "PortGuid"};
constexpr std::array<std::string_view, 2> k_port_num = {"PortNumber", "PortNum"};

template <typename Fn>
void each_row(const IbdiagDbCsv& db, std::string_view name, Fn&& fn) {
  const IbdiagSection* s = db.find(name);
  if (s == nullptr) {
    return;
  }
  for (const auto& row : s->rows) {
    fn(Row(*s, row));
  }
}

void read_nodes(IbdiagDbCsv& db) {
  each_row(db, "NODES", [&db](const Row& r) {
    auto guid = r.u64(k_node_guid);
    if (!guid) {
      ++db.skipped_rows;
      return;
    }
    IbdiagNode n;
    n.guid = *guid;
    n.description = std::string(r.text({"NodeDesc"}));
    n.ports = r.u32({"NumPorts"});
    n.type = r.u32({"NodeType"});
    n.port_guid = r.u64(k_port_guid);
    n.system_image_guid = r.u64({"SystemImageGUID"});
    n.device_id = r.u32({"DeviceID"});
    n.vendor_id = r.u32({"VendorID"});
    n.revision = r.u32({"revision"});
    db.nodes.push_back(std::move(n));
  });
}

// A file that keeps the extended speeds (FDR and later) in their own LinkSpeedExt* column: folded
// into byte 2 of the combined mask, where this file's own layout puts them.
std::optional<std::uint32_t> with_extended(std::optional<std::uint32_t> speed,
                                           std::optional<std::uint32_t> extended) {
  if (!extended || *extended == 0 || *extended > 0xff) {
    return speed;
  }
  std::uint32_t base = speed.value_or(0);
  if ((base & 0xff00u) != 0) {
    return speed;
  }
  return base | (*extended << 8);
}

void read_ports(IbdiagDbCsv& db) {
  each_row(db, "PORTS", [&db](const Row& r) {
    auto guid = r.u64(k_node_guid);
    auto port = r.u32(k_port_num);
    if (!guid || !port) {
      ++db.skipped_rows;
      return;
    }
    IbdiagPort p;
    p.node_guid = *guid;
    p.port = *port;
    p.port_guid = r.u64(k_port_guid);
    p.lid = r.u32({"LID"});
    p.state = r.u32({"PortState"});
    p.phys_state = r.u32({"PortPhyState"});
    p.width_active = r.u32({"LinkWidthActv"});
    p.width_supported = r.u32({"LinkWidthSup"});
    p.width_enabled = r.u32({"LinkWidthEn"});
    p.speed_active = with_extended(r.u32({"LinkSpeedActv"}), r.u32({"LinkSpeedExtActv"}));
    p.speed_supported = with_extended(r.u32({"LinkSpeedSup"}), r.u32({"LinkSpeedExtSup"}));
    p.speed_enabled = with_extended(r.u32({"LinkSpeedEn"}), r.u32({"LinkSpeedExtEn"}));
    p.mtu = r.u32({"NMTU"});
    p.mtu_cap = r.u32({"MTUCap"});
    db.ports.push_back(p);
  });
}

void read_links(IbdiagDbCsv& db) {
  each_row(db, "LINKS", [&db](const Row& r) {
    auto g1 = r.u64({"NodeGuid1", "NodeGUID1"});
    auto p1 = r.u32({"PortNum1", "PortNumber1"});
    auto g2 = r.u64({"NodeGuid2", "NodeGUID2"});
    auto p2 = r.u32({"PortNum2", "PortNumber2"});
    if (!g1 || !p1 || !g2 || !p2) {
      ++db.skipped_rows;
      return;
    }
    db.links.push_back(IbdiagLink{*g1, *p1, *g2, *p2});
  });
}

void read_managers(IbdiagDbCsv& db) {
  each_row(db, "SM_INFO", [&db](const Row& r) {
    auto guid = r.u64(k_node_guid);
    if (!guid) {
      ++db.skipped_rows;
      return;
    }
    IbdiagSm sm;
    sm.node_guid = *guid;
    sm.port_guid = r.u64(k_port_guid);
    sm.port = r.u32(k_port_num);
    sm.guid = r.u64({"GUID"});
    sm.activity_count = r.u64({"ActCount"});
    sm.state = r.u32({"SmState"});
    sm.priority = r.u32({"Priority"});
    db.managers.push_back(sm);
  });
}

void read_pm(IbdiagDbCsv& db, std::string_view name, std::vector<IbdiagPmRow>& out) {
  const IbdiagSection* s = db.find(name);
  if (s == nullptr) {
    return;
  }
  std::set<std::size_t> keys;
  for (auto k : {"NodeGUID", "NodeGuid", "PortGUID", "PortGuid", "PortNumber", "PortNum"}) {
    if (auto at = s->column(k)) {
      keys.insert(*at);
    }
  }
  for (const auto& row : s->rows) {
    Row r(*s, row);
    auto guid = r.u64(k_node_guid);
    auto port = r.u32(k_port_num);
    if (!guid || !port) {
      ++db.skipped_rows;
      continue;
    }
    IbdiagPmRow pm;
    pm.node_guid = *guid;
    pm.port = *port;
    pm.port_guid = r.u64(k_port_guid);
    for (std::size_t i = 0; i < s->header.size() && i < row.size(); ++i) {
      if (keys.contains(i)) {
        continue;
      }
      if (auto v = ibdiag::counter(row[i])) {
        pm.counters.emplace(s->header[i], *v);
      } else {
        pm.not_available.push_back(s->header[i]);
      }
    }
    out.push_back(std::move(pm));
  }
}

// "0x0000001f,0x000007dc,0x00000400" -> "31.2012.1024"; "" when all three are 0 or missing.
std::string firmware(const Row& r, std::string_view prefix) {
  std::string major_name = fmt::format("{}Major", prefix);
  std::string minor_name = fmt::format("{}Minor", prefix);
  std::string sub_name = fmt::format("{}SubMinor", prefix);
  auto major = r.u64({std::string_view(major_name)});
  auto minor = r.u64({std::string_view(minor_name)});
  auto sub = r.u64({std::string_view(sub_name)});
  if (!major || !minor || !sub || (*major == 0 && *minor == 0 && *sub == 0)) {
    return "";
  }
  return fmt::format("{}.{}.{}", *major, *minor, *sub);
}

void read_node_info(IbdiagDbCsv& db, std::string_view name) {
  std::set<std::uint64_t> seen;
  for (const auto& i : db.node_info) {
    seen.insert(i.guid);
  }
  each_row(db, name, [&db, &seen, name](const Row& r) {
    auto guid = r.u64(k_node_guid);
    if (!guid) {
      ++db.skipped_rows;
      return;
    }
    if (seen.contains(*guid)) {
      return;
    }
    IbdiagNodeInfo info;
    info.guid = *guid;
    info.firmware = firmware(r, "FWInfo_Extended_");
    if (info.firmware.empty()) {
      info.firmware = firmware(r, "FWInfo_");
    }
    info.psid = std::string(r.text({"FWInfo_PSID"}));
    info.device_id = r.u32({"HWInfo_DeviceID"});
    info.hw_revision = r.u32({"HWInfo_DeviceHWRevision"});
    info.source = std::string(name);
    seen.insert(*guid);
    db.node_info.push_back(std::move(info));
  });
}

}  // namespace

void read_typed_sections(IbdiagDbCsv& db) {
  read_nodes(db);
  read_ports(db);
  read_links(db);
  read_managers(db);
  read_pm(db, "PM_INFO", db.pm_info);
  read_pm(db, "PM_DELTA", db.pm_delta);
  read_node_info(db, "NODES_INFO");
  read_node_info(db, "GENERAL_INFO_SMP");
}

}  // namespace netdoctor::parsers::detail
