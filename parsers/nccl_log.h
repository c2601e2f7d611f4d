// The log of a job run with NCCL_DEBUG=INFO: "host:pid:tid [cudaDev] NCCL INFO|WARN ..." lines,
// also with an mpirun "[rank] " prefix, a missing host (":22901:22901 [0] ..."), quoted, or mixed
// with the job's own output. What the diagnosis needs: which NICs NCCL chose per host, the
// transport of every channel, GPUDirect RDMA, the NCCL_* settings it read, warnings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "parsers/nccl_tests.h"

namespace netdoctor::parsers {

// "NET/IB : GPU Direct RDMA Enabled|Disabled for HCA 0 'mlx5_0' (no module)".
struct NcclGdrState {
  std::optional<std::uint32_t> hca_index;
  std::string hca;  // "mlx5_0"
  bool enabled = false;
  std::string note;  // "no module", "distance 4 > 2"; "" when none
};

struct NcclLogHost {
  std::string host;  // "" when the log strips it (":22901:22901 [0] ...")
  std::vector<std::uint64_t> pids;
  std::vector<NcclIbDevice> ib_devices;     // first "NET/IB : Using" of the host
  bool relaxed_ordering = false;            // "[RO]"
  std::string oob;                          // "eth0:10.0.0.1<0>" after "OOB"
  std::vector<std::string> socket_devices;  // "NET/Socket : Using [0]eth0:10.0.0.1<0>"
  std::string network;                      // "Using network IB|IBext_v8|Socket"
  std::vector<NcclGdrState> gdr;            // one per HCA, as printed
  std::optional<bool> rings_gdr;            // "Connected all rings, use ring PXN 0 GDR 0|1"
};

// "comm 0x... rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x... - Init COMPLETE".
struct NcclLogRank {
  std::uint32_t rank = 0;
  std::optional<std::uint32_t> nranks;
  std::string host;
  std::optional<std::uint64_t> pid;
  std::optional<std::uint32_t> cuda_dev;
  std::string bus_id;   // "1c000"
  std::string comm;     // "0x55cc8aa86c70"
  std::string comm_id;  // "0x65e0bd6ee7449db4"
  bool init_complete = false;
};

// "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA" (also the older "Channel 01 :
// 2[c7000] -> 0[87000] [receive] via ..." and "Ring 00 : 56[1a000] -> 58[3e000] via P2P/IPC").
struct NcclLogChannel {
  std::string host;
  std::optional<std::uint64_t> pid;
  std::optional<std::uint32_t> cuda_dev;
  std::uint32_t channel = 0;
  std::string from_device;  // inside the brackets: cudaDev ("0") or busId ("c7000")
  std::string to_device;
  std::uint32_t from_rank = 0;
  std::uint32_t to_rank = 0;
  std::string direction;  // "send", "receive", "" (intra-node rings)
  std::string transport;  // "NET/IB", "NET/IBext_v8", "NET/Socket", "P2P/IPC", "SHM", ...
  std::optional<std::uint32_t> nic;  // NET/IB/<nic>: index into the host's ib_devices
  bool gdrdma = false;               // "/GDRDMA": GPUDirect RDMA on this channel
  std::string via;                   // as printed after "via "
  bool ring = false;                 // printed as "Ring" (NCCL < 2.4)

  // The rank this line's process is: the receiver of a "[receive]", the sender otherwise.
  std::uint32_t local_rank() const { return direction == "receive" ? to_rank : from_rank; }
};

struct NcclLogWarning {
  std::string host;
  std::optional<std::uint64_t> pid;
  std::string location;  // "misc/ibvwrap.cc:284" when printed
  std::string message;   // text after "NCCL WARN "
};

struct NcclLog {
  std::vector<std::string> versions;  // distinct "NCCL version 2.19.3+cuda12.3", first seen first
  std::vector<NcclLogHost> hosts;     // in order of first appearance
  std::vector<NcclLogRank> ranks;     // one per (comm, rank)
  std::vector<NcclLogChannel> channels;
  std::map<std::string, std::string> env;  // "NCCL_IB_GID_INDEX" -> "3" ("set [by environment] to")
  std::vector<NcclLogWarning> warnings;
  std::size_t nccl_lines = 0;          // lines with NCCL INFO / NCCL WARN / NCCL version
  std::size_t unrecognised_lines = 0;  // non-blank lines that gave nothing above

  const NcclLogHost* find_host(std::string_view host) const;
};

// Fails when no line carries "NCCL INFO", "NCCL WARN" or "NCCL version".
Result<NcclLog> parse_nccl_log(std::string_view text);

nlohmann::json to_json(const NcclLog& log);

}  // namespace netdoctor::parsers
