// The libcurl multi implementation of HttpClient: every request is an easy handle on one multi
// handle, so hundreds of servers are polled at once from one thread, each with its own timeout.
// TLS verification is on unless the caller turned it off; redirects are not followed (a
// redirect could carry credentials to another host); only http and https are allowed.
#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>

#include "base/strings.h"
#include "remote/http_client.h"
#include "remote/redact.h"

namespace netdoctor::remote {
namespace {

// libcurl's global state is set up once per process (curl_global_init is not thread-safe;
// a function-local static is initialised exactly once).
void ensure_curl_initialised() {
  static const bool initialised = [] {
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  }();
  (void)initialised;
}

struct Transfer {
  std::size_t index = 0;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  std::string body;
  std::size_t max_body = 0;
  bool over_limit = false;
  std::array<char, CURL_ERROR_SIZE> error{};
  std::chrono::steady_clock::time_point started;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  if (transfer->body.size() + bytes > transfer->max_body) {
    transfer->over_limit = true;
    return 0;  // makes libcurl fail the transfer with CURLE_WRITE_ERROR
  }
  // Room for the whole body when its length is announced (a compressed one's is a start), and
  // k_body_padding past its end: the body is then neither copied as it grows nor when parsed.
  const std::size_t wanted = transfer->body.size() + bytes + k_body_padding;
  if (transfer->body.capacity() < wanted) {
    curl_off_t announced = -1;
    if (transfer->body.empty()) {
      curl_easy_getinfo(transfer->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
    }
    const std::size_t whole =
        announced > 0 ? std::min(static_cast<std::size_t>(announced), transfer->max_body) : 0;
    transfer->body.reserve(
        std::max({wanted, 2 * transfer->body.capacity(), whole + k_body_padding}));
  }
  transfer->body.append(data, bytes);
  return bytes;
}

// InvalidArgument unless the URL is http(s) without user info: credentials travel only in
// BasicAuth, so that they can never be echoed back as part of a URL.
Status check_url(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    return make_error(ErrorCode::InvalidArgument, "not an http:// or https:// URL",
                      redact_url(url));
  }
  const std::string scheme = to_lower(std::string_view(url).substr(0, scheme_end));
  if (scheme != "http" && scheme != "https") {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("scheme '{}' is not allowed (http or https only)", scheme),
                      redact_url(url));
  }
  const auto authority_end = url.find_first_of("/?#", scheme_end + 3);
  const auto authority = std::string_view(url).substr(
      scheme_end + 3,
      authority_end == std::string::npos ? std::string::npos : authority_end - scheme_end - 3);
  if (authority.find('@') != std::string_view::npos) {
    return make_error(ErrorCode::InvalidArgument,
                      "credentials in the URL are refused; give them in a credentials file or "
                      "the environment",
                      redact_url(url));
  }
  return {};
}

Error transport_error(CURLcode code, const Transfer& transfer, const std::string& url) {
  std::string detail = transfer.error[0] != '\0' ? std::string(transfer.error.data())
                                                 : std::string(curl_easy_strerror(code));
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return make_error(ErrorCode::Timeout, "no answer in time: " + detail, url);
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return make_error(ErrorCode::Refused, "TLS certificate not accepted: " + detail, url);
    case CURLE_SSL_CONNECT_ERROR:
      return make_error(ErrorCode::Refused, "TLS handshake failed: " + detail, url);
    case CURLE_WRITE_ERROR:
      if (transfer.over_limit) {
        return make_error(ErrorCode::Refused,
                          fmt::format("response larger than {} bytes", transfer.max_body), url);
      }
      return make_error(ErrorCode::Io, detail, url);
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return make_error(ErrorCode::InvalidArgument, detail, url);
    default:
      return make_error(ErrorCode::Io, detail, url);
  }
}

// Whether the CAs to trust are one PEM file: the caller's, or else libcurl's built-in bundle.
// Then no CA directory is consulted besides, and libcurl parses the file once per client and
// keeps the store in the multi handle (CURLOPT_CA_CACHE_TIMEOUT, a day by default) instead of
// once per connection: with the system bundle that parse costs ~30 ms of CPU per handshake, 256
// switches ~7 s. Distributions that build libcurl with both (Debian: ca-certificates.crt and
// /etc/ssl/certs) fill them from the same certificates; a libcurl with a directory only keeps it.
bool trusts_a_ca_file(const HttpClientOptions& options) {
  if (!options.verify_tls) {
    return false;
  }
  if (!options.ca_file.empty()) {
    return true;
  }
  CURL* probe = curl_easy_init();
  if (probe == nullptr) {
    return false;
  }
  char* built_in = nullptr;
  curl_easy_getinfo(probe, CURLINFO_CAINFO, &built_in);
  const bool has_bundle = built_in != nullptr && *built_in != '\0';
  curl_easy_cleanup(probe);
  return has_bundle;
}

