// PipelinedFetch: a list of HTTP requests run on a thread of its own, `in_flight` at a time and
// at most one group ahead of the reader, so that a server computes the next answers while the
// caller reads the last (a Prometheus batch takes the server about as long as it takes netdoctor
// to lay out; in turn they take the sum, together nearer the larger).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "remote/http_client.h"

namespace netdoctor::remote {

class PipelinedFetch {
 public:
  // Starts at once. `client` is used only by the fetching thread until this is destroyed.
  PipelinedFetch(HttpClient& client, std::vector<HttpRequest> requests, std::size_t in_flight);
  // Stops fetching (a group in flight ends first, within its timeouts) and joins.
  ~PipelinedFetch();
  PipelinedFetch(const PipelinedFetch&) = delete;
  PipelinedFetch& operator=(const PipelinedFetch&) = delete;

  // The next request's outcome, in the order given; waits for it. Call it once per request.
  HttpOutcome next();

 private:
  void run(const std::stop_token& stop);

  HttpClient& m_client;
  const std::vector<HttpRequest> m_requests;
  const std::size_t m_in_flight;
  std::mutex m_mutex;
  std::condition_variable_any m_changed;
  std::deque<HttpOutcome> m_ready;
  std::jthread m_thread;  // last: it starts once everything else is built
};

}  // namespace netdoctor::remote
