// The sysfs roots the host loader reads under. They are keys into a SampleSource (a bundle
// sample or the live host), never opened here (scripts/check-seams allows this file to name
// them).
#pragma once

#include <string>

namespace netdoctor::model {

inline const std::string k_sysfs_ib = "/sys/class/infiniband/";  // <device>/ports/<n>/...
inline const std::string k_sysfs_net = "/sys/class/net/";        // <netdev>/mtu, statistics/...

}  // namespace netdoctor::model
