// Issue 19: names come from bundles written on other machines. A host and a switch named with
// terminal escapes, C1 controls, bidi overrides, HTML and Markdown link syntax reach the
// diagnosis as they are (JSON keeps them exactly) and every other renderer shows them as text.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "model/inventory.h"
#include "model/loader.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

// Each holds an OSC title write ended by BEL, an SGR, an 8-bit CSI as UTF-8 (U+009B) and raw,
// a right-to-left override, raw HTML, a Markdown link, a table pipe and a backtick.
const std::string k_evil_host =
    "evil\x1b]0;pwned\x07\x1b[31m<img src=x onerror=alert(1)>a|b](javascript:alert(1))"
    "\xc2\x9b"
    "31m\xe2\x80\xae`x";
const std::string k_evil_switch =
    "sw\x1b[2J<b>[c](http://x.test)|\xc2\x9b"
    "1m``y";

// What the renamed culprits of the pfc-storm scenario become (gpu-a001's NIC, leaf1's port).
std::string replace_all(std::string s, std::string_view from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// `path` (relative, no trailing '/') with the directories gpu-a001 and leaf1 renamed.
std::string renamed(const std::string& path) {
  const std::string framed =
      replace_all(replace_all("/" + path + "/", "/gpu-a001/", "/" + k_evil_host + "/"), "/leaf1/",
                  "/" + k_evil_switch + "/");
  return framed.substr(1, framed.size() - 2);
}

// A file of the evil host that fails to read: a data problem naming its path.
const std::string k_unreadable =
    "pfc-storm/hosts/" + k_evil_host + "/0/sos_commands/chrony/chronyc_tracking";

void copy_tree(const FileTree& from, const std::string& dir, MemTree& to) {
  auto entries = from.list(dir);
  ASSERT_TRUE(entries.ok()) << entries.error().describe();
  for (const DirEntry& entry : *entries) {
    const std::string path = dir.empty() ? entry.name : dir + "/" + entry.name;
    if (entry.kind == DirEntry::Kind::Dir) {
      to.add_dir(renamed(path));
      copy_tree(from, path, to);
    } else if (renamed(path) == k_unreadable) {
      to.add_error(k_unreadable, Error{ErrorCode::Io, "unreadable for the test", k_unreadable});
    } else if (entry.kind == DirEntry::Kind::File) {
      auto text = from.read(path);
      ASSERT_TRUE(text.ok()) << text.error().describe();
      // The hosts' LLDP names their switch: the evil one, escaped as JSON wants.
      const std::string evil_json = nlohmann::json(k_evil_switch).dump();
      to.add_file(renamed(path), path.find("lldp") == std::string::npos
                                     ? *text
                                     : replace_all(*text, "\"leaf1\"", evil_json));
    }
  }
}

// The pfc-storm scenario with gpu-a001 and leaf1 renamed, one file of the evil host unreadable.
Bundle hostile_bundle() {
  auto tar = open_tar_tree(netdoctor::testing::shared_dir() + "/scenarios/pfc-storm.tar.gz");
  EXPECT_TRUE(tar.ok());
  auto tree = std::make_shared<MemTree>("hostile");
  copy_tree(**tar, "", *tree);
  auto bundle = open_bundle_tree(tree, "hostile.tar.gz");
  EXPECT_TRUE(bundle.ok()) << bundle.error().describe();
  return std::move(bundle).value();
}

Diagnosis hostile_diagnosis() {
  DiagnoseOptions options;
  options.symptom = "slowdown";
  auto diagnosis = diagnose_opened_bundle(hostile_bundle(), options);
  EXPECT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  return std::move(diagnosis).value();
}

// `md` without its fenced blocks and code spans (paired as CommonMark pairs backtick runs),
// whose text is literal: what is left is what Markdown interprets.
std::string outside_code(const std::string& md) {
  std::string out;
  bool fenced = false;
  for (std::size_t start = 0; start < md.size();) {
    const std::size_t end = std::min(md.find('\n', start), md.size());
    const std::string line = md.substr(start, end - start);
    start = end + 1;
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      continue;
    }
    for (std::size_t i = 0; i < line.size();) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        out += line.substr(i, 2);
        i += 2;
        continue;
      }
      if (line[i] != '`') {
        out += line[i++];
        continue;
      }
      const std::size_t run = line.find_first_not_of('`', i) == std::string::npos
                                  ? line.size() - i
                                  : line.find_first_not_of('`', i) - i;
      std::size_t close = line.find(std::string(run, '`'), i + run);
      while (close != std::string::npos && close + run < line.size() && line[close + run] == '`') {
        close = line.find(std::string(run, '`'), line.find_first_not_of('`', close));
      }
      if (close == std::string::npos) {
        out += line.substr(i, run);  // an unmatched run: literal backticks
        i += run;
      } else {
        out += "CODE";
        i = close + run;
      }
    }
    out += '\n';
  }
  return out;
}

// Whether `needle` occurs in `md` other than backslash-escaped (its first character).
bool unescaped(const std::string& md, const std::string& needle) {
  for (std::size_t at = md.find(needle); at != std::string::npos; at = md.find(needle, at + 1)) {
    if (at == 0 || md[at - 1] != '\\') {
      return true;
    }
  }
  return false;
}

