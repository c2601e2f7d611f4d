// An HTTPS server for the remote suite, in-process, on 127.0.0.1 only: one thread per connection
// (OpenSSL, TLS handshakes in parallel), recorded switch API answers after a fixed delay, and
// misbehaviour on purpose on some paths:
//   GET  /sonic/<switch>/<sos name>   <root>/sonic/<sos name> (SONiC `show` text)
//   POST /eapi/<switch>               <root>/eapi.json (an eAPI runCmds answer)
//   any  /hang/...                    reads the request and never answers
//   any  /error500/...                HTTP 500 whose body echoes the Authorization header
//   any  /badjson/...                 HTTP 200 whose body is not JSON
//   any  /echo/...                    HTTP 200 whose body echoes the decoded credentials
// Requests without the expected Basic token get 401. Stopped (every connection closed, every
// thread joined) when destroyed.
#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace netdoctor::testing {

struct HttpsTestServerOptions {
  std::string cert_file;  // PEM
  std::string key_file;
  std::string root;
  std::chrono::milliseconds delay{50};
  std::string expect_auth;  // base64 of user:password; empty: no check
};

class HttpsTestServer {
 public:
  // nullptr (with a test failure) when the certificate or the socket cannot be set up.
  static std::unique_ptr<HttpsTestServer> start(const HttpsTestServerOptions& options);
  virtual ~HttpsTestServer() = default;
  virtual int port() const = 0;
};

}  // namespace netdoctor::testing
