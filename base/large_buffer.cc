#include "base/large_buffer.h"

#include <sys/mman.h>

#include <cstdlib>

namespace netdoctor {

void* allocate_large_buffer(std::size_t bytes) {
  const std::size_t rounded =
      (bytes + k_large_buffer_bytes - 1) / k_large_buffer_bytes * k_large_buffer_bytes;
  void* buffer = std::aligned_alloc(k_large_buffer_bytes, rounded);
  if (buffer == nullptr) {
    throw std::bad_alloc();
  }
  // Both are hints: a kernel without THP or without MADV_POPULATE_WRITE (before 5.14) says
  // EINVAL and the pages come one fault at a time, as they would have anyway.
  (void)::madvise(buffer, rounded, MADV_HUGEPAGE);
  (void)::madvise(buffer, rounded, MADV_POPULATE_WRITE);
  return buffer;
}

void free_large_buffer(void* buffer) noexcept {
  std::free(buffer);
}

}  // namespace netdoctor
