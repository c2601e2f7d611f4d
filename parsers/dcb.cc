#include "parsers/dcb.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// How the values after a key are laid out, and which `dcb` object prints the key.
enum class Shape { Scalar, Indexed, AppRules, Words };

struct KeySpec {
  std::string_view key;  // as the text form prints it; JSON uses '_' for '-'
  Shape shape;
  std::string_view part;
};

// iproute2 dcb/dcb_{pfc,ets,app,apptrust,buffer,maxrate}.c: the keys `show` prints.
constexpr KeySpec k_keys[] = {
    {"pfc-cap", Shape::Scalar, "pfc"},
    {"macsec-bypass", Shape::Scalar, "pfc"},
    {"delay", Shape::Scalar, "pfc"},
    {"prio-pfc", Shape::Indexed, "pfc"},
    {"requests", Shape::Indexed, "pfc"},
    {"indications", Shape::Indexed, "pfc"},
    {"willing", Shape::Scalar, "ets"},
    {"ets-cap", Shape::Scalar, "ets"},
    {"cbs", Shape::Scalar, "ets"},
    {"prio-tc", Shape::Indexed, "ets"},
    {"tc-tsa", Shape::Indexed, "ets"},
    {"tc-bw", Shape::Indexed, "ets"},
    {"pg-bw", Shape::Indexed, "ets"},
    {"reco-prio-tc", Shape::Indexed, "ets"},
    {"reco-tc-tsa", Shape::Indexed, "ets"},
    {"reco-tc-bw", Shape::Indexed, "ets"},
    {"ethtype-prio", Shape::AppRules, "app"},
    {"default-prio", Shape::Words, "app"},
    {"dscp-prio", Shape::AppRules, "app"},
    {"pcp-prio", Shape::AppRules, "app"},
    {"stream-port-prio", Shape::AppRules, "app"},
    {"dgram-port-prio", Shape::AppRules, "app"},
    {"port-prio", Shape::AppRules, "app"},
    {"order", Shape::Words, "apptrust"},
    {"prio-buffer", Shape::Indexed, "buffer"},
    {"buffer-size", Shape::Indexed, "buffer"},
    {"total-size", Shape::Scalar, "buffer"},
    {"tc-maxrate", Shape::Indexed, "maxrate"},
};

// `dcb dcbx show` prints its mode as bare flag words.
constexpr std::string_view k_dcbx_flags[] = {"host", "lld-managed", "cee", "ieee", "static"};

// rt_dsfield names (iproute2's /etc/iproute2/rt_dsfield) and the DSCP they stand for.
constexpr std::pair<std::string_view, std::uint32_t> k_dscp_names[] = {
    {"default", 0}, {"CS0", 0},   {"CS1", 8},   {"AF11", 10}, {"AF12", 12}, {"AF13", 14},
    {"CS2", 16},    {"AF21", 18}, {"AF22", 20}, {"AF23", 22}, {"CS3", 24},  {"AF31", 26},
    {"AF32", 28},   {"AF33", 30}, {"CS4", 32},  {"AF41", 34}, {"AF42", 36}, {"AF43", 38},
    {"CS5", 40},    {"VA", 44},   {"EF", 46},   {"CS6", 48},  {"CS7", 56},  {"LE", 1},
};

const KeySpec* find_key(std::string_view key) {
  for (const auto& spec : k_keys) {
    if (spec.key == key) {
      return &spec;
    }
  }
  return nullptr;
}

bool is_dcbx_flag(std::string_view word) {
  return std::find(std::begin(k_dcbx_flags), std::end(k_dcbx_flags), word) !=
         std::end(k_dcbx_flags);
}

// One key with the values printed after it, in the text form's spelling ("3:on", "AF31:3").
struct Field {
  std::string key;
  std::vector<std::string> values;
};

// ---- text form ----

