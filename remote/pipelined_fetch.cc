#include "remote/pipelined_fetch.h"

#include <algorithm>
#include <utility>

namespace netdoctor::remote {

PipelinedFetch::PipelinedFetch(HttpClient& client, std::vector<HttpRequest> requests,
                               std::size_t in_flight)
    : m_client(client),
      m_requests(std::move(requests)),
      m_in_flight(std::max<std::size_t>(in_flight, 1)),
      m_thread([this](const std::stop_token& stop) { run(stop); }) {}

PipelinedFetch::~PipelinedFetch() {
  m_thread.request_stop();
  m_changed.notify_all();
}

void PipelinedFetch::run(const std::stop_token& stop) {
  for (std::size_t first = 0; first < m_requests.size(); first += m_in_flight) {
    {
      // The next group starts once the reader has begun on the last; no more ahead than that:
      // answers of tens of MB each must not pile up unread.
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, stop, [this] { return m_ready.size() < m_in_flight; });
      if (stop.stop_requested()) {
        return;
      }
    }
    const std::size_t end = std::min(m_requests.size(), first + m_in_flight);
    const std::vector<HttpRequest> group(m_requests.begin() + static_cast<std::ptrdiff_t>(first),
                                         m_requests.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<HttpOutcome> outcomes = m_client.perform(group);
    outcomes.resize(group.size(), make_error(ErrorCode::Internal, "the client gave no outcome"));
    const std::lock_guard lock(m_mutex);
    for (auto& outcome : outcomes) {
      m_ready.push_back(std::move(outcome));
    }
    m_changed.notify_all();
  }
}

HttpOutcome PipelinedFetch::next() {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [this] { return !m_ready.empty(); });
  HttpOutcome out = std::move(m_ready.front());
  m_ready.pop_front();
  m_changed.notify_all();
  return out;
}

}  // namespace netdoctor::remote
