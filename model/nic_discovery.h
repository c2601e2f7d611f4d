// Which NICs a host has: the host-wide command outputs of one sample, and from them and the
// sysfs device listing each NIC's RDMA device, port and netdev.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "parsers/chronyc_tracking.h"
#include "parsers/dmesg.h"
#include "parsers/ibdev2netdev.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/ip_address.h"
#include "parsers/lldpcli_json.h"
#include "parsers/rdma_link.h"
#include "parsers/rdma_resource.h"
#include "parsers/show_gids.h"

namespace netdoctor::model {

// The host-wide command outputs of one sample; each nullopt when not captured, unreadable,
// malformed or withheld.
struct HostOutputs {
  std::optional<parsers::RdmaLinks> rdma;
  std::optional<parsers::IbvDevinfo> ibv;
  std::optional<parsers::IpAddressList> ip;
  std::optional<parsers::LldpNeighbors> lldp;
  std::optional<parsers::ChronyTracking> chrony;
  std::optional<parsers::ShowGids> gids;              // show_gids: every RDMA port's GID table
  std::optional<parsers::Ibdev2netdev> ibdev2netdev;  // device/port -> netdev (MLNX_OFED script)
  std::optional<parsers::KernelLog> dmesg;            // the kernel log
  std::optional<parsers::RdmaResources> resources;    // rdma resource show: objects per device
};

// Reads them, each outcome recorded into `sources` (the host's). `ibv_devinfo -v` and
// `ip -d address` are preferred; their plain forms are read only where those are absent.
HostOutputs read_host_outputs(SourceLog& log, const SampleSource& sample, SourceMap& sources);

// The entries of one device or port; nullptr when not listed.
const parsers::IbvDevice* find_ibv_device(const HostOutputs& out, std::string_view device);
const parsers::IbvPort* find_ibv_port(const parsers::IbvDevice* device, int port);
const parsers::RdmaLink* find_rdma_link(const HostOutputs& out, std::string_view device, int port);
const parsers::Ibdev2netdevEntry* find_ibdev2netdev(const HostOutputs& out, std::string_view device,
                                                    int port);

// One NIC found: an RDMA device port and its netdev (either may be empty, not both).
struct NicSeed {
  std::string device;
  int port = 1;
  std::string netdev;
};

// Every RDMA device port of /sys/class/infiniband, ibv_devinfo, rdma link and ibdev2netdev,
// once; each bound to its netdev by rdma link, else by the device's sysfs net directory, else by
// ibdev2netdev. Where no RDMA device
// is captured at all, the netdevs of the host's LLDP neighbours. Sorted by device, port, netdev.
std::vector<NicSeed> discover_nics(SourceLog& log, const SampleSource& sample,
                                   const HostOutputs& out, SourceMap& host_sources);

}  // namespace netdoctor::model
