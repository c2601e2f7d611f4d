// Where tests find their data: the shared/ folder beside the checkout, the source tree, and
// the build tree (where the netdoctor binary is).
#pragma once

#include <string>

namespace netdoctor::testing {

// The scenarios and reference outputs: the repo's copy (tests/fixtures/shared) unless the
// environment's NETDOCTOR_SHARED_DIR names another folder of the same layout.
std::string shared_dir();
// The shared/ folder beside the checkout the fixtures were copied from; it may be absent.
std::string upstream_shared_dir();
std::string source_dir();                                 // the repository root
std::string netdoctor_binary();                           // the built `netdoctor` executable
std::string reference_file(const std::string& relative);  // shared/reference/<relative>
std::string read_text(const std::string& path);           // whole file; test fails if unreadable
// A fresh empty directory under $NETDOCTOR_TEST_TMP if set, else <build>/test-tmp (either emptied
// by scripts/test before each run); it is removed when the test process exits with every test
// passed (NETDOCTOR_KEEP_TEST_TMP keeps it).
std::string make_temp_dir(const std::string& tag);

}  // namespace netdoctor::testing
