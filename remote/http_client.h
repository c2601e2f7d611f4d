// HttpClient: the network seam. Code that talks to Prometheus or to switch APIs hands it a
// batch of requests; the implementation runs them concurrently and returns one outcome per
// request, in the same order. Only curl_http_client.cc knows libcurl; tests can serve canned
// outcomes through a fake.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::remote {

// Named defaults, so that a caller that forgets a timeout still never hangs.
inline constexpr std::chrono::milliseconds k_default_request_timeout{10'000};
inline constexpr std::chrono::milliseconds k_default_connect_timeout{3'000};
inline constexpr std::size_t k_default_max_body_bytes = 256u << 20;

struct BasicAuth {
  std::string user;
  std::string password;  // never logged; see remote/redact.h
};

struct HttpRequest {
  std::string url;                   // http:// or https:// only; user info in the URL is refused
  std::string method = "GET";        // "GET" or "POST"
  std::string body;                  // POST body
  std::vector<std::string> headers;  // "Content-Type: application/json"
  std::optional<BasicAuth> auth;
  std::chrono::milliseconds timeout = k_default_request_timeout;  // the whole exchange
};

// Spare capacity a client leaves past the end of a body it received, so that readers that read
// in whole blocks (simdjson) read it in place instead of copying it.
inline constexpr std::size_t k_body_padding = 64;

struct HttpResponse {
  long status = 0;   // HTTP status; a non-2xx answer is a response, the caller judges it
  std::string body;  // with k_body_padding spare bytes of capacity, from the real client
  std::chrono::milliseconds elapsed{0};
};

// Transport outcomes, kept distinct: Timeout (no complete answer in time), Io (could not
// resolve or connect, connection reset), Refused (TLS certificate not trusted or not matching
// the host, a redirect, a body over the size limit), InvalidArgument (bad URL or method).
// The error's context is the URL.
using HttpOutcome = Result<HttpResponse>;

struct HttpClientOptions {
  std::string ca_file;     // PEM bundle of trusted CAs; empty: the system's
  bool verify_tls = true;  // off only on explicit request (--insecure)
  std::chrono::milliseconds connect_timeout = k_default_connect_timeout;
  std::size_t max_parallel = 256;  // requests in flight at once
  std::size_t max_body_bytes = k_default_max_body_bytes;
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Runs every request, at most max_parallel at a time, and returns when each has an outcome.
  // One slow or dead server costs only its own timeout. Thread-compatible (one batch at a time).
  virtual std::vector<HttpOutcome> perform(const std::vector<HttpRequest>& requests) = 0;
};

// The libcurl multi implementation.
std::unique_ptr<HttpClient> make_curl_http_client(HttpClientOptions options = {});

}  // namespace netdoctor::remote
