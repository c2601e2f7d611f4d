// libFuzzer harness for tar bundles: the bytes as an in-memory archive (every member listed
// and read), then as a bundle file through open_bundle and the fabric loader.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "fuzz/fuzz_walk.h"

namespace {

// A scratch directory per process, removed when the process exits (a static's destructor
// runs before later-registered atexit handlers would, so the path must own its cleanup).
struct ScratchDir {
  std::string path;
  ScratchDir() : path((std::filesystem::temp_directory_path() / "nd-fuzz-tar-XXXXXX").string()) {
    if (::mkdtemp(path.data()) == nullptr) {
      std::abort();
    }
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

std::string archive_path() {
  static const ScratchDir k_dir;
  return k_dir.path + "/bundle.tar";
}

void write_all(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::abort();
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n <= 0) {
      std::abort();
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netdoctor;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  TarTreeReport report;
  auto tree = open_tar_tree_from_memory(bytes, "fuzz.tar", fuzz::fuzz_limits(), &report);
  if (tree.ok()) {
    fuzz::walk_tree(**tree, "", 0);
  }

  write_all(archive_path(), bytes);
  BundleOptions options;
  options.limits = fuzz::fuzz_limits();
  auto bundle = open_bundle(archive_path(), options);
  if (bundle.ok()) {
    fuzz::exercise_bundle(*bundle);
  }
  return 0;
}
