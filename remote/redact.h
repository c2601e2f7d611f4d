// Credentials must never reach output, logs, bundles or error messages. A Redactor holds the
// secrets of one run and blanks them, and the forms they travel in (the Basic-auth base64 of
// "user:password"), in any text before it leaves the process: error messages and every file
// written from a remote answer (a server may echo what it was sent).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "remote/http_client.h"

namespace netdoctor::remote {

inline constexpr std::string_view k_redacted = "<redacted>";

class Redactor {
 public:
  // The password and its Basic-auth token. The user name is not a secret.
  void add_credentials(const BasicAuth& auth);
  void add_secret(std::string secret);  // ignored when empty
  // `text` with every secret replaced by k_redacted.
  std::string apply(std::string_view text) const;
  bool empty() const { return m_secrets.empty(); }

 private:
  std::vector<std::string> m_secrets;  // longest first, so a secret inside another goes too
};

// A URL fit for messages: user info and the query string are dropped
// ("https://u:p@sw1/x?q=1" -> "https://<redacted>@sw1/x?<query>").
std::string redact_url(std::string_view url);

// RFC 4648 base64, as Basic auth sends "user:password".
std::string base64_encode(std::string_view bytes);

}  // namespace netdoctor::remote
