// A NIC's configuration from the latest sample: firmware, port state, speed, MTUs, addresses,
// QoS, driver and the switch port host LLDP names. Where several sources give one fact, a fixed
// order decides: sysfs port files, then ibv_devinfo, then rdma link, then ethtool, then sysfs
// net for the state and speed; sysfs net before ip address for MTU, operstate and MAC; the
// firmware of ethtool -i over sysfs fw_ver over ibv_devinfo.
#pragma once

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/nic_discovery.h"
#include "model/source_reading.h"

namespace netdoctor::model {

// From the RDMA side: sysfs fw_ver and port files, then ibv_devinfo and rdma link for what
// sysfs did not give. REQUIRES: !nic.device.empty().
void fill_rdma_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out, Nic& nic);

// From the netdev side: sysfs net, ethtool -i, ethtool, mlnx_qos, then ip address and the
// host's LLDP neighbours. REQUIRES: !nic.netdev.empty().
void fill_netdev_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                        Nic& nic);

// ibdev2netdev: the RDMA port state (-v) and, when `with_carrier` (the sysfs net view is not
// withheld), the netdev's carrier, where no other source gave them (called after the
// configuration above).
void fill_from_ibdev2netdev(const HostOutputs& out, bool with_carrier, Nic& nic);

// `rdma resource show`: nic.resources, the QP/CQ/MR/PD counts of the NIC's device.
void fill_resources(const HostOutputs& out, Nic& nic);

}  // namespace netdoctor::model
