// The kb suite checks its data against the real probe registry: there is no stand-in list of
// probes and signals to keep in step by hand.
#pragma once

#include <gtest/gtest.h>

#include "engine/pipeline.h"
#include "kb/catalog.h"
#include "kb/probe_entry.h"
#include "probes/probe.h"

namespace netdoctor::kb::testing {

inline const KnownProbes& registered() {
  static const KnownProbes probes = [] {
    probes::ProbeRegistry registry;
    probes::register_builtin_probes(registry);
    return engine::known_probes(registry);
  }();
  return probes;
}

inline ProbeEntrySet embedded_entries() {
  auto entries = ProbeEntrySet::load_embedded(registered());
  EXPECT_TRUE(entries.ok()) << entries.error().describe();
  return entries.ok() ? std::move(entries).value() : ProbeEntrySet();
}

inline Catalog embedded_catalog() {
  auto catalog = Catalog::load_embedded(embedded_entries());
  EXPECT_TRUE(catalog.ok()) << catalog.error().describe();
  return catalog.ok() ? std::move(catalog).value() : Catalog();
}

}  // namespace netdoctor::kb::testing
