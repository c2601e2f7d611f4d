#include "model/ib_port_views.h"

#include <string>

#include "base/strings.h"
#include "model/ib_link_speed.h"

namespace netdoctor::model {
namespace {

constexpr std::string_view k_could_be = "Could be ";

void set_rate(IbPort& port, std::optional<int> lanes, const IbSpeed& speed,
              std::optional<double> printed_lane_gbps) {
  port.width = lanes;
  port.speed = std::string(speed.name);
  port.lane_gbps = printed_lane_gbps.value_or(speed.lane_gbps);
  port.data_gbps.reset();
  if (lanes) {
    port.data_gbps = *lanes * speed.data_gbps;
  }
}

void clear_rate(IbPort& port) {
  port.width.reset();
  port.speed.clear();
  port.lane_gbps.reset();
  port.data_gbps.reset();
}

}  // namespace

void set_trained(IbPort& port, std::string_view width, std::string_view speed) {
  auto named = ib_speed_named(speed);
  if (!named) {
    return;
  }
  set_rate(port, ib_width_from_text(width), *named, std::nullopt);
}

void set_trained_lane_rate(IbPort& port, std::string_view width, std::optional<double> lane_gbps) {
  if (trim(width).empty() || !lane_gbps) {
    clear_rate(port);
    return;
  }
  auto speed = ib_speed_from_lane_gbps(*lane_gbps);
  if (!speed) {
    clear_rate(port);
    port.width = ib_width_from_text(width);
    port.lane_gbps = lane_gbps;
    return;
  }
  set_rate(port, ib_width_from_text(width), *speed, lane_gbps);
}

void set_supported(IbPort& port, std::string_view comment) {
  std::optional<int> lanes;
  std::optional<IbSpeed> speed;
  for (auto at = comment.find(k_could_be); at != std::string_view::npos;
       at = comment.find(k_could_be, at + 1)) {
    const auto words = split_ws(comment.substr(at + k_could_be.size()));
    if (words.empty()) {
      continue;
    }
    if (auto width = ib_width_from_text(words[0])) {
      lanes = width;
    } else if (words.size() > 1 && words[1] == "Gbps") {
      if (auto rate = parse_double(words[0])) {
        speed = ib_speed_from_lane_gbps(*rate);
      }
    }
  }
  if (!lanes && !speed) {
    return;
  }
  port.supported_width = lanes ? lanes : port.width;
  if (speed) {
    port.supported_speed = std::string(speed->name);
  }
  auto data_per_lane = speed ? std::optional<double>(speed->data_gbps) : std::nullopt;
  if (!data_per_lane && !port.speed.empty()) {
    if (auto current = ib_speed_named(port.speed)) {
      data_per_lane = current->data_gbps;
    }
  }
  if (port.supported_width && data_per_lane) {
    port.supported_data_gbps = *port.supported_width * *data_per_lane;
  }
}

RdmaPortState ib_port_state_named(std::string_view state) {
  if (starts_with(to_lower(trim(state)), "init")) {
    return RdmaPortState::Init;
  }
  return rdma_port_state_named(state);
}

}  // namespace netdoctor::model
