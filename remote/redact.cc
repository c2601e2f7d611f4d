#include "remote/redact.h"

#include <algorithm>

namespace netdoctor::remote {

void Redactor::add_credentials(const BasicAuth& auth) {
  add_secret(auth.password);
  if (!auth.password.empty()) {
    add_secret(base64_encode(auth.user + ":" + auth.password));
  }
}

void Redactor::add_secret(std::string secret) {
  if (secret.empty() || std::find(m_secrets.begin(), m_secrets.end(), secret) != m_secrets.end()) {
    return;
  }
  m_secrets.push_back(std::move(secret));
  std::stable_sort(m_secrets.begin(), m_secrets.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string Redactor::apply(std::string_view text) const {
  std::string out(text);
  for (const auto& secret : m_secrets) {
    for (auto at = out.find(secret); at != std::string::npos;
         at = out.find(secret, at + k_redacted.size())) {
      out.replace(at, secret.size(), k_redacted);
    }
  }
  return out;
}

std::string redact_url(std::string_view url) {
  std::string out(url);
  if (const auto query = out.find('?'); query != std::string::npos) {
    out.replace(query, std::string::npos, "?<query>");
  }
  const auto scheme_end = out.find("://");
  const std::size_t authority_start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const auto authority_end = out.find_first_of("/?#", authority_start);
  const auto at = out.rfind('@', authority_end == std::string::npos ? out.size() : authority_end);
  if (at != std::string::npos && at >= authority_start) {
    out.replace(authority_start, at - authority_start, k_redacted);
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char k_alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = (static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16) |
                   (static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                   static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 2]));
    out += k_alphabet[(n >> 18) & 63];
    out += k_alphabet[(n >> 12) & 63];
    out += k_alphabet[(n >> 6) & 63];
    out += k_alphabet[n & 63];
  }
  if (i < bytes.size()) {
    unsigned n = static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) {
      n |= static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    }
    out += k_alphabet[(n >> 18) & 63];
    out += k_alphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? k_alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace netdoctor::remote
