#include "sweep/counters.h"

#include <fmt/format.h>

#include "base/strings.h"

namespace netdoctor::sweep {
namespace {

constexpr std::string_view k_root = "/sys/class/infiniband/";

std::uint64_t value_of(const CounterReadings& readings, const std::string& nic,
                       const std::string& name, bool& found) {
  auto it = readings.find(nic);
  if (it == readings.end()) {
    found = false;
    return 0;
  }
  auto counter = it->second.find(name);
  if (counter == it->second.end()) {
    found = false;
    return 0;
  }
  return counter->second;
}

}  // namespace

const std::vector<std::string>& counter_names() {
  static const std::vector<std::string> names = {"port_xmit_data", "port_rcv_data",
                                                 "symbol_error",   "port_rcv_errors",
                                                 "link_downed",    "link_error_recovery"};
  return names;
}

const std::vector<std::string>& link_error_counters() {
  static const std::vector<std::string> names = {"symbol_error", "port_rcv_errors", "link_downed",
                                                 "link_error_recovery"};
  return names;
}

std::vector<std::string> counter_argv(const std::vector<Nic>& nics) {
  std::vector<std::string> argv = {"grep", "-s", "-H", "^"};
  for (const Nic& nic : nics) {
    for (const auto& name : counter_names()) {
      argv.push_back(
          fmt::format("/sys/class/infiniband/{}/ports/{}/counters/{}", nic.device, nic.port, name));
    }
  }
  return argv;
}

void parse_counter_output(std::string_view text, const std::string& host, CounterReadings& out) {
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (!starts_with(line, k_root)) {
      continue;
    }
    const auto colon = line.rfind(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    // "/sys/class/infiniband/DEV/ports/P/counters/NAME"
    const auto parts = split(line.substr(k_root.size(), colon - k_root.size()), '/');
    if (parts.size() != 5 || parts[1] != "ports" || parts[3] != "counters") {
      continue;
    }
    const std::string_view number = trim(line.substr(colon + 1));
    if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos ||
        number.size() > 19) {
      continue;
    }
    out[host + "/" + std::string(parts[0])][std::string(parts[4])] =
        std::stoull(std::string(number));
  }
}

double data_gbps(const CounterReadings& before, const CounterReadings& after,
                 const std::string& nic_key, double seconds) {
  double bytes = 0.0;
  for (const char* name : {"port_xmit_data", "port_rcv_data"}) {
    bool found = true;
    const std::uint64_t a = value_of(before, nic_key, name, found);
    const std::uint64_t b = value_of(after, nic_key, name, found);
    if (!found || seconds <= 0.0) {
      return 0.0;
    }
    // A counter that went backwards was reset (or wrapped at 32 bits): no rate from it.
    bytes += b >= a ? static_cast<double>(b - a) * 4.0 : 0.0;
  }
  return bytes * 8.0 / 1e9 / seconds;
}

std::vector<std::string> grown_link_errors(const CounterReadings& before,
                                           const CounterReadings& after,
                                           const std::string& nic_key) {
  std::vector<std::string> grown;
  for (const auto& name : link_error_counters()) {
    bool found = true;
    const std::uint64_t a = value_of(before, nic_key, name, found);
    const std::uint64_t b = value_of(after, nic_key, name, found);
    if (found && b > a) {
      grown.push_back(fmt::format("{} +{}", name, b - a));
    }
  }
  return grown;
}

}  // namespace netdoctor::sweep
