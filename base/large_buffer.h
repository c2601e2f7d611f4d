// Large buffers backed by transparent huge pages where the kernel allows it (THP in "madvise"
// mode is the Debian default): filling hundreds of MiB through 4 KiB page faults costs seconds
// on some virtual machines, where one 2 MiB page costs about one fault. Without huge pages the
// buffers are ordinary memory.
#pragma once

#include <cstddef>
#include <new>

namespace netdoctor {

inline constexpr std::size_t k_large_buffer_bytes = std::size_t{2} << 20;

// At least `bytes` (rounded up to 2 MiB), 2 MiB aligned and already faulted in; throws
// std::bad_alloc as operator new does. Release with free_large_buffer().
void* allocate_large_buffer(std::size_t bytes);
void free_large_buffer(void* buffer) noexcept;

// For a vector that grows to many MiB: its large allocations come from allocate_large_buffer.
template <typename T>
struct LargeBufferAllocator {
  using value_type = T;
  LargeBufferAllocator() = default;
  template <typename U>
  explicit LargeBufferAllocator(const LargeBufferAllocator<U>& /*other*/) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    return static_cast<T*>(bytes < k_large_buffer_bytes ? ::operator new(bytes)
                                                        : allocate_large_buffer(bytes));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < k_large_buffer_bytes) {
      ::operator delete(p);
    } else {
      free_large_buffer(p);
    }
  }
  friend bool operator==(const LargeBufferAllocator&, const LargeBufferAllocator&) { return true; }
};

}  // namespace netdoctor
