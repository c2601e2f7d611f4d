// Large buffers backed by transparent huge pages where the kernel allows it (THP in "madvise"
// mode is the Debian default): filling hundreds of MiB through 4 KiB page faults costs seconds
// on some virtual machines, where one 2 MiB page costs about one fault. Without huge pages the
// buffers are ordinary memory. Every fresh page is zeroed by the kernel, which is dear there
// too: nothing here touches memory that is not going to be used.
#pragma once

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace netdoctor {

inline constexpr std::size_t k_large_buffer_bytes = std::size_t{2} << 20;

// At least `bytes` (rounded up to 2 MiB), 2 MiB aligned and already faulted in; throws
// std::bad_alloc as operator new does. Release with free_large_buffer().
void* allocate_large_buffer(std::size_t bytes);
void free_large_buffer(void* buffer) noexcept;

// A mapping of its own of `new_bytes` (a multiple of 2 MiB), 2 MiB aligned, faulted in only
// where touched. Growing moves the pages of `old` (the mapping of `old_bytes` this returned
// before, or null) instead of copying them. Throws std::bad_alloc.
void* grow_large_mapping(void* old, std::size_t old_bytes, std::size_t new_bytes);
void release_large_mapping(void* mapping, std::size_t bytes) noexcept;

// A growable array of trivially copyable elements in a large mapping: however many it grows
// to, the memory touched is what the elements fill, never a copy of it.
template <typename T>
class LargeArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  LargeArray() = default;
  ~LargeArray() { release_large_mapping(m_data, m_bytes); }
  LargeArray(LargeArray&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)),
        m_size(std::exchange(other.m_size, 0)),
        m_bytes(std::exchange(other.m_bytes, 0)) {}
  LargeArray& operator=(LargeArray&& other) noexcept {
    if (this != &other) {
      release_large_mapping(m_data, m_bytes);
      m_data = std::exchange(other.m_data, nullptr);
      m_size = std::exchange(other.m_size, 0);
      m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
  }
  LargeArray(const LargeArray&) = delete;
  LargeArray& operator=(const LargeArray&) = delete;

  void push_back(const T& value) {
    if (m_size == m_bytes / sizeof(T)) {
      grow();
    }
    m_data[m_size++] = value;
  }
  // Drops the elements from `size` on (the memory stays with the array).
  void truncate(std::size_t size) { m_size = std::min(size, m_size); }

  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  T& operator[](std::size_t i) { return m_data[i]; }
  const T& operator[](std::size_t i) const { return m_data[i]; }
  T* begin() { return m_data; }
  T* end() { return m_data + m_size; }
  const T* begin() const { return m_data; }
  const T* end() const { return m_data + m_size; }

 private:
  void grow() {
    const std::size_t bytes = std::max(k_large_buffer_bytes, 2 * m_bytes);
    m_data = static_cast<T*>(grow_large_mapping(m_data, m_bytes, bytes));
    m_bytes = bytes;
  }

  T* m_data = nullptr;
  std::size_t m_size = 0;
  std::size_t m_bytes = 0;  // of the mapping
};

}  // namespace netdoctor
