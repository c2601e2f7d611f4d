// A NIC's RoCE GID table (spec/bundle.md 1.1): sysfs `ports/<port>/gids/<index>` with
// `gid_attrs/types/<index>` and `gid_attrs/ndevs/<index>` where the copy holds them, else the
// rows of the host's `show_gids` for the NIC's device and port. RoCE v2 needs an entry whose
// address is the netdev's IP, and jobs pick one index for every host (NCCL_IB_GID_INDEX), so
// the table is kept whole, by index.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "parsers/show_gids.h"

namespace netdoctor::model {

// Gid::type as sysfs gid_attrs/types spells it (show_gids' "v1"/"v2" are mapped to these).
inline const std::string k_gid_roce_v1 = "IB/RoCE v1";
inline const std::string k_gid_roce_v2 = "RoCE v2";

// What a GID's text says: nullopt unless it is 8 colon-separated groups of 1 to 4 hex digits.
struct GidText {
  bool zero = false;  // an unused entry
  std::string ipv4;   // the address of an IPv4-mapped GID (::ffff:a.b.c.d), else empty
};
std::optional<GidText> parse_gid_text(std::string_view text);

// Fills nic.gids from sysfs (recorded under "sysfs gids"), else from `show` ("show_gids"). A
// GID, type or index the reader cannot make sense of is a Malformed problem naming the file.
// REQUIRES: !nic.device.empty().
void fill_gids(SourceLog& log, const SampleSource& sample,
               const std::optional<parsers::ShowGids>& show, Nic& nic);

}  // namespace netdoctor::model