class CurlHttpClient final : public HttpClient {
 public:
  explicit CurlHttpClient(HttpClientOptions options) : m_options(std::move(options)) {
    ensure_curl_initialised();
    m_trust_ca_file_only = trusts_a_ca_file(m_options);
    m_multi = curl_multi_init();
    if (m_multi != nullptr) {
      // Connections stay open between batches: the next sample of the same switches skips the
      // TLS handshakes.
      curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS,
                        static_cast<long>(std::max<std::size_t>(m_options.max_parallel, 1)));
    }
  }
  ~CurlHttpClient() override {
    if (m_multi != nullptr) {
      curl_multi_cleanup(m_multi);
    }
  }
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  std::vector<HttpOutcome> perform(const std::vector<HttpRequest>& requests) override {
    std::vector<HttpOutcome> outcomes(requests.size(),
                                      make_error(ErrorCode::Internal, "not performed"));
    CURLM* multi = m_multi;
    if (multi == nullptr) {
      std::fill(outcomes.begin(), outcomes.end(),
                make_error(ErrorCode::Internal, "curl_multi_init failed"));
      return outcomes;
    }
    std::deque<Transfer> transfers;  // stable addresses: libcurl holds pointers into them
    std::size_t next = 0;
    std::size_t running = 0;
    const std::size_t max_parallel = std::max<std::size_t>(m_options.max_parallel, 1);
    auto start_more = [&] {
      while (next < requests.size() && running < max_parallel) {
        const std::size_t index = next++;
        const std::string shown = redact_url(requests[index].url);
        if (auto status = check_url(requests[index].url); !status.ok()) {
          outcomes[index] = status.error();
          continue;
        }
        Transfer& transfer = transfers.emplace_back();
        transfer.index = index;
        transfer.max_body = m_options.max_body_bytes;
        if (auto status = configure(transfer, requests[index]); !status.ok()) {
          outcomes[index] = make_error(status.error().code, status.error().message, shown);
          release(transfer);
          continue;
        }
        transfer.started = std::chrono::steady_clock::now();
        curl_multi_add_handle(multi, transfer.easy);
        ++running;
      }
    };
    start_more();
    while (running > 0) {
      int still_running = 0;
      curl_multi_perform(multi, &still_running);
      int queued = 0;
      while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
        if (message->msg != CURLMSG_DONE) {
          continue;
        }
        Transfer* transfer = nullptr;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
        outcomes[transfer->index] =
            finish(*transfer, message->data.result, redact_url(requests[transfer->index].url));
        curl_multi_remove_handle(multi, transfer->easy);
        release(*transfer);
        --running;
      }
      start_more();
      if (running > 0) {
        curl_multi_poll(multi, nullptr, 0, 50, nullptr);
      }
    }
    return outcomes;
  }

 private:
  Status configure(Transfer& transfer, const HttpRequest& request) const {
    transfer.easy = curl_easy_init();
    if (transfer.easy == nullptr) {
      return make_error(ErrorCode::Internal, "curl_easy_init failed");
    }
    CURL* easy = transfer.easy;
    const long timeout_ms = static_cast<long>(std::max<long long>(request.timeout.count(), 1));
    const long connect_ms = std::min(
        timeout_ms, static_cast<long>(std::max<long long>(m_options.connect_timeout.count(), 1)));
    curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, &transfer);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer.error.data());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "netdoctor");
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, m_options.verify_tls ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, m_options.verify_tls ? 2L : 0L);
    if (!m_options.ca_file.empty()) {
      curl_easy_setopt(easy, CURLOPT_CAINFO, m_options.ca_file.c_str());
    }
    if (m_trust_ca_file_only) {
      curl_easy_setopt(easy, CURLOPT_CAPATH, nullptr);
    }
    if (request.auth) {
      curl_easy_setopt(easy, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
      curl_easy_setopt(easy, CURLOPT_USERNAME, request.auth->user.c_str());
      curl_easy_setopt(easy, CURLOPT_PASSWORD, request.auth->password.c_str());
    }
    for (const auto& header : request.headers) {
      transfer.headers = curl_slist_append(transfer.headers, header.c_str());
    }
    if (transfer.headers != nullptr) {
      curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer.headers);
    }
    if (request.method == "POST") {
      curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.c_str());
    } else if (request.method != "GET") {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("method '{}' is not supported (GET or POST)", request.method));
    }
    return {};
  }

  static HttpOutcome finish(Transfer& transfer, CURLcode code, const std::string& shown_url) {
    if (code != CURLE_OK) {
      return transport_error(code, transfer, shown_url);
    }
    HttpResponse response;
    curl_easy_getinfo(transfer.easy, CURLINFO_RESPONSE_CODE, &response.status);
    if (response.status >= 300 && response.status < 400) {
      return make_error(ErrorCode::Refused,
                        fmt::format("HTTP {} redirect not followed", response.status), shown_url);
    }
    response.body = std::move(transfer.body);
    response.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - transfer.started);
    return response;
  }

  static void release(Transfer& transfer) {
    if (transfer.easy != nullptr) {
      curl_easy_cleanup(transfer.easy);
      transfer.easy = nullptr;
    }
    if (transfer.headers != nullptr) {
      curl_slist_free_all(transfer.headers);
      transfer.headers = nullptr;
    }
    transfer.body.clear();
    transfer.body.shrink_to_fit();
  }

  HttpClientOptions m_options;
  bool m_trust_ca_file_only = false;
  CURLM* m_multi = nullptr;
};

}  // namespace

std::unique_ptr<HttpClient> make_curl_http_client(HttpClientOptions options) {
  return std::make_unique<CurlHttpClient>(std::move(options));
}

}  // namespace netdoctor::remote
