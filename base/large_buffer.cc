#include "base/large_buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

namespace netdoctor {
namespace {

std::size_t round_up(std::size_t bytes) {
  return (bytes + k_large_buffer_bytes - 1) / k_large_buffer_bytes * k_large_buffer_bytes;
}

// `bytes` (a multiple of 2 MiB) of address space at a 2 MiB boundary, inaccessible: a huge
// page can only back an aligned range.
void* reserve_aligned(std::size_t bytes) {
  const std::size_t padded = bytes + k_large_buffer_bytes;
  void* raw =
      ::mmap(nullptr, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    throw std::bad_alloc();
  }
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + k_large_buffer_bytes - 1) & ~(k_large_buffer_bytes - 1);
  if (aligned > start) {
    ::munmap(raw, aligned - start);
  }
  const std::uintptr_t tail = aligned + bytes;
  if (start + padded > tail) {
    ::munmap(reinterpret_cast<void*>(tail), start + padded - tail);
  }
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* allocate_large_buffer(std::size_t bytes) {
  const std::size_t rounded = round_up(bytes);
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

void* grow_large_mapping(void* old, std::size_t old_bytes, std::size_t new_bytes) {
  void* target = reserve_aligned(new_bytes);
  if (old == nullptr) {
    if (::mprotect(target, new_bytes, PROT_READ | PROT_WRITE) != 0) {
      ::munmap(target, new_bytes);
      throw std::bad_alloc();
    }
  } else {
    // The old pages move into the start of the reservation, which the kernel extends to the
    // new size: nothing is copied, nothing beyond what was touched is faulted in.
    void* moved = ::mremap(old, old_bytes, new_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, target);
    if (moved == MAP_FAILED) {
      ::munmap(target, new_bytes);
      throw std::bad_alloc();
    }
  }
  (void)::madvise(target, new_bytes, MADV_HUGEPAGE);  // a hint, as above
  return target;
}

void release_large_mapping(void* mapping, std::size_t bytes) noexcept {
  if (mapping != nullptr) {
    ::munmap(mapping, bytes);
  }
}

}  // namespace netdoctor
