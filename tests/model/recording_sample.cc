#include "tests/model/recording_sample.h"

namespace netdoctor::testing {

Result<std::string> RecordingSample::read_file(std::string_view abs_path) const {
  m_log.push_back("file " + std::string(abs_path));
  return m_inner->read_file(abs_path);
}

Result<std::vector<DirEntry>> RecordingSample::list_dir(std::string_view abs_path) const {
  m_log.push_back("dir " + std::string(abs_path));
  return m_inner->list_dir(abs_path);
}

Result<std::string> RecordingSample::command(const std::vector<std::string>& argv) const {
  std::string line = "command";
  for (const auto& arg : argv) {
    line += " " + arg;
  }
  m_log.push_back(line);
  return m_inner->command(argv);
}

Bundle recording(const Bundle& bundle, AccessLog& log) {
  Bundle out = bundle;
  for (auto* machines : {&out.hosts, &out.switches}) {
    for (auto& machine : *machines) {
      for (auto& sample : machine.samples) {
        sample.source = std::make_shared<RecordingSample>(sample.source, log);
      }
    }
  }
  return out;
}

}  // namespace netdoctor::testing
