#include "model/counter_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/strings.h"

namespace netdoctor::embedded {
std::vector<std::pair<std::string_view, std::string_view>> model_data();
}  // namespace netdoctor::embedded

namespace netdoctor::model {
namespace {

constexpr std::string_view k_any_vendor = "any";
constexpr std::string_view k_table_file = "model/counters.tsv";
const std::set<std::string, std::less<>> k_units = {"count", "packets", "frames", "bytes", "bits",
                                                    "us",    "ticks",   "blocks", "events"};

// A placeholder and how many values it expands to.
struct Placeholder {
  std::string_view token;        // "{p}"
  std::string_view metric_tail;  // "[{p}]"
  int count;
};
constexpr std::array<Placeholder, 2> k_placeholders = {{{"{p}", "[{p}]", 8}, {"{q}", "[{q}]", 16}}};

bool is_name(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::size_t count_of(std::string_view text, std::string_view part) {
  std::size_t n = 0;
  for (auto pos = text.find(part); pos != std::string_view::npos; pos = text.find(part, pos + 1)) {
    ++n;
  }
  return n;
}

std::string replace_all(std::string_view text, std::string_view token, std::string_view with) {
  std::string out;
  std::size_t start = 0;
  for (auto pos = text.find(token); pos != std::string_view::npos; pos = text.find(token, start)) {
    out.append(text.substr(start, pos - start));
    out.append(with);
    start = pos + token.size();
  }
  out.append(text.substr(start));
  return out;
}

struct RawRow {
  CounterMapping mapping;
  std::size_t line = 0;
};
using RawSourceRows = std::unordered_map<std::string, RawRow>;
using RawVendorRows = std::array<RawSourceRows, k_counter_source_count>;

Error row_error(std::string_view file_name, std::size_t line, std::string message) {
  return make_error(ErrorCode::Parse, fmt::format("{}:{}: {}", file_name, line, message),
                    std::string(file_name));
}

}  // namespace

const char* to_string(CounterSource source) {
  switch (source) {
    case CounterSource::Ethtool:
      return "ethtool";
    case CounterSource::HwCounters:
      return "hw_counters";
    case CounterSource::IbCounters:
      return "ib_counters";
    case CounterSource::NetdevStats:
      return "netdev_stats";
    case CounterSource::Perfquery:
      return "perfquery";
  }
  return "unknown";
}

std::optional<CounterSource> parse_counter_source(std::string_view text) {
  for (auto source : {CounterSource::Ethtool, CounterSource::HwCounters, CounterSource::IbCounters,
                      CounterSource::NetdevStats, CounterSource::Perfquery}) {
    if (text == to_string(source)) {
      return source;
    }
  }
  return std::nullopt;
}

const CounterMapping* CounterMap::find(std::string_view counter) const {
  auto it = m_rows.find(counter);
  return it == m_rows.end() ? nullptr : &it->second;
}

Result<CounterTable> CounterTable::parse(std::string_view text, std::string_view file_name) {
  std::map<std::string, RawVendorRows, std::less<>> raw;
  // Per vendor and source, how many rows so far map to each metric (CounterMapping::rank).
  std::map<std::string, std::array<std::map<MetricKey, int>, k_counter_source_count>> ranks;
  std::size_t row_count = 0;
  std::size_t line_number = 0;
  for (auto line : split(text, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (trim(line).empty() || trim(line).front() == '#') {
      continue;
    }
    auto fields = split(line, '\t');
    if (fields.size() != 6) {
      return row_error(file_name, line_number,
                       fmt::format("expected 6 TAB-separated columns (vendor source counter metric "
                                   "unit scale), found {}",
                                   fields.size()));
    }
    for (auto& field : fields) {
      field = trim(field);
    }
    const auto vendor = fields[0];
    const auto counter = fields[2];
    auto metric = fields[3];
    const auto unit = fields[4];
    if (!is_name(vendor)) {
      return row_error(file_name, line_number, fmt::format("bad vendor '{}'", vendor));
    }
    auto source = parse_counter_source(fields[1]);
    if (!source) {
      return row_error(file_name, line_number,
                       fmt::format("unknown source '{}' (ethtool, hw_counters, ib_counters, "
                                   "netdev_stats, perfquery)",
                                   fields[1]));
    }
    if (counter.empty()) {
      return row_error(file_name, line_number, "empty counter name");
    }
    const Placeholder* placeholder = nullptr;
    std::size_t placeholders = 0;
    for (const auto& candidate : k_placeholders) {
      auto n = count_of(counter, candidate.token);
      placeholders += n;
      if (n > 0) {
        placeholder = &candidate;
      }
    }
    if (placeholders > 1 || count_of(counter, "{") != placeholders) {
      return row_error(
          file_name, line_number,
          fmt::format("counter '{}': use at most one placeholder, {{p}} or {{q}}", counter));
    }
    if (placeholder != nullptr) {
      if (!ends_with(metric, placeholder->metric_tail)) {
        return row_error(file_name, line_number,
                         fmt::format("counter '{}' has {} so metric '{}' must end in {}", counter,
                                     placeholder->token, metric, placeholder->metric_tail));
      }
      metric.remove_suffix(placeholder->metric_tail.size());
    }
    if (!is_name(metric)) {
      return row_error(file_name, line_number,
                       fmt::format("bad metric '{}' (lower-case letters, digits, '_'; an index "
                                   "only as [{{p}}] or [{{q}}] with a matching counter)",
                                   fields[3]));
    }
    if (k_units.find(unit) == k_units.end()) {
      return row_error(file_name, line_number, fmt::format("unknown unit '{}'", unit));
    }
    auto scale = parse_double(fields[5]);
    if (!scale || *scale <= 0.0) {
      return row_error(file_name, line_number,
                       fmt::format("scale '{}' is not a positive number", fields[5]));
    }

    auto& rows = raw[std::string(vendor)][static_cast<std::size_t>(*source)];
    const int expansions = placeholder == nullptr ? 1 : placeholder->count;
    for (int index = 0; index < expansions; ++index) {
      std::string name = placeholder == nullptr
                             ? std::string(counter)
                             : replace_all(counter, placeholder->token, std::to_string(index));
      MetricKey key{std::string(metric), placeholder ? index : -1};
      const int rank = ranks[std::string(vendor)][static_cast<std::size_t>(*source)][key]++;
      RawRow row{
          CounterMapping{std::move(key), *scale, std::string(unit), known_metric_id(metric), rank},
          line_number};
      auto [it, inserted] = rows.emplace(name, std::move(row));
      if (!inserted) {
        return row_error(file_name, line_number,
                         fmt::format("counter '{}' of {} {} is already mapped at line {}", name,
                                     vendor, fields[1], it->second.line));
      }
    }
    ++row_count;
  }
  if (row_count == 0) {
    return make_error(ErrorCode::Parse, fmt::format("{}: no rows", file_name),
                      std::string(file_name));
  }

  CounterTable table;
  table.m_row_count = row_count;
  auto any = raw.find(k_any_vendor);
  for (const auto& [vendor, sources] : raw) {
    auto& merged = table.m_by_vendor[vendor];
    for (std::size_t s = 0; s < k_counter_source_count; ++s) {
      auto& target = merged[s].m_rows;
      for (const auto& [name, row] : sources[s]) {
        target.emplace(name, row.mapping);
      }
      if (any != raw.end() && vendor != k_any_vendor) {
        for (const auto& [name, row] : any->second[s]) {
          target.emplace(name, row.mapping);  // the vendor's own row wins
        }
      }
    }
  }
  return table;
}

Result<CounterTable> CounterTable::builtin() {
  for (const auto& [name, text] : netdoctor::embedded::model_data()) {
    if (name == k_table_file) {
      return parse(text, name);
    }
  }
  return make_error(ErrorCode::Internal, "counter table not embedded in the binary",
                    std::string(k_table_file));
}

const CounterMap& CounterTable::map_for(std::string_view vendor, CounterSource source) const {
  auto it = m_by_vendor.find(vendor);
  if (it == m_by_vendor.end()) {
    it = m_by_vendor.find(k_any_vendor);
  }
  if (it == m_by_vendor.end()) {
    return m_empty;
  }
  return it->second[static_cast<std::size_t>(source)];
}

std::optional<std::pair<MetricKey, double>> CounterTable::map(std::string_view vendor,
                                                              CounterSource source,
                                                              std::string_view counter,
                                                              std::uint64_t raw) const {
  const auto* mapping = map_for(vendor, source).find(counter);
  if (mapping == nullptr) {
    return std::nullopt;
  }
  return std::make_pair(mapping->key, static_cast<double>(raw) * mapping->scale);
}

std::vector<std::string> CounterTable::vendors() const {
  std::vector<std::string> out;
  for (const auto& [vendor, maps] : m_by_vendor) {
    out.push_back(vendor);
  }
  return out;
}

std::vector<std::string> CounterTable::counter_names(CounterSource source) const {
  return counter_names(source, [](const MetricKey&) { return true; });
}

std::vector<std::string> CounterTable::counter_names(
    CounterSource source, const std::function<bool(const MetricKey&)>& wanted) const {
  std::set<std::string> names;
  for (const auto& [vendor, maps] : m_by_vendor) {
    for (const auto& [name, mapping] : maps[static_cast<std::size_t>(source)].m_rows) {
      if (wanted(mapping.key)) {
        names.insert(name);
      }
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace netdoctor::model
