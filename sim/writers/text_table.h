// SONiC's rate column; tables and counters themselves come from base/sonic_table.h.
#pragma once

#include <string>

#include "base/sonic_table.h"

namespace netdoctor::sim {

// "5.15 GB/s", "286.58 KB/s": SONiC's rate column (decimal units).
std::string byte_rate(double bytes_per_s);

}  // namespace netdoctor::sim
