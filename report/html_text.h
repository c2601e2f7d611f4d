// Untrusted text (host, NIC and switch names, tool output from bundles written elsewhere) as
// HTML that reads as itself: in element text and in quoted attribute values alike.
#pragma once

#include <string>
#include <string_view>

namespace netdoctor::report {

// '&', '<', '>', '"' and '\'' as character references; control bytes other than '\n' and '\t'
// made visible as "\xNN" (base/strings.h printable), so nothing from a bundle is markup.
std::string html_escape(std::string_view text);

// JSON text safe inside <script type="application/json">: '<', '>' and '&' as \u escapes, so no
// "</script>" or "<!--" in a string can end the element (they occur only inside strings).
std::string script_json(std::string_view json_text);

}  // namespace netdoctor::report
