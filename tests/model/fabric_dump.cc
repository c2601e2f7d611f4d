#include "tests/model/fabric_dump.h"

namespace netdoctor::testing {
namespace {

using nlohmann::json;
using namespace model;

template <typename T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json dump(const SourceMap& sources) {
  json out = json::object();
  for (const auto& [name, state] : sources) {
    out[name] = {to_string(state.availability), state.detail};
  }
  return out;
}

json dump(const std::vector<CounterSample>& samples) {
  json out = json::array();
  for (const auto& sample : samples) {
    json values = json::array();
    for (const auto& [key, value] : sample.values) {
      values.push_back({key.name, key.index, value});
    }
    out.push_back({{"captured_at", sample.captured_at}, {"values", std::move(values)}});
  }
  return out;
}

json dump(const std::vector<Gid>& gids) {
  json out = json::array();
  for (const auto& gid : gids) {
    out.push_back({{"index", gid.index},
                   {"gid", gid.gid},
                   {"type", gid.type},
                   {"ndev", gid.ndev},
                   {"ipv4", gid.ipv4}});
  }
  return out;
}

json dump(const Nic& nic) {
  json pfc = json::array();
  for (const auto& enabled : nic.qos.pfc_enabled) {
    pfc.push_back(or_null(enabled));
  }
  json dscp = json::object();
  for (const auto& [code, priority] : nic.qos.dscp_to_priority) {
    dscp[std::to_string(code)] = priority;
  }
  return {{"host", nic.host},
          {"device", nic.device},
          {"netdev", nic.netdev},
          {"port", nic.port},
          {"vendor", nic.vendor},
          {"driver", nic.driver},
          {"driver_version", nic.driver_version},
          {"firmware", nic.firmware},
          {"board_id", nic.board_id},
          {"part_id", nic.part_id},
          {"bus_info", nic.bus_info},
          {"mtu", or_null(nic.mtu)},
          {"active_mtu", or_null(nic.active_mtu)},
          {"max_mtu", or_null(nic.max_mtu)},
          {"speed_gbps", or_null(nic.speed_gbps)},
          {"rated_gbps", or_null(nic.rated_gbps)},
          {"active_width", or_null(nic.active_width)},
          {"state", to_string(nic.state)},
          {"phys_state", to_string(nic.phys_state)},
          {"operstate", to_string(nic.operstate)},
          {"link_layer", nic.link_layer},
          {"mac", nic.mac},
          {"ipv4", nic.ipv4},
          {"qos",
           {{"trust", nic.qos.trust},
            {"pfc_enabled", std::move(pfc)},
            {"dcbx_mode", nic.qos.dcbx_mode},
            {"dscp_to_priority", std::move(dscp)}}},
          {"gids", dump(nic.gids)},
          {"switch_name", nic.switch_name},
          {"switch_port", nic.switch_port},
          {"samples", dump(nic.samples)},
          {"sources", dump(nic.sources)}};
}

json dump(const Host& host) {
  json nics = json::array();
  for (const auto& nic : host.nics) {
    nics.push_back(dump(nic));
  }
  json interfaces = json::array();
  for (const auto& iface : host.interfaces) {
    interfaces.push_back({{"name", iface.name},
                          {"mtu", or_null(iface.mtu)},
                          {"state", to_string(iface.state)},
                          {"ipv4", iface.ipv4}});
  }
  return {{"name", host.name},
          {"captured_at", host.captured_at},
          {"clock",
           {{"offset_s", or_null(host.clock.offset_s)},
            {"synchronised", or_null(host.clock.synchronised)},
            {"leap_status", host.clock.leap_status},
            {"reference", host.clock.reference},
            {"stratum", or_null(host.clock.stratum)}}},
          {"nics", std::move(nics)},
          {"interfaces", std::move(interfaces)},
          {"sources", dump(host.sources)}};
}

json dump(const Switch& sw) {
  json ports = json::array();
  for (const auto& port : sw.ports) {
    ports.push_back({{"name", port.name},
                     {"alias", port.alias},
                     {"speed_gbps", or_null(port.speed_gbps)},
                     {"mtu", or_null(port.mtu)},
                     {"oper", to_string(port.oper)},
                     {"admin", to_string(port.admin)},
                     {"peer_device", port.peer_device},
                     {"peer_port", port.peer_port},
                     {"samples", dump(port.samples)}});
  }
  return {{"name", sw.name},
          {"captured_at", sw.captured_at},
          {"ports", std::move(ports)},
          {"sources", dump(sw.sources)}};
}

json dump(const PerftestResult& run) {
  return {{"client", run.client},
          {"server", run.server},
          {"test", run.test},
          {"device", run.device},
          {"baseline", run.baseline},
          {"ok", run.ok},
          {"error", run.error},
          {"msg_bytes", or_null(run.msg_bytes)},
          {"bw_avg_gbps", or_null(run.bw_avg_gbps)},
          {"bw_peak_gbps", or_null(run.bw_peak_gbps)},
          {"msg_rate_mpps", or_null(run.msg_rate_mpps)},
          {"lat_typical_us", or_null(run.lat_typical_us)},
          {"lat_avg_us", or_null(run.lat_avg_us)},
          {"lat_p99_us", or_null(run.lat_p99_us)},
          {"file", run.file}};
}

}  // namespace

json fabric_dump(const model::Fabric& fabric) {
  json hosts = json::array();
  for (const auto& host : fabric.hosts) {
    hosts.push_back(dump(host));
  }
  json switches = json::array();
  for (const auto& sw : fabric.switches) {
    switches.push_back(dump(sw));
  }
  json perftests = json::array();
  for (const auto& run : fabric.perftests) {
    perftests.push_back(dump(run));
  }
  json problems = json::array();
  for (const auto& problem : fabric.problems) {
    problems.push_back({problem.entity, problem.source, to_string(problem.error.code),
                        problem.error.message, problem.error.context});
  }
  return {{"name", fabric.name},
          {"hosts", std::move(hosts)},
          {"switches", std::move(switches)},
          {"perftests", std::move(perftests)},
          {"problems", std::move(problems)}};
}

}  // namespace netdoctor::testing
