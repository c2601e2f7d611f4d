// Deterministic randomness for the simulator. Every distribution is written out here because
// the std:: distributions are implementation-defined: the same seed must give the same bundle
// bytes with libstdc++ and libc++. No global state: each simulation owns its Rng.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

namespace netdoctor::sim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : m_engine(seed) {}

  std::uint64_t next_u64() { return m_engine(); }
  // [0, 1) with 53 random bits.
  double uniform();
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  // [0, bound), unbiased (rejection). REQUIRES: bound > 0.
  std::uint64_t below(std::uint64_t bound);
  std::size_t index(std::size_t size) { return static_cast<std::size_t>(below(size)); }
  // Approximately normal (Irwin-Hall, 12 uniforms): mean 0, sd 1, bounded by +-6.
  double normal();
  // 1 + sd * normal(), never below 0.05: multiplicative noise for rates.
  double jitter(double sd);
  bool chance(double probability) { return uniform() < probability; }

 private:
  std::mt19937_64 m_engine;
};

// A stateless hash of (seed, key, index) to [0, 1): noise that two writers must agree on (the
// NIC and the switch port at the two ends of one cable) without sharing an Rng stream.
double hash_unit(std::uint64_t seed, std::string_view key, std::uint64_t index);
std::uint64_t hash_u64(std::uint64_t seed, std::string_view key, std::uint64_t index);

}  // namespace netdoctor::sim
