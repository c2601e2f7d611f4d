// Running one built-in probe on a hand-built fabric and picking out its findings.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "probes/probe.h"

namespace netdoctor::testing {

// Runs with the kb's thresholds, `site` applied (setting key -> value, as a site file sets).
probes::ProbeResult run_probe(const std::string& id, const model::Fabric& fabric,
                              probes::ProbeOptions options = {},
                              const std::map<std::string, double, std::less<>>& site = {});
// The thresholds every probe judges by, as the kb has them with `site` applied.
probes::ThresholdBook kb_thresholds(const std::map<std::string, double, std::less<>>& site = {});
std::vector<probes::Finding> with_signal(const probes::ProbeResult& result,
                                         const std::string& signal);
bool names(const probes::Finding& finding, const std::string& entity);
// The clearing signal of every registered probe (its spec's), and the registered ids.
const std::set<std::string>& clearing_signals();
std::vector<std::string> registered_ids();
// Every finding's signal must be one the probe declares; returns the offenders.
std::vector<std::string> undeclared_signals(const std::string& id,
                                            const probes::ProbeResult& result);

}  // namespace netdoctor::testing
