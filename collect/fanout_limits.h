// What a fan-out over many hosts asks of this process: a few file descriptors per host in
// flight (ulimit -n is often 1,024, less than --parallel 1024 needs), and an allocator that
// hands memory back (glibc's per-thread arenas and its rising mmap threshold kept the freed
// captures of hundreds of worker threads: peak RSS grew with the number of hosts).
#pragma once

#include <cstdint>
#include <string>

namespace netdoctor::collect {

// Descriptors a host in flight holds: its launcher's stdout and stderr pipes (both ends while
// it is being started) and stdin.
inline constexpr std::uint64_t k_descriptors_per_host = 6;
// Kept for everything else: the bundle, the terminal, libraries.
inline constexpr std::uint64_t k_descriptors_reserved = 64;

struct ParallelFit {
  int parallel = 1;
  std::string note;  // empty, or why fewer hosts than asked run at once
};

// The most hosts that can be in flight at once under `open_files` descriptors, `requested` if
// it fits (at least 1).
ParallelFit fit_parallel(int requested, std::uint64_t open_files);

// Raises the soft limit on open files to the hard limit when `wanted` needs it; returns the
// soft limit in force afterwards.
std::uint64_t raise_open_files_limit(std::uint64_t wanted);

// glibc: at most `arenas` malloc arenas, and allocations of 128 KiB or more mapped and unmapped
// on their own (the threshold no longer rises as large blocks are freed), so that a capture
// freed on any worker thread goes back to the system. Measured on 1,024 hosts at --parallel
// 128 (bench/fanout_bench.sh): peak RSS 96 MiB with glibc's defaults, 51 MiB with these (39 MiB
// at 128 hosts); what still grows with the hosts is the backlog of archives waiting for a
// merge slot while the CPU is short, at most --parallel of them.
void tune_allocator_for_fanout(int arenas);

}  // namespace netdoctor::collect
