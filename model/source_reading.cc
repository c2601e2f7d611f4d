#include "model/source_reading.h"

#include <fmt/format.h>

#include "base/strings.h"

namespace netdoctor::model {
namespace {

int rank(Availability availability) {
  switch (availability) {
    case Availability::Absent:
      return 0;
    case Availability::Observed:
      return 1;
    case Availability::Unreadable:
    case Availability::Malformed:
      return 2;
  }
  return 0;
}

// list_dir and peek_dir: the same listing, its failure recorded or not.
std::optional<std::vector<DirEntry>> listing(SourceLog& log, const SampleSource& sample,
                                             const std::string& path, const std::string& source,
                                             SourceMap& map, bool record_failure) {
  if (!log.admit(source, map)) {
    return std::nullopt;
  }
  auto entries = sample.list_dir(path);
  if (entries.ok()) {
    return std::move(entries).value();
  }
  if (!record_failure) {
    return std::nullopt;
  }
  if (entries.error().code == ErrorCode::NotFound) {
    record_source(map, source, Availability::Absent, sample.display_path(path) + ": not captured");
    return std::nullopt;
  }
  Error error = entries.error();
  error.context = sample.display_path(path);
  record_source(map, source, Availability::Unreadable, error.describe());
  log.problem(source, std::move(error));
  return std::nullopt;
}

}  // namespace

void record_source(SourceMap& map, const std::string& source, Availability availability,
                   std::string detail) {
  auto [it, inserted] = map.try_emplace(source, SourceState{availability, detail});
  if (!inserted && rank(availability) > rank(it->second.availability)) {
    it->second = SourceState{availability, std::move(detail)};
  }
}

bool SourceLog::admit(const std::string& source, SourceMap& map) {
  if (m_filter.admits(source)) {
    return true;
  }
  record_source(map, source, Availability::Absent, k_withheld);
  return false;
}

std::optional<std::string> SourceLog::handle(Result<std::string> result, const std::string& where,
                                             const std::string& source, SourceMap& map) {
  if (result.ok()) {
    record_source(map, source, Availability::Observed);
    return std::move(result).value();
  }
  const Error& error = result.error();
  if (error.code == ErrorCode::NotFound) {
    record_source(map, source, Availability::Absent, where + ": not captured");
    return std::nullopt;
  }
  Error named = error;
  named.context = where;
  record_source(map, source, Availability::Unreadable, named.describe());
  m_problems.push_back(Problem{m_entity, source, std::move(named)});
  return std::nullopt;
}

std::optional<std::string> SourceLog::read_file(const SampleSource& sample, std::string_view path,
                                                const std::string& source, SourceMap& map) {
  if (!admit(source, map)) {
    return std::nullopt;
  }
  auto result = sample.read_file(path);
  if (result.ok()) {  // the common case: no display path built
    record_source(map, source, Availability::Observed);
    return std::move(result).value();
  }
  return handle(std::move(result), sample.display_path(path), source, map);
}

std::optional<std::string> SourceLog::command(const SampleSource& sample,
                                              const std::vector<std::string>& argv,
                                              const std::string& source, SourceMap& map) {
  if (!admit(source, map)) {
    return std::nullopt;
  }
  auto result = sample.command(argv);
  if (result.ok()) {
    record_source(map, source, Availability::Observed);
    return std::move(result).value();
  }
  return handle(std::move(result), sample.display_command(argv), source, map);
}

void SourceLog::malformed(const std::string& source, const std::string& where, const Error& error,
                          SourceMap& map) {
  Error named = make_error(ErrorCode::Parse, error.message, where);
  record_source(map, source, Availability::Malformed, named.describe());
  m_problems.push_back(Problem{m_entity, source, std::move(named)});
}

void SourceLog::observed(const std::string& source, SourceMap& map) {
  record_source(map, source, Availability::Observed);
}

void SourceLog::problem(const std::string& source, Error error) {
  m_problems.push_back(Problem{m_entity, source, std::move(error)});
}

std::optional<std::vector<DirEntry>> list_dir(SourceLog& log, const SampleSource& sample,
                                              const std::string& path, const std::string& source,
                                              SourceMap& map) {
  return listing(log, sample, path, source, map, true);
}

std::optional<std::vector<DirEntry>> peek_dir(SourceLog& log, const SampleSource& sample,
                                              const std::string& path, const std::string& source,
                                              SourceMap& map) {
  return listing(log, sample, path, source, map, false);
}

std::optional<std::string> read_value(SourceLog& log, const SampleSource& sample,
                                      const std::string& path, const std::string& source,
                                      SourceMap& map) {
  auto text = log.read_file(sample, path, source, map);
  if (!text) {
    return std::nullopt;
  }
  return std::string(trim(*text));
}

std::optional<std::int64_t> read_integer(SourceLog& log, const SampleSource& sample,
                                         const std::string& path, const std::string& source,
                                         SourceMap& map) {
  auto text = read_value(log, sample, path, source, map);
  if (!text) {
    return std::nullopt;
  }
  auto value = parse_i64(*text);
  if (!value) {
    log.malformed(source, sample.display_path(path),
                  make_error(ErrorCode::Parse, fmt::format("'{}' is not an integer", *text)), map);
  }
  return value;
}

}  // namespace netdoctor::model
