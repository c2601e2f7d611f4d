// A bundle held in memory, written the way spec/bundle.md lays it out, for loader tests.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "base/sample_source.h"

namespace netdoctor::testing {

class MemBundle {
 public:
  MemBundle() : m_tree(std::make_shared<MemTree>("test bundle")) {}

  // Host file by absolute path within sample `sample`.
  void file(const std::string& host, const std::string& sample, const std::string& abs,
            const std::string& text) {
    m_tree->add_file("hosts/" + host + "/" + sample + abs, text);
    note(m_hosts, host, sample);
  }
  void command(const std::string& machine, const std::string& sample,
               const std::vector<std::string>& argv, const std::string& text,
               bool is_switch = false) {
    const std::string root = is_switch ? "switches/" : "hosts/";
    m_tree->add_file(root + machine + "/" + sample + "/sos_commands/group/" + mangle_command(argv),
                     text);
    note(is_switch ? m_switches : m_hosts, machine, sample);
  }
  void time(const std::string& host, const std::string& sample, double at, bool is_switch = false) {
    const std::string root = is_switch ? "switches/" : "hosts/";
    m_tree->add_file(root + host + "/" + sample + "/captured_at", std::to_string(at));
    note(is_switch ? m_switches : m_hosts, host, sample);
  }
  // fabric/<sample>/: a command output under sos_commands/infiniband/, a file by its path
  // relative to the sample, the sample's time.
  void fabric_command(const std::string& sample, const std::vector<std::string>& argv,
                      const std::string& text) {
    fabric_file(sample, "sos_commands/infiniband/" + mangle_command(argv), text);
  }
  void fabric_file(const std::string& sample, const std::string& relative,
                   const std::string& text) {
    m_tree->add_file("fabric/" + sample + "/" + relative, text);
    m_fabric.insert(sample);
  }
  void fabric_time(const std::string& sample, double at) {
    fabric_file(sample, "captured_at", std::to_string(at));
  }
  MemTree& tree() { return *m_tree; }

  Bundle build() const {
    Bundle bundle;
    bundle.path = "mem";
    bundle.tree = m_tree;
    bundle.hosts = captures("hosts/", m_hosts);
    bundle.switches = captures("switches/", m_switches);
    for (const auto& sample : m_fabric) {
      bundle.fabric_samples.push_back(
          MachineSample{sample, make_tree_sample(m_tree, "fabric/" + sample, "fabric " + sample)});
    }
    return bundle;
  }

 private:
  using Index = std::map<std::string, std::set<std::string>>;
  static void note(Index& index, const std::string& machine, const std::string& sample) {
    index[machine].insert(sample);
  }
  std::vector<MachineCapture> captures(const std::string& root, const Index& index) const {
    std::vector<MachineCapture> out;
    for (const auto& [machine, samples] : index) {
      MachineCapture capture{machine, {}};
      for (const auto& sample : samples) {
        capture.samples.push_back(MachineSample{
            sample, make_tree_sample(m_tree, root + machine + "/" + sample, machine)});
      }
      out.push_back(std::move(capture));
    }
    return out;
  }
  std::shared_ptr<MemTree> m_tree;
  Index m_hosts;
  Index m_switches;
  std::set<std::string> m_fabric;
};

}  // namespace netdoctor::testing