// Splits one line into fields; false when it does not start with a known key or flag.
bool fields_of_line(std::string_view line, std::vector<Field>& fields) {
  const auto tokens = split_ws(line);
  if (tokens.empty() || (find_key(tokens[0]) == nullptr && !is_dcbx_flag(tokens[0]))) {
    return false;
  }
  std::size_t i = 0;
  while (i < tokens.size()) {
    const KeySpec* spec = find_key(tokens[i]);
    if (spec == nullptr && is_dcbx_flag(tokens[i])) {
      fields.push_back({"dcbx", {std::string(tokens[i])}});
      ++i;
      continue;
    }
    Field field{std::string(tokens[i]), {}};
    ++i;
    const bool scalar = spec != nullptr && spec->shape == Shape::Scalar;
    while (i < tokens.size() && find_key(tokens[i]) == nullptr && !is_dcbx_flag(tokens[i])) {
      field.values.emplace_back(tokens[i]);
      ++i;
      if (scalar) {
        break;
      }
    }
    fields.push_back(std::move(field));
  }
  return true;
}

// ---- JSON form ----

// The top-level JSON values of `text` (dcb -j prints one object per command, back to back).
std::vector<std::string_view> json_values(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      escaped = !escaped && c == '\\';
      in_string = escaped || c != '"';
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      start = depth++ == 0 ? i : start;
    } else if ((c == '}' || c == ']') && depth > 0 && --depth == 0) {
      out.push_back(text.substr(start, i - start + 1));
    }
  }
  return out;
}

std::string json_scalar(const nlohmann::json& value) {
  if (value.is_boolean()) {
    return value.get<bool>() ? "on" : "off";
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

// A JSON member in the text form's spelling: arrays of scalars become "index:value", arrays of
// [key, priority] pairs "key:priority", the word lists their words.
Field field_of_member(const std::string& name, const nlohmann::json& value) {
  std::string key = name;
  std::replace(key.begin(), key.end(), '_', '-');
  Field field{key, {}};
  const KeySpec* spec = find_key(key);
  if (!value.is_array()) {
    field.values.push_back(json_scalar(value));
    return field;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto& item = value[i];
    if (item.is_array() && item.size() == 2) {
      field.values.push_back(json_scalar(item[0]) + ":" + json_scalar(item[1]));
    } else if (spec != nullptr && spec->shape == Shape::Words) {
      field.values.push_back(json_scalar(item));
    } else {
      field.values.push_back(std::to_string(i) + ":" + json_scalar(item));
    }
  }
  return field;
}

Result<std::vector<Field>> fields_of_json(std::string_view text) {
  std::vector<Field> fields;
  for (std::string_view object : json_values(text)) {
    auto json = nlohmann::json::parse(object, nullptr, false);
    if (json.is_discarded()) {
      return detail::parse_error("dcb -j output that is not valid JSON");
    }
    if (!json.is_object()) {
      continue;
    }
    for (const auto& [name, value] : json.items()) {
      if (is_dcbx_flag(name) && value.is_boolean()) {
        if (value.get<bool>()) {
          fields.push_back({"dcbx", {name}});
        }
        continue;
      }
      fields.push_back(field_of_member(name, value));
    }
  }
  return fields;
}

// ---- values ----

std::optional<bool> on_off(std::string_view word) {
  if (word == "on" || word == "true") {
    return true;
  }
  if (word == "off" || word == "false") {
    return false;
  }
  return std::nullopt;
}

// "10Kb" -> 10240, "1Mb" -> 1048576, "512b" or "512" -> 512.
std::optional<std::uint64_t> size_bytes(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) != 0)) {
    ++digits;
  }
  auto number = parse_u64(text.substr(0, digits));
  if (!number) {
    return std::nullopt;
  }
  const std::string_view unit = text.substr(digits);
  const std::pair<std::string_view, std::uint64_t> units[] = {
      {"", 1}, {"b", 1}, {"Kb", 1024}, {"Mb", 1024 * 1024}, {"Gb", 1024ull * 1024 * 1024}};
  for (const auto& [suffix, factor] : units) {
    if (unit == suffix) {
      return *number * factor;
    }
  }
  return std::nullopt;
}

// "3:on" -> (3, "on"); nullopt unless the index is 0..7.
std::optional<std::pair<std::size_t, std::string_view>> indexed(std::string_view value) {
  const auto colon = value.find(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  auto index = parse_u64(value.substr(0, colon));
  if (!index || *index > 7) {
    return std::nullopt;
  }
  return std::make_pair(static_cast<std::size_t>(*index), value.substr(colon + 1));
}

std::optional<std::uint32_t> small_number(std::string_view text) {
  auto number = parse_u64(text);
  if (!number || *number > 0xffffffffull) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*number);
}

