// open_bundle and load_fabric in one pass over a bundle archive: each machine is loaded on a
// worker as soon as the archive has moved past its files (base/bundle.h open_bundle_streaming)
// and its files freed, so a 4,096-host archive is never held in memory whole. The result is the
// Bundle and Fabric (problems in the same order) that open_bundle then load_fabric give.
#pragma once

#include <functional>
#include <string>

#include "base/bundle.h"
#include "base/result.h"
#include "model/fabric.h"
#include "model/loader.h"

namespace netdoctor::model {

struct LoadedBundle {
  Bundle bundle;  // without the machines loaded while it was read
  Fabric fabric;
};

// A directory, or an archive that cannot be streamed exactly, is opened whole as before.
Result<LoadedBundle> open_and_load_bundle(const std::string& path, const LoadOptions& options = {});

// The same for any reader that hands machines to a sink as it produces them (open_bundle_streaming,
// a Prometheus read) and returns the Bundle of the rest: each machine is loaded as it comes.
using MachineReader = std::function<Result<Bundle>(MachineSink& sink)>;
Result<LoadedBundle> load_while_reading(const MachineReader& read, const LoadOptions& options = {});

}  // namespace netdoctor::model
