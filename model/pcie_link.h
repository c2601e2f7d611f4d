// Each NIC's PCIe link (model/fabric.h PcieLink) from the latest sample: sysfs
// /sys/class/net/<netdev>/device/{current,max}_link_{width,speed} first, else the `lspci -vvv`
// device at the NIC's bus address (ethtool -i); the kernel's PCIe bandwidth line in `dmesg`
// marks a link the kernel saw limited and names an upstream bottleneck, whose "available"
// figure then lowers the ceiling. Malformed files and outputs are logged as problems.
#pragma once

#include <optional>

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "parsers/dmesg.h"

namespace netdoctor::model {

// Fills nic.pcie of every NIC of `host`; the lspci outcome is recorded in host.sources. `dmesg`
// is the host's kernel log as read once by the loader (nullopt when not captured or malformed).
void fill_pcie_links(SourceLog& log, const SampleSource& sample,
                     const std::optional<parsers::KernelLog>& dmesg, Host& host);

}  // namespace netdoctor::model