// Keeps a field this parser could not read whole, so nothing printed is lost.
void keep_other(const Field& field, DcbConfig& out) {
  std::string joined;
  for (const auto& value : field.values) {
    joined += (joined.empty() ? "" : " ") + value;
  }
  std::string& slot = out.other[field.key];
  slot += (slot.empty() ? "" : " ") + joined;
}

bool apply_indexed(const Field& field, DcbConfig& out) {
  bool all = true;
  for (const auto& value : field.values) {
    auto slot = indexed(value);
    if (!slot) {
      all = false;
      continue;
    }
    const auto [i, text] = *slot;
    const std::string& key = field.key;
    if (key == "prio-pfc") {
      out.prio_pfc[i] = on_off(text);
    } else if (key == "requests") {
      out.pfc_requests[i] = parse_u64(text);
    } else if (key == "indications") {
      out.pfc_indications[i] = parse_u64(text);
    } else if (key == "prio-tc") {
      out.prio_tc[i] = small_number(text);
    } else if (key == "tc-tsa") {
      out.tc_tsa[i] = std::string(text);
    } else if (key == "tc-bw") {
      out.tc_bw[i] = small_number(text);
    } else if (key == "prio-buffer") {
      out.prio_buffer[i] = small_number(text);
    } else if (key == "buffer-size") {
      out.buffer_size_bytes[i] = size_bytes(text);
    } else if (key == "tc-maxrate") {
      out.tc_maxrate[i] = std::string(text);
    } else {
      all = false;  // pg-bw and the reco-* arrays: kept as printed
    }
  }
  return all;
}

std::optional<std::uint32_t> app_value(std::string_view selector, std::string_view key) {
  if (selector == "dscp") {
    return dscp_value(key);
  }
  if (selector == "ethtype") {
    std::uint32_t value = 0;
    if (key.empty() || key.size() > 4) {
      return std::nullopt;
    }
    for (char c : key) {
      const int digit = std::isdigit(static_cast<unsigned char>(c)) != 0
                            ? c - '0'
                            : (std::isxdigit(static_cast<unsigned char>(c)) != 0
                                   ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                   : -1);
      if (digit < 0) {
        return std::nullopt;
      }
      value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return value;
  }
  return small_number(key);
}

bool apply_app_rules(const Field& field, DcbConfig& out) {
  // "dscp-prio" -> "dscp", "stream-port-prio" -> "stream-port".
  const std::string selector = field.key.substr(0, field.key.size() - std::string("-prio").size());
  bool all = true;
  for (const auto& value : field.values) {
    const auto colon = value.rfind(':');
    auto priority =
        colon == std::string::npos ? std::nullopt : small_number(value.substr(colon + 1));
    if (!priority || *priority > 7) {
      all = false;
      continue;
    }
    const std::string key = value.substr(0, colon);
    out.apps.push_back({selector, key, app_value(selector, key), *priority});
  }
  return all;
}

bool apply_words(const Field& field, DcbConfig& out) {
  if (field.key == "order") {
    out.apptrust_order.insert(out.apptrust_order.end(), field.values.begin(), field.values.end());
    return true;
  }
  bool all = true;
  for (const auto& value : field.values) {
    auto priority = small_number(value);
    if (!priority || *priority > 7) {
      all = false;
      continue;
    }
    out.apps.push_back({"default", "", std::nullopt, *priority});
  }
  return all;
}

bool apply_scalar(const Field& field, DcbConfig& out) {
  if (field.values.size() != 1) {
    return false;
  }
  const std::string& key = field.key;
  const std::string& value = field.values[0];
  if (key == "pfc-cap") {
    out.pfc_cap = small_number(value);
    return out.pfc_cap.has_value();
  }
  if (key == "delay") {
    out.delay_bit_times = small_number(value);
    return out.delay_bit_times.has_value();
  }
  if (key == "ets-cap") {
    out.ets_cap = small_number(value);
    return out.ets_cap.has_value();
  }
  if (key == "total-size") {
    out.total_size_bytes = size_bytes(value);
    return out.total_size_bytes.has_value();
  }
  std::optional<bool>& flag =
      key == "macsec-bypass" ? out.macsec_bypass : (key == "willing" ? out.willing : out.cbs);
  flag = on_off(value);
  return flag.has_value();
}

void note_part(std::string_view part, DcbConfig& out) {
  if (!out.has(part)) {
    out.parts.emplace_back(part);
  }
}

void apply(const Field& field, DcbConfig& out) {
  if (field.key == "dcbx") {
    out.dcbx.insert(out.dcbx.end(), field.values.begin(), field.values.end());
    note_part("dcbx", out);
    return;
  }
  const KeySpec* spec = find_key(field.key);
  if (spec == nullptr) {
    keep_other(field, out);
    return;
  }
  note_part(spec->part, out);
  bool whole = false;
  switch (spec->shape) {
    case Shape::Scalar:
      whole = apply_scalar(field, out);
      break;
    case Shape::Indexed:
      whole = apply_indexed(field, out);
      break;
    case Shape::AppRules:
      whole = apply_app_rules(field, out);
      break;
    case Shape::Words:
      whole = apply_words(field, out);
      break;
  }
  if (!whole) {
    keep_other(field, out);
  }
}

nlohmann::json slots_json(const auto& slots) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& slot : slots) {
    out.push_back(detail::opt(slot));
  }
  return out;
}

}  // namespace

