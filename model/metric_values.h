// MetricValues: one sample's metric values, as a map from MetricKey to double would hold them
// (the same find / count / at / operator[] / emplace / try_emplace / insert_or_assign / erase,
// iteration in key order), stored as one flat array sorted by key. A sample holds about a
// hundred values and a 512-host bundle millions: a value is 16 bytes here, where a map node with
// its name was about 110 bytes and one or two allocations, and freeing a sample is one free.
// Names come from the table of known metrics (model/metric_names.h); any other name is kept as
// text, once per sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/metric_key.h"
#include "model/metric_names.h"

namespace netdoctor::model {

class MetricValues {
  struct Slot {
    // The name's code (a KnownMetricId, or k_other + position in m_other_names) in the high
    // half, the index in the low half, offset so that unsigned order is index order: while
    // every name is known, key order is integer order.
    std::uint64_t key;
    double value;
  };

 public:
  using key_type = MetricKey;
  using mapped_type = double;
  using value_type = std::pair<MetricKey, double>;  // built when dereferenced

  class const_iterator {
   public:
    // A forward iterator whose elements are built on the fly (no lvalue to refer to).
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = MetricValues::value_type;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    struct Arrow {
      value_type pair;
      const value_type* operator->() const { return &pair; }
    };
    using pointer = Arrow;

    const_iterator() = default;
    value_type operator*() const { return m_values->entry(m_at); }
    Arrow operator->() const { return Arrow{**this}; }
    const_iterator& operator++() {
      ++m_at;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++m_at;
      return before;
    }
    bool operator==(const const_iterator& other) const { return m_at == other.m_at; }

   private:
    friend class MetricValues;
    const_iterator(const MetricValues* values, std::size_t at) : m_values(values), m_at(at) {}
    const MetricValues* m_values = nullptr;
    std::size_t m_at = 0;
  };
  using iterator = const_iterator;  // values change through operator[] and insert_or_assign

  bool empty() const { return m_slots.empty(); }
  std::size_t size() const { return m_slots.size(); }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, m_slots.size()}; }
  void clear();

  const_iterator find(const MetricKey& key) const;
  std::size_t count(const MetricKey& key) const { return find(key) == end() ? 0 : 1; }
  // Throws std::out_of_range when absent, as a map's at().
  double at(const MetricKey& key) const;
  // The value, without building a MetricKey (the probes' hot path).
  std::optional<double> get(std::string_view name, int index) const;

  double& operator[](const MetricKey& key);
  std::pair<iterator, bool> emplace(const MetricKey& key, double value);
  std::pair<iterator, bool> try_emplace(const MetricKey& key, double value);
  std::pair<iterator, bool> insert_or_assign(const MetricKey& key, double value);
  std::size_t erase(const MetricKey& key);

  // For the loaders, which add a sample's values in file order (defined below).
  class Builder;

 private:
  static constexpr std::uint32_t k_other = 0x80000000u;

  static std::uint64_t pack(std::uint32_t name, int index) {
    return (std::uint64_t{name} << 32) | (static_cast<std::uint32_t>(index) ^ 0x80000000u);
  }
  static std::uint32_t name_code(std::uint64_t key) {
    return static_cast<std::uint32_t>(key >> 32);
  }
  static int index_of(std::uint64_t key) {
    return static_cast<int>(static_cast<std::uint32_t>(key) ^ 0x80000000u);
  }

  std::string_view name_of(std::uint32_t name) const;
  // The code of `name` in this sample; nullopt for a name it holds no value of.
  std::optional<std::uint32_t> code_of(std::string_view name) const;
  // The code of `name`, added to m_other_names when new.
  std::uint32_t code_for(std::string_view name);
  bool less(std::uint64_t a, std::uint64_t b) const;
  std::size_t lower_bound(std::uint64_t key) const;
  std::optional<std::size_t> position(std::string_view name, int index) const;
  value_type entry(std::size_t n) const;
  // Position of the value of `key`, inserted (with `value`) when absent; true when inserted.
  std::pair<std::size_t, bool> place(const MetricKey& key, double value);

  std::vector<Slot> m_slots;  // sorted by (name text, index), one per key
  std::vector<std::string> m_other_names;
};

// For the loaders, which add a sample's values in file order: added in any order, sorted once
// by finish(). Of values with the same key the first added is kept, as try_emplace would.
class MetricValues::Builder {
 public:
  void reserve(std::size_t count) { m_values.m_slots.reserve(count); }
  void add(std::string_view name, int index, double value);
  void add(KnownMetricId name, int index, double value);
  MetricValues finish() &&;

 private:
  MetricValues m_values;
};

}  // namespace netdoctor::model
