// Times are stored as Unix seconds (REAL) and shown as ISO-8601 UTC (base/time_format.h).
#pragma once

#include "base/time_format.h"

namespace netdoctor::store {

using netdoctor::iso8601_utc;

}  // namespace netdoctor::store