void expect_no_raw_controls(const std::string& out) {
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "raw ESC";
  EXPECT_EQ(out.find('\x07'), std::string::npos) << "raw BEL";
  EXPECT_EQ(out.find("\xc2\x9b"), std::string::npos) << "U+009B, the 8-bit CSI";
  EXPECT_EQ(out.find('\x9b'), std::string::npos) << "a raw 8-bit CSI byte";
  EXPECT_EQ(out.find("\xe2\x80\xae"), std::string::npos) << "a right-to-left override";
}

TEST(HostileNames, TheCulpritIsTheEvilHostAsItIs) {
  const Diagnosis diagnosis = hostile_diagnosis();
  ASSERT_FALSE(diagnosis.causes.empty()) << render_text(diagnosis);
  const std::string all = render_json(diagnosis);
  EXPECT_NE(all.find("<img src=x"), std::string::npos);  // the test exercises the name
  bool culprit = false;
  for (const auto& entity : diagnosis.causes.front().entities) {
    culprit = culprit || entity.find(k_evil_host) != std::string::npos;
  }
  EXPECT_TRUE(culprit) << all;
}

TEST(HostileNames, TextShowsEscapesInsteadOfSendingThem) {
  const std::string text = render_text(hostile_diagnosis(), RenderOptions{"<N>", true});
  expect_no_raw_controls(text);
  EXPECT_NE(text.find("evil\\x1b]0;pwned\\x07\\x1b[31m"), std::string::npos) << text;
  EXPECT_NE(text.find("\\u009b31m\\u202e`x"), std::string::npos) << text;
  EXPECT_NE(text.find("sw\\x1b[2J"), std::string::npos) << text;  // the switch, in a culprit port
  EXPECT_NE(text.find("port:sw\\x1b[2J<b>[c](http://x.test)|\\u009b1m``y/Ethernet0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Data problems"), std::string::npos) << text;
}

TEST(HostileNames, MarkdownReadsTheNamesAsText) {
  const std::string md = render_markdown(hostile_diagnosis(), RenderOptions{"<N>", true});
  expect_no_raw_controls(md);
  const std::string read = outside_code(md);
  EXPECT_FALSE(unescaped(read, "<img")) << read;
  EXPECT_FALSE(unescaped(read, "<b>")) << read;
  EXPECT_FALSE(unescaped(read, "](javascript")) << read;
  EXPECT_FALSE(unescaped(read, "](http://x.test)")) << read;
  EXPECT_FALSE(unescaped(read, "[c]")) << read;
  EXPECT_NE(read.find("\\<img"), std::string::npos) << read;  // shown, escaped
  // Outside code spans the name's markup is backslash-escaped (a host in a summary, a path in a
  // data problem); inside a culprit's code span it is literal, fenced past its backticks.
  EXPECT_NE(md.find("\\<img src=x onerror=alert(1)>a\\|b\\](javascript:alert(1))"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("``nic:evil\\x1b]0;pwned\\x07\\x1b[31m<img src=x onerror=alert(1)>a|b]"),
            std::string::npos)
      << md;
  // Every table row keeps its column count: a '|' of a name is escaped.
  std::size_t columns = 0;
  for (std::size_t start = 0; start < md.size();) {
    std::size_t end = md.find('\n', start);
    const std::string line = md.substr(start, end - start);
    start = end == std::string::npos ? md.size() : end + 1;
    if (line.rfind("| probe | evidence", 0) == 0 || line.rfind("| probe | status", 0) == 0) {
      columns = 4;
    } else if (line.rfind("| cause | probe", 0) == 0) {
      columns = 5;
    } else if (line.rfind("| key |", 0) == 0) {
      columns = 3;
    } else if (line.empty() || line[0] != '|') {
      columns = 0;
    }
    if (columns > 0) {
      std::size_t pipes = 0;
      for (std::size_t i = 0; i < line.size(); ++i) {
        pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\') ? 1 : 0;
      }
      EXPECT_EQ(pipes, columns + 1) << line;
    }
  }
}

TEST(HostileNames, JsonKeepsTheExactNames) {
  const std::string json = render_json(hostile_diagnosis(), RenderOptions{"<N>", true});
  EXPECT_EQ(json.find('\x1b'), std::string::npos);  // JSON escapes C0 controls (\u001b)
  const auto parsed = nlohmann::json::parse(json);
  bool host = false;
  bool port = false;
  for (const auto& cause : parsed.at("causes")) {
    for (const auto& entity : cause.at("entities")) {
      host = host || entity.get<std::string>().find(k_evil_host) != std::string::npos;
      port = port || entity.get<std::string>() == "port:" + k_evil_switch + "/Ethernet0";
    }
  }
  EXPECT_TRUE(host) << json;
  EXPECT_TRUE(port) << json;
}

TEST(HostileNames, InventoryTextShowsEscapesInsteadOfSendingThem) {
  const Bundle bundle = hostile_bundle();
  auto fabric = model::load_fabric(bundle);
  ASSERT_TRUE(fabric.ok()) << fabric.error().describe();
  const std::string text = model::inventory_text(*fabric);
  expect_no_raw_controls(text);
  EXPECT_NE(text.find("evil\\x1b]0;pwned\\x07\\x1b[31m<img src=x"), std::string::npos) << text;
  EXPECT_NE(text.find("sw\\x1b[2J<b>"), std::string::npos) << text;
  EXPECT_NE(text.find("\\u009b31m\\u202e"), std::string::npos) << text;
  // The JSON inventory keeps the name exactly.
  const nlohmann::json json = model::inventory_json(*fabric);
  bool found = false;
  for (const auto& host : json.at("hosts")) {
    found = found || host.at("name") == k_evil_host;
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace netdoctor::engine
