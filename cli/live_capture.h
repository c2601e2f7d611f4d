// `diagnose --hosts LIST --via ...`: the live capture of a host list, as `collect --hosts`
// makes it, into a bundle directory the diagnosis then reads (and the user keeps: nothing
// recorded is lost).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "base/result.h"
#include "cli/settings.h"
#include "collect/fanout.h"

namespace netdoctor::cli {

struct LiveCapture {
  std::string bundle;  // the directory written
  std::size_t merged = 0;
  std::vector<std::string> failed;  // hosts whose capture failed (said on `progress`)
};

// Captures `hosts` through `launcher` into `out` (a new or empty directory; empty: a new one
// under $TMPDIR). The collect.parallel and collect.host_timeout settings apply. NotFound when
// the launcher is not installed; Io when the directory cannot be written; a host that fails
// is reported and the rest go on.
Result<LiveCapture> capture_hosts(const std::vector<std::string>& hosts, collect::Launcher launcher,
                                  const std::string& pdsh_rcmd, std::string out,
                                  const Settings& settings, std::ostream& progress);

}  // namespace netdoctor::cli
