// A host's own facts besides its NICs, from the host-wide command outputs: its clock
// (chronyc tracking) and every addressed interface (ip address).
#pragma once

#include "model/fabric.h"
#include "parsers/chronyc_tracking.h"
#include "parsers/ip_address.h"

namespace netdoctor::model {

void fill_clock(const parsers::ChronyTracking& tracking, ClockState& clock);

// Every interface with an IPv4 address other than host scope, loopback left out, RDMA or not:
// addressing checks need the netdevs that carry no RDMA device too.
void fill_interfaces(const parsers::IpAddressList& list, Host& host);

}  // namespace netdoctor::model
