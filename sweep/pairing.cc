#include "sweep/pairing.h"

#include <algorithm>
#include <map>
#include <string>

namespace netdoctor::sweep {

std::vector<std::size_t> interleaved_order(const std::vector<Nic>& nics) {
  std::map<std::string, std::vector<std::size_t>> by_leaf;
  for (std::size_t i = 0; i < nics.size(); ++i) {
    by_leaf[nics[i].leaf_group()].push_back(i);
  }
  std::size_t longest = 0;
  for (auto& [leaf, members] : by_leaf) {
    std::stable_sort(members.begin(), members.end(), [&nics](std::size_t a, std::size_t b) {
      return std::tie(nics[a].device, nics[a].port, nics[a].host) <
             std::tie(nics[b].device, nics[b].port, nics[b].host);
    });
    longest = std::max(longest, members.size());
  }
  std::vector<std::size_t> order;
  order.reserve(nics.size());
  for (std::size_t j = 0; j < longest; ++j) {
    for (const auto& [leaf, members] : by_leaf) {
      if (j < members.size()) {
        order.push_back(members[j]);
      }
    }
  }
  return order;
}

std::vector<PairIndex> round_one_pairs(const std::vector<Nic>& nics, Pairing pairing) {
  const std::vector<std::size_t> order = interleaved_order(nics);
  std::vector<PairIndex> pairs;
  if (order.size() < 2) {
    return pairs;
  }
  if (pairing == Pairing::Ring) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      pairs.push_back({order[i], order[(i + 1) % order.size()]});
    }
    return pairs;
  }
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
    pairs.push_back({order[i], order[i + 1]});
  }
  if (order.size() % 2 == 1) {
    pairs.push_back({order.back(), order[0]});
  }
  return pairs;
}

std::vector<std::vector<std::size_t>> schedule_waves(const std::vector<PairIndex>& pairs,
                                                     const std::vector<Nic>& nics, int per_leaf,
                                                     std::size_t max_wave) {
  struct Wave {
    std::vector<std::size_t> pairs;  // indexes into `pairs`
    std::vector<bool> busy;          // per NIC
    std::map<std::string, int> leaf_load;
  };
  const int cap = std::max(per_leaf, 1);
  const std::size_t width = std::max<std::size_t>(max_wave, 1);
  std::vector<Wave> waves;
  std::size_t first_open = 0;  // waves before it are full
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const PairIndex& pair = pairs[p];
    const std::string& a = nics[pair.client].leaf_group();
    const std::string& b = nics[pair.server].leaf_group();
    auto fits = [&](Wave& wave) {
      if (wave.pairs.size() >= width || wave.busy[pair.client] || wave.busy[pair.server]) {
        return false;
      }
      return wave.leaf_load[a] < cap && (a == b || wave.leaf_load[b] < cap);
    };
    std::size_t w = first_open;
    while (w < waves.size() && !fits(waves[w])) {
      ++w;
    }
    if (w == waves.size()) {
      waves.push_back({{}, std::vector<bool>(nics.size(), false), {}});
    }
    Wave& wave = waves[w];
    wave.pairs.push_back(p);
    wave.busy[pair.client] = true;
    wave.busy[pair.server] = true;
    ++wave.leaf_load[a];
    if (a != b) {
      ++wave.leaf_load[b];
    }
    while (first_open < waves.size() && waves[first_open].pairs.size() >= width) {
      ++first_open;
    }
  }
  std::vector<std::vector<std::size_t>> out;
  out.reserve(waves.size());
  for (auto& wave : waves) {
    out.push_back(std::move(wave.pairs));
  }
  return out;
}

}  // namespace netdoctor::sweep
