// NCCL logs and nccl-tests outputs of the incident's job, copied into the bundle as
// nccl/<job>/<file name> (spec/bundle.md, "NCCL (1.1)"): the job's own record of which
// transport, HCAs and GID index it used, which no host command can show afterwards.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/tree_writer.h"

namespace netdoctor::collect {

struct NcclLogsReport {
  std::size_t copied = 0;
  std::vector<std::string> notes;  // one per file not copied, naming it and why
};

// Reads each of `files` (paths on this machine) and writes it under nccl/<job>/ by its base
// name (a second file of the same name gets "-2", "-3" ...). A file that cannot be read, is
// over the size limit or is not a regular file is noted and skipped; the rest are copied.
// InvalidArgument for a job name that cannot be one directory name; Io when the writer fails.
Result<NcclLogsReport> copy_nccl_logs(const std::vector<std::string>& files, const std::string& job,
                                      TreeWriter& out);

}  // namespace netdoctor::collect
