#include "model/interval_view.h"

#include <algorithm>

namespace netdoctor::model {
namespace {

// The samples [interval-1, interval] of a series; empty when the series does not reach them.
template <typename Sample>
std::vector<Sample> bounding_samples(const std::vector<Sample>& series, std::size_t interval) {
  if (interval >= series.size()) {
    return {};
  }
  return {series[interval - 1], series[interval]};
}

// A saturation first seen at sample `first` is, in the view, seen from its first sample if the
// counter was already saturated before the interval, from its second if it saturated at its end.
std::map<std::string, std::size_t> saturated_in(const std::map<std::string, std::size_t>& all,
                                                std::size_t interval) {
  std::map<std::string, std::size_t> within;
  for (const auto& [metric, first] : all) {
    if (first <= interval) {
      within.emplace(metric, first == interval ? std::size_t{1} : std::size_t{0});
    }
  }
  return within;
}

std::size_t most_samples(const Fabric& fabric) {
  std::size_t most = fabric.ib.samples.size();
  for (const Host& host : fabric.hosts) {
    most = std::max(most, host.captured_at.size());
    for (const Nic& nic : host.nics) {
      most = std::max(most, nic.samples.size());
    }
  }
  for (const Switch& sw : fabric.switches) {
    most = std::max(most, sw.captured_at.size());
  }
  return most;
}

double median(std::vector<double> values) {
  if (values.empty()) {
    return 0.0;
  }
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

std::size_t interval_count(const Fabric& fabric) {
  const std::size_t samples = most_samples(fabric);
  return samples > 1 ? samples - 1 : 0;
}

IntervalViews::IntervalViews(const Fabric& fabric)
    : m_fabric(fabric), m_count(interval_count(fabric)) {
  // The frame is the fabric without its series, which each view fills from `fabric`.
  m_frame = fabric;
  for (Host& host : m_frame.hosts) {
    host.captured_at.clear();
    for (Nic& nic : host.nics) {
      nic.samples = {};
    }
  }
  for (Switch& sw : m_frame.switches) {
    sw.captured_at.clear();
    for (SwitchPort& port : sw.ports) {
      port.samples = {};
    }
  }
  m_frame.ib.samples.clear();
  for (IbNode& node : m_frame.ib.nodes) {
    for (IbPort& port : node.ports) {
      port.samples = {};
      port.saturated.clear();
    }
  }
}

Fabric IntervalViews::view(std::size_t interval) const {
  Fabric view = m_frame;
  for (std::size_t h = 0; h < view.hosts.size(); ++h) {
    const Host& host = m_fabric.hosts[h];
    view.hosts[h].captured_at = bounding_samples(host.captured_at, interval);
    for (std::size_t n = 0; n < host.nics.size(); ++n) {
      view.hosts[h].nics[n].samples = bounding_samples(host.nics[n].samples, interval);
    }
  }
  for (std::size_t s = 0; s < view.switches.size(); ++s) {
    const Switch& sw = m_fabric.switches[s];
    view.switches[s].captured_at = bounding_samples(sw.captured_at, interval);
    for (std::size_t p = 0; p < sw.ports.size(); ++p) {
      view.switches[s].ports[p].samples = bounding_samples(sw.ports[p].samples, interval);
    }
  }
  view.ib.samples = bounding_samples(m_fabric.ib.samples, interval);
  for (std::size_t n = 0; n < view.ib.nodes.size(); ++n) {
    const IbNode& node = m_fabric.ib.nodes[n];
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      IbPort& port = view.ib.nodes[n].ports[p];
      port.samples = bounding_samples(node.ports[p].samples, interval);
      port.saturated = saturated_in(node.ports[p].saturated, interval);
    }
  }
  return view;
}

double IntervalViews::median_time(std::size_t sample) const {
  std::vector<double> times;
  for (const Host& host : m_fabric.hosts) {
    if (sample < host.captured_at.size()) {
      times.push_back(host.captured_at[sample]);
    }
  }
  if (times.empty()) {
    for (const Switch& sw : m_fabric.switches) {
      if (sample < sw.captured_at.size()) {
        times.push_back(sw.captured_at[sample]);
      }
    }
  }
  if (times.empty() && sample < m_fabric.ib.samples.size()) {
    times.push_back(m_fabric.ib.samples[sample].captured_at);
  }
  return median(std::move(times));
}

double IntervalViews::started_at(std::size_t interval) const {
  return median_time(interval - 1);
}

double IntervalViews::ended_at(std::size_t interval) const {
  return median_time(interval);
}

}  // namespace netdoctor::model
