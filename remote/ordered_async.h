// Work done on threads and taken back in its order, so that what is built from it does not depend
// on the threads (the Prometheus reader lays out its host and switch groups this way).
#pragma once

#include <cstddef>
#include <deque>
#include <future>
#include <type_traits>
#include <utility>

namespace netdoctor::remote {

// For i in [0, count): start(i), on the calling thread in i's order, returns a callable that then
// runs on a thread of its own, up to `at_once` (at least 1) at a time; take(its result) runs on
// the calling thread in i's order. An exception from a callable comes out of take's turn. The
// callables running at once are those of at most `at_once` consecutive i, so i % at_once tells
// them apart (a slot of per-thread state each may use).
template <typename Start, typename Take>
void run_in_order(std::size_t count, std::size_t at_once, Start start, Take take) {
  using Work = std::invoke_result_t<Start, std::size_t>;
  using Done = std::invoke_result_t<Work>;
  at_once = at_once == 0 ? 1 : at_once;
  std::deque<std::future<Done>> running;
  for (std::size_t next = 0; next < count || !running.empty();) {
    for (; next < count && running.size() < at_once; ++next) {
      running.push_back(std::async(std::launch::async, start(next)));
    }
    Done done = running.front().get();
    running.pop_front();
    take(std::move(done));
  }
}

}  // namespace netdoctor::remote
