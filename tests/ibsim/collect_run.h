// Running `netdoctor collect` (the built binary, by argv) against an IbsimFabric, and reading
// the fabric views it wrote. Shared by the ibsim collect and diagnose tests.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/support/ibsim_fabric.h"
#include "tests/support/run_netdoctor.h"

namespace netdoctor::testing {

#define SKIP_WITHOUT_IBSIM()                         \
  do {                                               \
    const std::string why_ = IbsimFabric::missing(); \
    if (!why_.empty()) {                             \
      GTEST_SKIP() << why_;                          \
    }                                                \
  } while (false)

struct Collected {
  RunOutput run;
  std::string bundle;  // <fabric dir>/bundle
};

// `netdoctor collect --root <empty> --host h1 --out <bundle> EXTRA...` with the fabric's
// environment, in its scratch directory (the host part of the capture is not under test).
Collected collect(const IbsimFabric& fabric, const std::vector<std::string>& extra);

// Two samples `interval_s` apart; `between` runs once sample 0 is complete (its fabric log
// written), before sample 1 starts: how a test changes the fabric between two samples.
Collected collect_with_change(const IbsimFabric& fabric, double interval_s,
                              const std::function<void()>& between,
                              const std::vector<std::string>& extra = {"--fabric"});

std::string fabric_sample_dir(const std::string& bundle, const std::string& sample);
// fabric/<sample>/sos_commands/infiniband/<name>; a test failure and "" when not captured.
std::string fabric_view(const std::string& bundle, const std::string& sample,
                        const std::string& name);

}  // namespace netdoctor::testing
