// A Prometheus query_range answer (diagnose --prometheus): the server is across the network and
// its answers are untrusted, so any bytes must come back as series or an error, and any series
// that come back must lay out as bundle files (host and switch layouts) without fault.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "remote/prometheus_api.h"
#include "remote/prometheus_bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using netdoctor::remote::PromSeries;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<PromSeries> series;
  auto warnings = netdoctor::remote::read_range_answer(
      text, [&series](PromSeries& one) { series.push_back(std::move(one)); });
  if (!warnings.ok()) {
    return 0;
  }
  (void)netdoctor::remote::prometheus_to_bundle(series);
  return 0;
}
