// Runs many argument vectors through one CommandRunner, a bounded number at a time (a fabric's
// perfquery sweep is thousands of short commands; a subnet manager or a switch should not see
// them all at once).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"

namespace netdoctor::collect {

// Called after each command ends with how many have ended; calls are serialized.
using PoolProgress = std::function<void(std::size_t done, std::size_t total)>;

// The results in the order of `commands`. At most `parallelism` (at least 1) run at once; above
// 1 `runner` must be thread-safe (the live one is).
std::vector<Result<CommandOutput>> run_bounded(
    const std::vector<std::vector<std::string>>& commands, CommandRunner& runner,
    const CommandOptions& options, int parallelism, const PoolProgress& progress = {});

}  // namespace netdoctor::collect
