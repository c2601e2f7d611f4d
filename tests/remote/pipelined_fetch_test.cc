// remote/pipelined_fetch.h: the answers come back in the order asked, a group at a time, never
// more than one group ahead of the reader; stopping it midway neither hangs nor loses a request
// in flight.
#include "remote/pipelined_fetch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace netdoctor::remote {
namespace {

// Answers each request with its URL; records each group's size and how many answers were
// waiting unread when the group was sent.
class RecordingClient final : public HttpClient {
 public:
  std::vector<HttpOutcome> perform(const std::vector<HttpRequest>& requests) override {
    std::vector<HttpOutcome> out;
    for (const auto& request : requests) {
      out.emplace_back(HttpResponse{200, request.url, {}});
    }
    const std::lock_guard lock(mutex);
    group_sizes.push_back(requests.size());
    ahead_when_sent.push_back(sent - taken.load());
    sent += requests.size();
    return out;
  }
  std::mutex mutex;
  std::vector<std::size_t> group_sizes;
  std::vector<std::size_t> ahead_when_sent;
  std::size_t sent = 0;
  std::atomic<std::size_t> taken = 0;
};

std::vector<HttpRequest> requests_of(int count) {
  std::vector<HttpRequest> out;
  for (int i = 0; i < count; ++i) {
    HttpRequest request;
    request.url = "http://prom/" + std::to_string(i);
    out.push_back(std::move(request));
  }
  return out;
}

TEST(PipelinedFetchTest, AnswersComeInOrderAGroupAtATimeAndNeverPileUp) {
  RecordingClient client;
  {
    PipelinedFetch fetch(client, requests_of(7), 2);
    for (int i = 0; i < 7; ++i) {
      // A slow reader: the fetcher could run far ahead if nothing held it back.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      auto outcome = fetch.next();
      ASSERT_TRUE(outcome.ok());
      EXPECT_EQ(outcome->body, "http://prom/" + std::to_string(i));
      ++client.taken;
    }
  }
  EXPECT_EQ(client.group_sizes, (std::vector<std::size_t>{2, 2, 2, 1}));
  for (std::size_t ahead : client.ahead_when_sent) {
    // Sent once the reader has begun on the previous group: at most that group's last answer
    // and the one being read are outstanding.
    EXPECT_LE(ahead, 2u);
  }
}

TEST(PipelinedFetchTest, StoppingMidwayJoinsWithoutHanging) {
  RecordingClient client;
  {
    PipelinedFetch fetch(client, requests_of(100), 3);
    EXPECT_TRUE(fetch.next().ok());
  }  // destroyed with 99 unread
  const std::lock_guard lock(client.mutex);
  EXPECT_LT(client.sent, 100u);
}

}  // namespace
}  // namespace netdoctor::remote
