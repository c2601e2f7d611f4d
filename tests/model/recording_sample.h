// A SampleSource that notes every file, directory and command asked of the sample it wraps, to
// prove what a load did not touch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/sample_source.h"

namespace netdoctor::testing {

// One line per access: "file <path>", "dir <path>" or "command <argv joined by spaces>".
using AccessLog = std::vector<std::string>;

class RecordingSample : public SampleSource {
 public:
  // REQUIRES: `log` outlives this sample and is not shared with another thread.
  RecordingSample(std::shared_ptr<const SampleSource> inner, AccessLog& log)
      : m_inner(std::move(inner)), m_log(log) {}

  Result<std::string> read_file(std::string_view abs_path) const override;
  Result<std::vector<DirEntry>> list_dir(std::string_view abs_path) const override;
  Result<std::string> command(const std::vector<std::string>& argv) const override;
  Result<double> captured_at() const override { return m_inner->captured_at(); }
  std::string describe() const override { return m_inner->describe(); }
  std::string display_path(std::string_view abs_path) const override {
    return m_inner->display_path(abs_path);
  }
  std::string display_command(const std::vector<std::string>& argv) const override {
    return m_inner->display_command(argv);
  }

 private:
  std::shared_ptr<const SampleSource> m_inner;
  AccessLog& m_log;
};

// `bundle` with every host and switch sample wrapped to note its accesses into `log`.
Bundle recording(const Bundle& bundle, AccessLog& log);

}  // namespace netdoctor::testing
