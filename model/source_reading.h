// Reading one data source of a sample and classifying the outcome, shared by the host and
// switch loaders: NotFound is Absent (never zero, never a problem); other read errors are
// Unreadable; a parser's refusal is Malformed. Both of the latter become Problems. A source the
// SourceFilter withholds is not read at all: Absent "withheld", never a problem.
//
// Every read of a sample by the loaders goes through here, so that the filter holds everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_tree.h"
#include "base/result.h"
#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

// Collects availability and problems for one entity (a host or a switch).
class SourceLog {
 public:
  SourceLog(std::string entity, std::vector<Problem>& problems, SourceFilter filter = {})
      : m_entity(std::move(entity)), m_problems(problems), m_filter(filter) {}

  // Whether `source` may be read. When the filter withholds it: false, and `source` recorded
  // into `map` as Absent "withheld".
  bool admit(const std::string& source, SourceMap& map);
  // Whether `source` may be read, recording nothing (for facts one output gives for another
  // source's sake).
  bool admits(const std::string& source) const { return m_filter.admits(source); }
  // A file by absolute path; nullopt (and the outcome logged under `source` into `map`)
  // when it could not be read or is withheld.
  std::optional<std::string> read_file(const SampleSource& sample, std::string_view path,
                                       const std::string& source, SourceMap& map);
  std::optional<std::string> command(const SampleSource& sample,
                                     const std::vector<std::string>& argv,
                                     const std::string& source, SourceMap& map);
  // Records that content read from `where` did not parse.
  void malformed(const std::string& source, const std::string& where, const Error& error,
                 SourceMap& map);
  void observed(const std::string& source, SourceMap& map);
  void problem(const std::string& source, Error error);
  const std::string& entity() const { return m_entity; }

 private:
  std::optional<std::string> handle(Result<std::string> result, const std::string& where,
                                    const std::string& source, SourceMap& map);
  std::string m_entity;
  std::vector<Problem>& m_problems;
  SourceFilter m_filter;
};

// Keeps the most telling state per source: a problem over Observed over Absent.
void record_source(SourceMap& map, const std::string& source, Availability availability,
                   std::string detail = {});

// A command's output parsed by `parse` (a function of std::string_view returning Result<T>);
// nullopt when not captured, withheld, unreadable or refused by the parser (logged as
// Malformed).
template <typename T, typename Parse>
std::optional<T> parse_command(SourceLog& log, const SampleSource& sample,
                               const std::vector<std::string>& argv, const std::string& source,
                               SourceMap& map, Parse parse) {
  auto text = log.command(sample, argv, source, map);
  if (!text) {
    return std::nullopt;
  }
  auto parsed = parse(*text);
  if (!parsed.ok()) {
    log.malformed(source, sample.display_command(argv), parsed.error(), map);
    return std::nullopt;
  }
  return std::move(parsed).value();
}

// A directory's entries; nullopt when absent, unreadable (a problem) or withheld.
std::optional<std::vector<DirEntry>> list_dir(SourceLog& log, const SampleSource& sample,
                                              const std::string& path, const std::string& source,
                                              SourceMap& map);

// A directory's entries where its absence or failure says nothing worth recording (a
// sub-directory of a listing already recorded under `source`): nullopt on any failure, and
// only a withheld `source` is recorded.
std::optional<std::vector<DirEntry>> peek_dir(SourceLog& log, const SampleSource& sample,
                                              const std::string& path, const std::string& source,
                                              SourceMap& map);

// A one-line file (sysfs) trimmed; nullopt when absent, unreadable or withheld (logged).
std::optional<std::string> read_value(SourceLog& log, const SampleSource& sample,
                                      const std::string& path, const std::string& source,
                                      SourceMap& map);

// A one-line file holding a signed integer; text that is not one is logged as Malformed.
std::optional<std::int64_t> read_integer(SourceLog& log, const SampleSource& sample,
                                         const std::string& path, const std::string& source,
                                         SourceMap& map);

}  // namespace netdoctor::model
