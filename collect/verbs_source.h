// The RDMA devices as libibverbs (rdma-core) reports them: names, firmware, ports and their
// state. A thin interface so collect builds and tests without rdma-core; the real one exists
// only in builds with NETDOCTOR_WITH_VERBS.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::collect {

struct VerbsPort {
  int number = 1;
  // In the form sysfs prints, so a capture reads the same whichever source filled it.
  std::string state;       // "4: ACTIVE"
  std::string phys_state;  // "5: LinkUp"
  std::string link_layer;  // "Ethernet" or "InfiniBand"
};

struct VerbsDevice {
  std::string name;  // "mlx5_0", "bnxt_re0"
  std::string fw_ver;
  std::vector<VerbsPort> ports;
};

class VerbsSource {
 public:
  virtual ~VerbsSource() = default;
  // Empty when the host has no RDMA device (or no RDMA kernel support).
  virtual Result<std::vector<VerbsDevice>> devices() const = 0;
};

// libibverbs; nullptr in a build without it.
std::unique_ptr<VerbsSource> make_ibverbs_source();

// For tests and for replaying a known device set.
class FixedVerbsSource final : public VerbsSource {
 public:
  explicit FixedVerbsSource(std::vector<VerbsDevice> devices) : m_devices(std::move(devices)) {}
  Result<std::vector<VerbsDevice>> devices() const override { return m_devices; }

 private:
  std::vector<VerbsDevice> m_devices;
};

// sysfs spellings of ibv_port_state / phys_state / link_layer values.
std::string sysfs_port_state(int state);
std::string sysfs_phys_state(int phys_state);
std::string sysfs_link_layer(int link_layer);

}  // namespace netdoctor::collect
