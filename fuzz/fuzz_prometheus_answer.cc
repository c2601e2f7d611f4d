// A Prometheus query_range answer (diagnose --prometheus): the server is across the network and
// its answers are untrusted, so any bytes must come back as series or an error, and any series
// that come back must lay out as bundle files (host and switch layouts) without fault. The
// reader's own path (an AnswerParser reused across answers, reading a padded body in place) must
// read the bytes as the plain one does.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "remote/http_client.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_bundle.h"

namespace {

std::vector<std::pair<std::string, std::size_t>> summary(
    const std::vector<netdoctor::remote::PromSeries>& series) {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (const auto& one : series) {
    out.emplace_back(one.name(), one.points.size());
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using netdoctor::remote::PromSeries;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<PromSeries> series;
  auto warnings = netdoctor::remote::read_range_answer(
      text, [&series](PromSeries& one) { series.push_back(std::move(one)); });

  // The same bytes as the HTTP client leaves them (padding past the end), read twice by one
  // parser: its kept memory must not leak from one answer into the next.
  std::string body;
  body.reserve(size + netdoctor::remote::k_body_padding);
  body.assign(text);
  netdoctor::remote::AnswerParser parser;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<PromSeries> again;
    auto in_place =
        parser.read(body, [&again](PromSeries& one) { again.push_back(std::move(one)); });
    if (in_place.ok() != warnings.ok() ||
        (warnings.ok() && (*in_place != *warnings || summary(again) != summary(series)))) {
      std::abort();
    }
  }
  if (!warnings.ok()) {
    return 0;
  }
  (void)netdoctor::remote::prometheus_to_bundle(series);
  return 0;
}
