// Loads a MemBundle for a loader test; a bundle that will not load fails the test with why.
#pragma once

#include <stdexcept>
#include <utility>

#include "model/loader.h"
#include "tests/model/mem_bundle.h"

namespace netdoctor::testing {

inline model::Fabric load_mem_bundle(const MemBundle& bundle) {
  auto fabric = model::load_fabric(bundle.build(), model::LoadOptions{});
  if (!fabric.ok()) {
    throw std::runtime_error(fabric.error().describe());
  }
  return std::move(fabric).value();
}

}  // namespace netdoctor::testing
