#include "probes/probe.h"

namespace netdoctor::probes {

// Every built-in probe, in one visible place (no self-registering statics).
void register_builtin_probes(ProbeRegistry& registry) { (void)registry; }

}  // namespace netdoctor::probes
