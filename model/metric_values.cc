#include "model/metric_values.h"

#include <algorithm>
#include <stdexcept>

#include "model/metric_names.h"

namespace netdoctor::model {

void MetricValues::clear() {
  m_slots.clear();
  m_other_names.clear();
}

std::string_view MetricValues::name_of(std::uint32_t name) const {
  if (name < k_other) {
    return known_metric_name(static_cast<KnownMetricId>(name));
  }
  return m_other_names[name - k_other];
}

std::optional<std::uint32_t> MetricValues::code_of(std::string_view name) const {
  if (const auto id = known_metric_id(name)) {
    return *id;
  }
  const auto it = std::find(m_other_names.begin(), m_other_names.end(), name);
  if (it == m_other_names.end()) {
    return std::nullopt;
  }
  return k_other + static_cast<std::uint32_t>(it - m_other_names.begin());
}

std::uint32_t MetricValues::code_for(std::string_view name) {
  if (const auto code = code_of(name)) {
    return *code;
  }
  m_other_names.emplace_back(name);
  return k_other + static_cast<std::uint32_t>(m_other_names.size() - 1);
}

// Key order is name text, then index. Known names are numbered in text order, so two of them
// compare by number; only a name from outside the table needs its text read.
bool MetricValues::less(std::uint64_t a, std::uint64_t b) const {
  const std::uint32_t a_name = name_code(a);
  const std::uint32_t b_name = name_code(b);
  if (a_name == b_name || (a_name < k_other && b_name < k_other)) {
    return a < b;
  }
  return name_of(a_name) < name_of(b_name);
}

std::size_t MetricValues::lower_bound(std::uint64_t key) const {
  const auto it =
      m_other_names.empty()
          ? std::lower_bound(
                m_slots.begin(), m_slots.end(), key,
                [](const Slot& slot, std::uint64_t wanted) { return slot.key < wanted; })
          : std::lower_bound(
                m_slots.begin(), m_slots.end(), key,
                [this](const Slot& slot, std::uint64_t wanted) { return less(slot.key, wanted); });
  return static_cast<std::size_t>(it - m_slots.begin());
}

std::optional<std::size_t> MetricValues::position(std::string_view name, int index) const {
  const auto code = code_of(name);
  if (!code) {
    return std::nullopt;
  }
  const std::uint64_t key = pack(*code, index);
  const std::size_t slot = lower_bound(key);
  if (slot == m_slots.size() || m_slots[slot].key != key) {
    return std::nullopt;
  }
  return slot;
}

MetricValues::value_type MetricValues::entry(std::size_t n) const {
  const Slot& slot = m_slots[n];
  return {MetricKey{std::string(name_of(name_code(slot.key))), index_of(slot.key)}, slot.value};
}

MetricValues::const_iterator MetricValues::find(const MetricKey& key) const {
  return {this, position(key.name, key.index).value_or(m_slots.size())};
}

double MetricValues::at(const MetricKey& key) const {
  const auto found = position(key.name, key.index);
  if (!found) {
    throw std::out_of_range("no value for metric " + key.to_string());
  }
  return m_slots[*found].value;
}

std::optional<double> MetricValues::get(std::string_view name, int index) const {
  const auto found = position(name, index);
  if (!found) {
    return std::nullopt;
  }
  return m_slots[*found].value;
}

std::pair<std::size_t, bool> MetricValues::place(const MetricKey& key, double value) {
  const std::uint64_t packed = pack(code_for(key.name), key.index);
  const std::size_t slot = lower_bound(packed);
  if (slot < m_slots.size() && m_slots[slot].key == packed) {
    return {slot, false};
  }
  m_slots.insert(m_slots.begin() + static_cast<std::ptrdiff_t>(slot), Slot{packed, value});
  return {slot, true};
}

double& MetricValues::operator[](const MetricKey& key) {
  return m_slots[place(key, 0.0).first].value;
}

std::pair<MetricValues::iterator, bool> MetricValues::emplace(const MetricKey& key, double value) {
  const auto [slot, inserted] = place(key, value);
  return {const_iterator{this, slot}, inserted};
}

std::pair<MetricValues::iterator, bool> MetricValues::try_emplace(const MetricKey& key,
                                                                  double value) {
  return emplace(key, value);
}

std::pair<MetricValues::iterator, bool> MetricValues::insert_or_assign(const MetricKey& key,
                                                                       double value) {
  const auto [slot, inserted] = place(key, value);
  m_slots[slot].value = value;
  return {const_iterator{this, slot}, inserted};
}

std::size_t MetricValues::erase(const MetricKey& key) {
  const auto found = position(key.name, key.index);
  if (!found) {
    return 0;
  }
  // A name from outside the table stays in m_other_names: harmless, and codes stay valid.
  m_slots.erase(m_slots.begin() + static_cast<std::ptrdiff_t>(*found));
  return 1;
}

void MetricValues::Builder::add(std::string_view name, int index, double value) {
  m_values.m_slots.push_back(Slot{pack(m_values.code_for(name), index), value});
}

void MetricValues::Builder::add(KnownMetricId name, int index, double value) {
  m_values.m_slots.push_back(Slot{pack(name, index), value});
}

MetricValues MetricValues::Builder::finish() && {
  auto& slots = m_values.m_slots;
  // Stable: of equal keys the first added stays first, and unique() keeps it.
  std::stable_sort(slots.begin(), slots.end(),
                   [this](const Slot& a, const Slot& b) { return m_values.less(a.key, b.key); });
  const auto last = std::unique(slots.begin(), slots.end(),
                                [](const Slot& a, const Slot& b) { return a.key == b.key; });
  slots.erase(last, slots.end());
  return std::move(m_values);
}

}  // namespace netdoctor::model
