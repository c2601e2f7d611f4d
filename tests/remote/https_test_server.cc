#include "tests/remote/https_test_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace netdoctor::testing {
namespace {

std::string read_file(const std::string& path, bool& found) {
  std::ifstream in(path, std::ios::binary);
  found = static_cast<bool>(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string base64_decode(const std::string& text) {
  std::string out(text.size(), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) {
    return {};
  }
  out.resize(static_cast<std::size_t>(n));
  while (!out.empty() && out.back() == '\0') {  // padding decodes to NULs
    out.pop_back();
  }
  return out;
}

struct Request {
  std::string method;
  std::string path;
  std::string authorization;
};

class Server final : public HttpsTestServer {
 public:
  Server(HttpsTestServerOptions options, SSL_CTX* ctx, int listen_fd, int port)
      : m_options(std::move(options)), m_ctx(ctx), m_listen(listen_fd), m_port(port) {
    m_acceptor = std::thread([this] { accept_loop(); });
  }

  ~Server() override {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stopping = true;
      for (int fd : m_open) {
        ::shutdown(fd, SHUT_RDWR);
      }
    }
    m_stop.notify_all();
    ::shutdown(m_listen, SHUT_RDWR);
    ::close(m_listen);
    m_acceptor.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      threads.swap(m_threads);
    }
    for (auto& thread : threads) {
      thread.join();
    }
    SSL_CTX_free(m_ctx);
  }

  int port() const override { return m_port; }

 private:
  void accept_loop() {
    for (;;) {
      const int fd = ::accept(m_listen, nullptr, nullptr);
      if (fd < 0) {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_stopping) {
          return;
        }
        continue;
      }
      std::lock_guard<std::mutex> lock(m_mutex);
      if (m_stopping) {
        ::close(fd);
        return;
      }
      m_open.insert(fd);
      m_threads.emplace_back([this, fd] { serve(fd); });
    }
  }

  void serve(int fd) {
    SSL* ssl = SSL_new(m_ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      std::string buffer;
      while (auto request = read_request(ssl, buffer)) {
        if (!answer(ssl, *request)) {
          break;
        }
      }
      SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_open.erase(fd);
    ::close(fd);
  }

  static std::optional<Request> read_request(SSL* ssl, std::string& buffer) {
    char chunk[4096];
    std::size_t header_end = std::string::npos;
    while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      const int got = SSL_read(ssl, chunk, sizeof chunk);
      if (got <= 0) {
        return std::nullopt;
      }
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    Request request;
    std::istringstream head(buffer.substr(0, header_end));
    std::string line;
    std::getline(head, line);
    std::istringstream first(line);
    first >> request.method >> request.path;
    std::size_t length = 0;
    while (std::getline(head, line)) {
      if (!line.empty() && line.back() == '\r') {
        line.pop_back();
      }
      const auto colon = line.find(':');
      if (colon == std::string::npos) {
        continue;
      }
      std::string name = line.substr(0, colon);
      for (char& c : name) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      if (name == "content-length") {
        length = std::stoul(value);
      } else if (name == "authorization") {
        request.authorization = value;
      }
    }
    buffer.erase(0, header_end + 4);
    while (buffer.size() < length) {
      const int got = SSL_read(ssl, chunk, sizeof chunk);
      if (got <= 0) {
        return std::nullopt;
      }
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    buffer.erase(0, length);
    return request;
  }

  // False when the connection should close.
  bool answer(SSL* ssl, const Request& request) {
    std::vector<std::string> parts;
    std::istringstream path(request.path);
    for (std::string part; std::getline(path, part, '/');) {
      if (!part.empty()) {
        parts.push_back(part);
      }
    }
    const std::string kind = parts.empty() ? "" : parts[0];
    std::unique_lock<std::mutex> lock(m_mutex);
    if (kind == "hang") {
      m_stop.wait(lock, [this] { return m_stopping; });
      return false;
    }
    if (m_stop.wait_for(lock, m_options.delay, [this] { return m_stopping; })) {
      return false;
    }
    lock.unlock();
    if (kind == "error500") {
      return reply(ssl, 500,
                   "internal error; request had Authorization: " + request.authorization + "\n");
    }
    if (!m_options.expect_auth.empty() &&
        request.authorization != "Basic " + m_options.expect_auth) {
      return reply(ssl, 401, "unauthorized\n");
    }
    if (kind == "badjson") {
      return reply(ssl, 200, "{this is not json");
    }
    if (kind == "echo") {
      const auto space = request.authorization.find(' ');
      return reply(ssl, 200,
                   "you are " +
                       (space == std::string::npos
                            ? std::string()
                            : base64_decode(request.authorization.substr(space + 1))) +
                       "\n");
    }
    bool found = false;
    if (kind == "sonic" && parts.size() == 3 && request.method == "GET" &&
        parts[2].find("..") == std::string::npos) {
      std::string body = read_file(m_options.root + "/sonic/" + parts[2], found);
      return found ? reply(ssl, 200, body) : reply(ssl, 404, "no such command\n");
    }
    if (kind == "eapi" && request.method == "POST") {
      std::string body = read_file(m_options.root + "/eapi.json", found);
      return reply(ssl, 200, body);
    }
    return reply(ssl, 404, "not found\n");
  }

  static bool reply(SSL* ssl, int status, const std::string& body) {
    const std::string head =
        "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Error") +
        "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\n\r\n";
    const std::string message = head + body;
    return SSL_write(ssl, message.data(), static_cast<int>(message.size())) > 0;
  }

  HttpsTestServerOptions m_options;
  SSL_CTX* m_ctx;
  int m_listen;
  int m_port;
  std::mutex m_mutex;
  std::condition_variable m_stop;
  bool m_stopping = false;
  std::set<int> m_open;
  std::vector<std::thread> m_threads;
  std::thread m_acceptor;
};

}  // namespace

std::unique_ptr<HttpsTestServer> HttpsTestServer::start(const HttpsTestServerOptions& options) {
  // A client that gave up (timeout, refused certificate) must not kill the test process when the
  // server writes to its closed connection.
  ::signal(SIGPIPE, SIG_IGN);
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr || SSL_CTX_use_certificate_chain_file(ctx, options.cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, options.key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    ADD_FAILURE() << "cannot load " << options.cert_file << " / " << options.key_file;
    SSL_CTX_free(ctx);
    return nullptr;
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 1024) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ADD_FAILURE() << "cannot listen on 127.0.0.1";
    SSL_CTX_free(ctx);
    return nullptr;
  }
  return std::make_unique<Server>(options, ctx, fd, ntohs(addr.sin_port));
}

}  // namespace netdoctor::testing