bool DcbConfig::has(std::string_view part) const {
  return std::find(parts.begin(), parts.end(), part) != parts.end();
}

std::optional<std::uint32_t> DcbConfig::priority_of_dscp(std::uint32_t dscp) const {
  for (const auto& rule : apps) {
    if (rule.selector == "dscp" && rule.value == dscp) {
      return rule.priority;
    }
  }
  return std::nullopt;
}

std::optional<std::uint32_t> dscp_value(std::string_view name) {
  for (const auto& [known, value] : k_dscp_names) {
    if (known == name) {
      return value;
    }
  }
  auto number = parse_u64(name);
  if (!number || *number > 63) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*number);
}

Result<DcbConfig> parse_dcb(std::string_view text) {
  ND_TRY(detail::check_text(text));
  DcbConfig out;
  std::vector<Field> fields;
  const std::string_view body = trim(text);
  if (!body.empty() && (body.front() == '{' || body.front() == '[')) {
    ND_TRY_ASSIGN(fields, fields_of_json(body));
  } else {
    for (std::string_view raw : split_lines(text)) {
      const std::string_view line = trim(detail::strip_quote(raw));
      if (line.empty() || detail::is_prompt_line(line)) {
        continue;
      }
      if (!fields_of_line(line, fields)) {
        out.unparsed_lines.emplace_back(line);
      }
    }
  }
  for (const auto& field : fields) {
    apply(field, out);
  }
  if (out.parts.empty()) {
    return detail::parse_error(
        "no dcb output found: no line starts with a key of dcb pfc|ets|app|apptrust|buffer|"
        "maxrate|dcbx show (prio-pfc, prio-tc, dscp-prio, order, ...)");
  }
  return out;
}

nlohmann::json to_json(const DcbConfig& c) {
  using detail::opt;
  nlohmann::json apps = nlohmann::json::array();
  for (const auto& rule : c.apps) {
    apps.push_back({{"selector", rule.selector},
                    {"key", rule.key},
                    {"value", opt(rule.value)},
                    {"priority", rule.priority}});
  }
  return {{"parts", c.parts},
          {"pfc_cap", opt(c.pfc_cap)},
          {"macsec_bypass", opt(c.macsec_bypass)},
          {"delay_bit_times", opt(c.delay_bit_times)},
          {"prio_pfc", slots_json(c.prio_pfc)},
          {"pfc_requests", slots_json(c.pfc_requests)},
          {"pfc_indications", slots_json(c.pfc_indications)},
          {"willing", opt(c.willing)},
          {"ets_cap", opt(c.ets_cap)},
          {"cbs", opt(c.cbs)},
          {"prio_tc", slots_json(c.prio_tc)},
          {"tc_tsa", c.tc_tsa},
          {"tc_bw", slots_json(c.tc_bw)},
          {"apps", apps},
          {"apptrust_order", c.apptrust_order},
          {"prio_buffer", slots_json(c.prio_buffer)},
          {"buffer_size_bytes", slots_json(c.buffer_size_bytes)},
          {"total_size_bytes", opt(c.total_size_bytes)},
          {"tc_maxrate", c.tc_maxrate},
          {"dcbx", c.dcbx},
          {"other", c.other},
          {"unparsed_lines", c.unparsed_lines}};
}

}  // namespace netdoctor::parsers
