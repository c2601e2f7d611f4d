// IbsimFabric: a simulated InfiniBand subnet for tests that run the real infiniband-diags (and
// `netdoctor collect`) against it. ibsim (Debian ibsim-utils) serves a topology file; every
// libibumad program run with LD_PRELOAD=libumad2sim.so talks to it instead of /dev/umad; opensm
// run the same way assigns LIDs and routes. Each fabric binds its own IBSIM_SOCKNAME, so tests
// may run side by side, and the destructor stops every process it started (process groups:
// SIGTERM, then SIGKILL) and removes its scratch directory.
//
//   if (auto why = IbsimFabric::missing(); !why.empty()) GTEST_SKIP() << why;
//   IbsimFabric fabric(fat_tree_netfile(FatTree{}));
//   ASSERT_TRUE(fabric.start_opensm());
//   fabric.console("Unlink \"" + leaf_description(3) + "\"[3]");
//   auto out = fabric.run({"iblinkinfo"});
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace netdoctor::testing {

// A two-tier fat tree: every leaf has `hosts_per_leaf` HCAs on ports 1..hosts_per_leaf and one
// uplink to each spine on the ports after them; spine port L is cabled to leaf L. Links are
// 4x at `speed` (ibsim knows SDR DDR QDR FDR10 FDR EDR HDR).
struct FatTree {
  int spines = 2;
  int leaves = 4;
  int hosts_per_leaf = 4;
  int switch_ports = 40;  // a Quantum HDR switch
  std::string speed = "HDR";
};

// Switch node descriptions as Mellanox/NVIDIA switches print them ("MF0;leaf-01:MQM8700/U1").
std::string spine_description(int spine);  // 1-based
std::string leaf_description(int leaf);    // 1-based
// "node01 mlx5_0": the Linux default description "<host> <dev>" (1-based, leaf-major).
std::string host_description(int host);
std::string host_name(int host);  // "node01"
// The topology in ibsim's netfile format (ibnetdiscover's, with "# lid 0 4xHDR" link comments).
std::string fat_tree_netfile(const FatTree& shape);
// How many nodes (switches and HCAs) the fat tree has.
int fat_tree_nodes(const FatTree& shape);

struct ToolOutput {
  int exit_code = -1;  // 128 + signal when killed (also at the timeout)
  std::string out;
  std::string err;
};

class IbsimFabric {
 public:
  // Empty when ibsim, libumad2sim.so, opensm and infiniband-diags are installed; else what is
  // missing (the reason tests give GTEST_SKIP).
  static std::string missing();

  // Writes `netfile` into a scratch directory and starts ibsim on it with a console pipe. Tools
  // attach at `attach_to` (SIM_HOST), an HCA as on a real host. Fails the test (ADD_FAILURE)
  // when ibsim does not come up; ok() says whether it did.
  explicit IbsimFabric(const std::string& netfile, std::string attach_to = host_description(1));
  ~IbsimFabric();
  IbsimFabric(const IbsimFabric&) = delete;
  IbsimFabric& operator=(const IbsimFabric&) = delete;

  bool ok() const { return m_ibsim > 0; }

  // Starts opensm (its log, cache and temp files in the scratch directory) and waits until it
  // is master and every port of the subnet is Active (LIDs assigned, routes set). False (with
  // the opensm log's end in a test failure) if that takes longer than `wait`.
  bool start_opensm(std::chrono::milliseconds wait = std::chrono::seconds(20));

  // Stops opensm (SIGTERM, then SIGKILL): the subnet keeps its LIDs and routes, without a
  // master SM.
  void stop_opensm();

  // One ibsim console command ("PerformanceSet ...", "Unlink ...", "Link ..."), applied before
  // this returns (ibsim has printed its next prompt). Returns what ibsim printed for it.
  std::string console(const std::string& command);

  // Runs a tool under umad2sim against this fabric (argv, no shell); cwd is the scratch dir.
  ToolOutput run(const std::vector<std::string>& argv,
                 std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

  // The environment a program needs to reach this fabric: LD_PRELOAD, IBSIM_SOCKNAME, SIM_HOST.
  std::vector<std::pair<std::string, std::string>> env() const;

  // Scratch directory (on tmpfs when /dev/shm is there: umad2sim writes a fake sysfs into the
  // working directory of every tool it runs, which on a disk costs ~100 ms per command). Run
  // netdoctor with it as its sandbox.
  const std::string& dir() const { return m_dir; }

  // The LID of a node (its port 0 for a switch, port 1 for an HCA) from ibnetdiscover; 0 if none.
  unsigned lid_of(const std::string& description) const;

 private:
  std::string m_dir;
  bool m_dir_is_ours = false;  // made on /dev/shm: removed by the destructor
  std::string m_sockname;
  std::string m_attach_to;
  pid_t m_ibsim = -1;
  pid_t m_opensm = -1;
  int m_console = -1;
  mutable std::atomic<int> m_runs{0};  // names each run's output files  // write end of ibsim's
                                       // stdin (open for ibsim's life: at EOF it spins)
};

}  // namespace netdoctor::testing
