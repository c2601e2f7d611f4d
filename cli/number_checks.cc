#include "cli/number_checks.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace netdoctor::cli {
namespace {

// Empty when `text` is a finite number satisfying `ok`; otherwise the reason.
template <typename Ok>
std::string check_number(const std::string& text, Ok ok, const char* requirement) {
  double value = 0;
  if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value)) {
    return fmt::format("must be a number (got {})", text);
  }
  return ok(value) ? std::string{} : fmt::format("{} (got {})", requirement, text);
}

}  // namespace

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) {
        return check_number(
            text, [](double v) { return v > 0; }, "must be greater than 0");
      },
      "POSITIVE");
}

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](std::string& text) {
        return check_number(
            text, [](double v) { return v >= 0; }, "must not be negative");
      },
      "NON-NEGATIVE");
}

}  // namespace netdoctor::cli
