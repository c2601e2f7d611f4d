// Each NIC's kernel log events (model/fabric.h KernelEvents) from the host's `dmesg`: its
// netdev's link down/up transitions (flaps), and the driver, firmware and PCIe AER error lines
// naming its netdev or its PCI address (ethtool -i bus-info). Corroborating evidence for the
// link probes: the log is history since boot, not the capture window.
#pragma once

#include "model/fabric.h"
#include "parsers/dmesg.h"

namespace netdoctor::model {

// Fills nic.kernel of every NIC of `host` and records dmesg as Observed on each. The caller
// parsed the log once (model/host_loader.cc) and recorded its outcome on the host.
void fill_kernel_events(const parsers::KernelLog& dmesg, Host& host);

// One NIC's events alone (what fill_kernel_events does per NIC), for tests.
KernelEvents kernel_events(const parsers::KernelLog& dmesg, const Nic& nic);

}  // namespace netdoctor::model
