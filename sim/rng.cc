#include "sim/rng.h"

namespace netdoctor::sim {

double Rng::uniform() {
  return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
}

std::uint64_t Rng::below(std::uint64_t bound) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  std::uint64_t value = m_engine();
  while (value >= limit) {
    value = m_engine();
  }
  return value % bound;
}

double Rng::normal() {
  double sum = 0.0;
  for (int i = 0; i < 12; ++i) {
    sum += uniform();
  }
  return sum - 6.0;
}

double Rng::jitter(double sd) {
  const double value = 1.0 + sd * normal();
  return value < 0.05 ? 0.05 : value;
}

namespace {
// splitmix64 finaliser: a good avalanche for a cheap hash.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t hash_u64(std::uint64_t seed, std::string_view key, std::uint64_t index) {
  std::uint64_t h = mix(seed ^ 0x6a09e667f3bcc908ull);
  for (const char c : key) {
    h = mix(h ^ static_cast<unsigned char>(c));
  }
  return mix(h ^ index);
}

double hash_unit(std::uint64_t seed, std::string_view key, std::uint64_t index) {
  return static_cast<double>(hash_u64(seed, key, index) >> 11) * 0x1.0p-53;
}

}  // namespace netdoctor::sim
