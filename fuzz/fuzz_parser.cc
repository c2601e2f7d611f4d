// libFuzzer harness for one parser kind (linked once per kind with a generated file defining
// k_parser_kind, see fuzz/CMakeLists.txt): any text must parse or fail with an Error, and a
// parsed record must convert to JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "parsers/registry.h"

namespace netdoctor::fuzz {
extern const std::string_view k_parser_kind;
}  // namespace netdoctor::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  // A kind renamed in the registry would otherwise fuzz only the "unknown kind" branch.
  if (!netdoctor::parsers::is_parser_kind(netdoctor::fuzz::k_parser_kind)) {
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto json = netdoctor::parsers::parse_to_json(netdoctor::fuzz::k_parser_kind, text);
  if (json.ok()) {
    // Non-UTF-8 input legitimately reaches string fields; serialising must still work.
    const std::string out = json->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (out.empty()) {
      std::abort();
    }
  }
  return 0;
}
