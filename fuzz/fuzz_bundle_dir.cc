// libFuzzer harness for bundle directories. The input encodes a small tree, written into a
// scratch directory, then read through open_dir_tree (both path resolvers), open_bundle and
// the fabric loader.
//
// Encoding, repeated until the input ends (lengths little-endian, cut at the input's end):
//   u8 kind (% 3: 0 file, 1 directory, 2 symlink)  u16 name length  name
//   u32 data length  data (file content or link target)
// Names are relative; "", "." and ".." components are dropped and every directory on the way
// is opened with O_NOFOLLOW, so the harness itself never writes outside its scratch directory
// (links may point anywhere: refusing them is the reader's job).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "fuzz/fuzz_walk.h"

namespace {

constexpr std::size_t k_max_members = 512;
constexpr std::size_t k_max_components = 16;

enum class Kind { File, Dir, Symlink };

struct Member {
  Kind kind = Kind::File;
  std::string name;
  std::string data;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
  bool done() const { return m_bytes.empty(); }
  std::uint32_t number(std::size_t width) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < width && !m_bytes.empty(); ++i) {
      value |= static_cast<std::uint32_t>(static_cast<unsigned char>(m_bytes.front())) << (8 * i);
      m_bytes.remove_prefix(1);
    }
    return value;
  }
  std::string take(std::size_t n) {
    n = std::min(n, m_bytes.size());
    std::string out(m_bytes.substr(0, n));
    m_bytes.remove_prefix(n);
    return out;
  }

 private:
  std::string_view m_bytes;
};

std::vector<Member> decode(std::string_view bytes) {
  std::vector<Member> members;
  Reader in(bytes);
  while (!in.done() && members.size() < k_max_members) {
    Member m;
    m.kind = static_cast<Kind>(in.number(1) % 3);
    m.name = in.take(in.number(2));
    m.data = in.take(in.number(4));
    members.push_back(std::move(m));
  }
  return members;
}

std::vector<std::string> components(const std::string& name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= name.size() && parts.size() < k_max_components) {
    std::size_t end = name.find('/', start);
    if (end == std::string::npos) {
      end = name.size();
    }
    std::string part = name.substr(start, end - start);
    if (!part.empty() && part != "." && part != ".." && part.find('\0') == std::string::npos) {
      parts.push_back(std::move(part));
    }
    start = end + 1;
  }
  return parts;
}

void write_member(int root_fd, const Member& m) {
  const std::vector<std::string> parts = components(m.name);
  if (parts.empty()) {
    return;
  }
  int dir_fd = ::dup(root_fd);
  for (std::size_t i = 0; i + 1 < parts.size() && dir_fd >= 0; ++i) {
    (void)::mkdirat(dir_fd, parts[i].c_str(), 0755);
    const int next =
        ::openat(dir_fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(dir_fd);
    dir_fd = next;
  }
  if (dir_fd < 0) {
    return;
  }
  const char* leaf = parts.back().c_str();
  if (m.kind == Kind::Dir) {
    (void)::mkdirat(dir_fd, leaf, 0755);
  } else if (m.kind == Kind::Symlink) {
    if (m.data.find('\0') == std::string::npos) {
      (void)::symlinkat(m.data.c_str(), dir_fd, leaf);
    }
  } else {
    const int fd =
        ::openat(dir_fd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
      (void)!::write(fd, m.data.data(), m.data.size());
      ::close(fd);
    }
  }
  ::close(dir_fd);
}

// A scratch directory per process, removed when the process exits (a static's destructor
// runs before later-registered atexit handlers would, so the path must own its cleanup).
struct ScratchDir {
  std::string path;
  ScratchDir() : path((std::filesystem::temp_directory_path() / "nd-fuzz-dir-XXXXXX").string()) {
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

std::string scratch_root() {
  static const ScratchDir k_dir;
  return k_dir.path + "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netdoctor;
  const std::string bundle_dir = scratch_root() + "/bundle";
  std::filesystem::remove_all(bundle_dir);  // never follows links
  if (::mkdir(bundle_dir.c_str(), 0755) != 0) {
    std::abort();
  }
  const int root_fd = ::open(bundle_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) {
    std::abort();
  }
  for (const Member& m : decode(std::string_view(reinterpret_cast<const char*>(data), size))) {
    write_member(root_fd, m);
  }
  ::close(root_fd);

  for (auto opener : {&open_dir_tree, &open_dir_tree_without_openat2}) {
    auto tree = opener(bundle_dir, fuzz::fuzz_limits());
    if (tree.ok()) {
      fuzz::walk_tree(**tree, "", 0);
    }
  }
  BundleOptions options;
  options.limits = fuzz::fuzz_limits();
  auto bundle = open_bundle(bundle_dir, options);
  if (bundle.ok()) {
    fuzz::exercise_bundle(*bundle);
  }
  return 0;
}
