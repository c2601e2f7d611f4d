// TarTree: a tar archive (plain or compressed, detected by content) read in one streaming pass
// into an ArchiveTree. libarchive only undoes the compression (base/archive_stream.h, on a
// thread of its own); the tar headers (ustar, pax and GNU long names) are read here, so a
// member costs a header parse and one copy of its bytes, which is what keeps a 600k-member
// bundle close to the time of decompressing it. Members are validated before anything is
// stored: escaping names are refused and reported, declared sizes are checked against the
// limits before any allocation, and the stream is never trusted to stop where its headers say.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "base/archive_stream.h"
#include "base/archive_tree.h"
#include "base/file_tree.h"
#include "base/strings.h"
#include "base/tar_members.h"

namespace netdoctor {
namespace {

constexpr std::size_t k_tar_block = 512;
// pax extended headers and GNU long names: a name, a link target and a few numbers.
constexpr std::uint64_t k_max_meta_bytes = std::uint64_t{1} << 20;

// The decompressed archive as a byte stream, in the blocks ArchiveStream hands out.
class TarStream {
 public:
  explicit TarStream(ArchiveStream& source) : m_source(source) {}

  // The next `n` bytes, contiguous and valid until the next call; fewer only where the stream
  // ends. Io when the compressed data is corrupt.
  Result<std::string_view> take(std::size_t n) {
    if (m_left >= n) {
      const std::string_view out(m_data, n);
      m_data += n;
      m_left -= n;
      return out;
    }
    m_staging.assign(m_data, m_left);
    m_left = 0;
    while (m_staging.size() < n && !m_ended) {
      ND_TRY(next_block());
      const std::size_t part = std::min(n - m_staging.size(), m_left);
      m_staging.append(m_data, part);
      m_data += part;
      m_left -= part;
    }
    return std::string_view(m_staging);
  }

  // False when the stream ended first.
  Result<bool> skip(std::uint64_t n) {
    while (n > 0) {
      if (m_left == 0) {
        if (m_ended) {
          return false;
        }
        ND_TRY(next_block());
        continue;
      }
      const std::size_t part = static_cast<std::size_t>(std::min<std::uint64_t>(n, m_left));
      m_data += part;
      m_left -= part;
      n -= part;
    }
    return true;
  }

 private:
  Status next_block() {
    ND_TRY_ASSIGN(const std::string_view block, m_source.next_block());
    m_ended = block.empty();
    m_data = block.data();
    m_left = block.size();
    return {};
  }

  ArchiveStream& m_source;
  const char* m_data = nullptr;
  std::size_t m_left = 0;
  bool m_ended = false;
  std::string m_staging;  // a request that straddles blocks
};

std::string_view field(std::string_view block, std::size_t offset, std::size_t size) {
  return block.substr(offset, size);
}

// Up to the first NUL.
std::string_view c_string(std::string_view text) {
  return text.substr(0, text.find('\0'));
}

// A numeric header field: octal digits (leading spaces allowed, ended by a space or NUL), or
// base-256 when the top bit is set. Saturates instead of overflowing; nullopt for garbage.
std::optional<std::uint64_t> header_number(std::string_view text) {
  constexpr std::uint64_t k_max = std::numeric_limits<std::uint64_t>::max();
  if (!text.empty() && (static_cast<unsigned char>(text[0]) & 0x80u) != 0) {
    if ((static_cast<unsigned char>(text[0]) & 0x40u) != 0) {
      return std::nullopt;  // negative
    }
    std::uint64_t value = static_cast<unsigned char>(text[0]) & 0x3fu;
    for (char c : text.substr(1)) {
      if (value > (k_max >> 8)) {
        return k_max;
      }
      value = (value << 8) | static_cast<unsigned char>(c);
    }
    return value;
  }
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') {
    ++i;
  }
  std::uint64_t value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '7'; ++i) {
    if (value > (k_max >> 3)) {
      return k_max;
    }
    value = (value << 3) | static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i < text.size() && text[i] != ' ' && text[i] != '\0') {
    return std::nullopt;
  }
  return value;
}

// The checksum field holds the sum of the header's bytes with the field itself as spaces;
// old writers summed signed chars. The plain sum is a loop the compiler vectorises: it runs
// for every one of a bundle's ~million headers.
bool checksum_matches(std::string_view block) {
  const auto stored = header_number(field(block, 148, 8));
  if (!stored) {
    return false;
  }
  constexpr std::uint64_t k_field_as_spaces = 8 * ' ';
  const auto* bytes = reinterpret_cast<const unsigned char*>(block.data());
  std::uint64_t unsigned_sum = 0;
  for (std::size_t i = 0; i < k_tar_block; ++i) {
    unsigned_sum += bytes[i];
  }
  std::uint64_t field_sum = 0;
  for (std::size_t i = 148; i < 156; ++i) {
    field_sum += bytes[i];
  }
  unsigned_sum = unsigned_sum - field_sum + k_field_as_spaces;
  if (*stored == unsigned_sum) {
    return true;
  }
  std::int64_t signed_sum = 0;
  for (std::size_t i = 0; i < k_tar_block; ++i) {
    signed_sum += (i >= 148 && i < 156) ? ' ' : static_cast<signed char>(bytes[i]);
  }
  return static_cast<std::int64_t>(*stored) == signed_sum;
}

bool all_zero(std::string_view block) {
  return std::all_of(block.begin(), block.end(), [](char c) { return c == '\0'; });
}

// What pax extended headers and GNU long-name members say about the member after them.
struct Pending {
  std::optional<std::string> path;
  std::optional<std::string> link;
  std::optional<std::uint64_t> size;
};

// "<length> <key>=<value>\n" records; a malformed record ends the parse (what came before
// stands).
void read_pax_records(std::string_view data, Pending& pending) {
  while (!data.empty()) {
    const auto space = data.find(' ');
    if (space == std::string_view::npos) {
      return;
    }
    const auto length = parse_u64(data.substr(0, space));
    if (!length || *length <= space + 1 || *length > data.size()) {
      return;
    }
    std::string_view record = data.substr(space + 1, static_cast<std::size_t>(*length) - space - 1);
    data.remove_prefix(static_cast<std::size_t>(*length));
    if (!record.empty() && record.back() == '\n') {
      record.remove_suffix(1);
    }
    const auto equals = record.find('=');
    if (equals == std::string_view::npos) {
      continue;
    }
    const std::string_view key = record.substr(0, equals);
    const std::string_view value = record.substr(equals + 1);
    if (key == "path") {
      pending.path = std::string(value);
    } else if (key == "linkpath") {
      pending.link = std::string(value);
    } else if (key == "size") {
      if (auto size = parse_u64(value)) {
        pending.size = *size;
      }
    }
  }
}

// The member's name as stored (bytes kept as they are), without a leading "./" or a
// trailing '/'.
std::string_view member_name(std::string_view name) {
  while (starts_with(name, "./")) {
    name.remove_prefix(2);
  }
  while (!name.empty() && name.back() == '/') {
    name.remove_suffix(1);
  }
  return name;
}

bool escapes(std::string_view name) {
  if (starts_with(name, "/")) {
    return true;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..") {
      return true;
    }
    if (end == name.size()) {
      return false;
    }
    start = end + 1;
  }
}

// A hard link names another member by its archive path; as a tree link it must be relative
// to the link's own directory.
std::string relative_target(std::string_view link_path, std::string_view target) {
  std::string up;
  for (char c : link_path) {
    if (c == '/') {
      up += "../";
    }
  }
  return up + std::string(target);
}

enum class Type { File, Dir, Symlink, Hardlink, Special };

// Type flags as libarchive reads them: '0', NUL and '7' (contiguous) are files, 'D' (GNU
// dump directory) is a directory; devices, FIFOs, sparse and volume entries are not needed.
Type type_of(char flag) {
  switch (flag) {
    case '0':
    case '\0':
    case '7':
      return Type::File;
    case '1':
      return Type::Hardlink;
    case '2':
      return Type::Symlink;
    case '5':
    case 'D':
      return Type::Dir;
    default:
      return Type::Special;
  }
}

// Symbolic links, devices and FIFOs carry no data whatever their size field says.
bool has_data(char flag) {
  return flag != '2' && flag != '3' && flag != '4' && flag != '6';
}

std::uint64_t padding(std::uint64_t size) {
  return (k_tar_block - size % k_tar_block) % k_tar_block;
}

class TarLoader {
 public:
  TarLoader(std::string shown, TreeLimits limits, TarTreeReport* report, TarMemberSink& members)
      : m_shown(std::move(shown)), m_limits(limits), m_report(report), m_tree(members) {}

  Status load(ArchiveStream& source);

 private:
  struct Member {
    std::string_view name;  // as stored, before member_name()
    std::string_view link;
    std::uint64_t size = 0;
    char flag = '0';
  };

  void problem(ErrorCode code, std::string message, std::string_view member) {
    if (m_report != nullptr) {
      m_report->problems.push_back(
          make_error(code, std::move(message), fmt::format("{}:{}", m_shown, member)));
    }
  }
  // Ok(true) after a member, Ok(false) at the end of the archive.
  Result<bool> next(TarStream& in);
  Status take_member(TarStream& in, const Member& member);
  Status skip_data(TarStream& in, const Member& member);
  Status skip_sparse_extensions(TarStream& in);

  std::string m_shown;
  TreeLimits m_limits;
  TarTreeReport* m_report;
  TarMemberSink& m_tree;
  Pending m_pending;
  std::string m_name;  // the current member's name and link target, copied out of the stream
  std::string m_link;
  std::uint64_t m_headers = 0;  // that passed their checksum, extended ones included
  bool m_bad_header = false;    // the stream failed as tar, not as compressed data
  std::uint64_t m_entries = 0;
  std::uint64_t m_declared_total = 0;
  std::uint64_t m_kept_total = 0;
};

// A broken stream or header: the Io error a caller turns into "truncated or corrupt".
Error broken(std::string message) {
  return make_error(ErrorCode::Io, std::move(message));
}

Status TarLoader::skip_data(TarStream& in, const Member& member) {
  if (!has_data(member.flag)) {
    return {};
  }
  ND_TRY_ASSIGN(const bool whole, in.skip(member.size));
  if (!whole) {
    return broken("truncated tar archive (member data cut short)");
  }
  ND_TRY_ASSIGN(const bool padded, in.skip(padding(member.size)));
  (void)padded;  // an archive may end right after the last member's data
  return {};
}

Result<bool> TarLoader::next(TarStream& in) {
  ND_TRY_ASSIGN(std::string_view block, in.take(k_tar_block));
  if (block.empty()) {
    return false;  // no end-of-archive blocks: accepted, as tar(1) does
  }
  if (block.size() < k_tar_block) {
    m_bad_header = true;
    return broken("truncated tar archive (header cut short)");
  }
  if (all_zero(block)) {
    return false;
  }
  if (!checksum_matches(block)) {
    m_bad_header = true;
    return broken("damaged tar header (checksum mismatch)");
  }
  ++m_headers;
  const char flag = block[156];
  auto size = header_number(field(block, 124, 12));
  if (!size) {
    m_bad_header = true;
    return broken("damaged tar header (size is not a number)");
  }
  if (flag == 'x' || flag == 'X' || flag == 'g' || flag == 'L' || flag == 'K') {
    if (*size > k_max_meta_bytes) {
      return broken(fmt::format("extended header of {} bytes", *size));
    }
    ND_TRY_ASSIGN(std::string_view data, in.take(static_cast<std::size_t>(*size)));
    if (data.size() < *size) {
      return broken("truncated tar archive (extended header cut short)");
    }
    if (flag == 'x' || flag == 'X') {
      read_pax_records(data, m_pending);
    } else if (flag == 'L') {
      m_pending.path = std::string(c_string(data));
    } else if (flag == 'K') {
      m_pending.link = std::string(c_string(data));
    }
    ND_TRY_ASSIGN(const bool padded, in.skip(padding(*size)));
    (void)padded;
    return true;
  }
  // Copied out: the block is only valid until the stream is read again.
  if (m_pending.path) {
    m_name = std::move(*m_pending.path);
  } else {
    const std::string_view name = c_string(field(block, 0, 100));
    const std::string_view prefix = c_string(field(block, 345, 155));
    const bool posix = field(block, 257, 6) == std::string_view("ustar\0", 6);
    m_name.clear();
    if (posix && !prefix.empty()) {
      m_name.append(prefix).push_back('/');
    }
    m_name.append(name);
  }
  if (m_pending.link) {
    m_link = std::move(*m_pending.link);
  } else {
    m_link.assign(c_string(field(block, 157, 100)));
  }
  if (flag == 'S' && block[482] != '\0') {
    ND_TRY(skip_sparse_extensions(in));
  }
  const Member member{m_name, m_link, m_pending.size.value_or(*size), flag};
  m_pending = Pending{};
  ND_TRY(take_member(in, member));
  return true;
}

// An old GNU sparse member lists more of its map in extra header blocks, each flagging
// whether another follows; the member itself is skipped (not something a capture holds).
Status TarLoader::skip_sparse_extensions(TarStream& in) {
  for (;;) {
    ND_TRY_ASSIGN(const std::string_view extension, in.take(k_tar_block));
    if (extension.size() < k_tar_block) {
      return broken("truncated tar archive (sparse header cut short)");
    }
    if (extension[504] == '\0') {
      return {};
    }
  }
}

Status TarLoader::take_member(TarStream& in, const Member& member) {
  const std::string_view name = member_name(member.name);
  if (++m_entries > m_limits.max_entries) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive has more than {} members; stopped at {} (a tar bomb?)",
                                  m_limits.max_entries, name),
                      m_shown);
  }
  const Type type = type_of(member.flag);
  if (name.empty() || name == ".") {
    return skip_data(in, member);
  }
  if (escapes(name)) {
    problem(
        ErrorCode::Refused,
        fmt::format("member {} is refused: its name leaves the archive (absolute or '..')", name),
        name);
    return skip_data(in, member);
  }
  if (type == Type::Hardlink) {
    std::string_view target = member.link;
    while (starts_with(target, "./")) {
      target.remove_prefix(2);
    }
    if (escapes(target)) {
      problem(ErrorCode::Refused,
              fmt::format("hard link {} -> {} is refused: it leaves the archive", name, target),
              name);
    } else {
      m_tree.add_symlink(name, relative_target(name, target));
    }
    return skip_data(in, member);
  }
  // A "file" whose name ends in '/' is a directory, as libarchive reads it.
  if (type == Type::Dir || (type == Type::File && ends_with(member.name, "/"))) {
    m_tree.add_dir(name);
    return skip_data(in, member);
  }
  if (type == Type::Symlink) {
    m_tree.add_symlink(name, member.link);
    return {};
  }
  if (type != Type::File) {
    return skip_data(in, member);  // devices, FIFOs, sockets: nothing a capture needs
  }
  const std::uint64_t declared = member.size;
  m_declared_total += declared;
  if (m_declared_total > m_limits.max_total_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive declares more than {} bytes of members; stopped at "
                                  "{} which declares {} bytes (a tar bomb?)",
                                  m_limits.max_total_bytes, name, declared),
                      m_shown);
  }
  if (declared > m_limits.max_file_bytes) {
    problem(ErrorCode::Refused,
            fmt::format("member {} is {} bytes, over the {}-byte limit for one file", name,
                        declared, m_limits.max_file_bytes),
            name);
    return skip_data(in, member);
  }
  // `name` views m_name, which the stream does not touch: safe across the read.
  ND_TRY_ASSIGN(std::string_view content, in.take(static_cast<std::size_t>(declared)));
  if (content.size() < declared) {
    return broken("truncated tar archive (member data cut short)");
  }
  m_kept_total += content.size();
  if (m_kept_total > m_limits.max_total_bytes) {
    return make_error(ErrorCode::Refused,
                      fmt::format("archive holds more than {} bytes; stopped at {}",
                                  m_limits.max_total_bytes, name),
                      m_shown);
  }
  m_tree.add_file(name, content);
  ND_TRY_ASSIGN(const bool padded, in.skip(padding(declared)));
  (void)padded;
  return {};
}

Status TarLoader::load(ArchiveStream& source) {
  TarStream in(source);
  for (;;) {
    auto more = next(in);
    if (!more.ok()) {
      const Error& error = more.error();
      if (error.code != ErrorCode::Io) {
        return error;  // a limit: the whole archive is refused
      }
      if (m_headers == 0) {
        // Corrupt compressed data says why; anything else just is not tar.
        return make_error(ErrorCode::Unsupported,
                          fmt::format("not a readable tar archive: {}",
                                      m_bad_header ? "no tar header at the start" : error.message),
                          m_shown);
      }
      // A truncated archive: keep what came before, say where it broke.
      problem(ErrorCode::Io,
              fmt::format("archive is truncated or corrupt after {} members: {}", m_entries,
                          error.message),
              m_name);
      break;
    }
    if (!*more || !m_tree.wants_more()) {
      break;
    }
  }
  return {};
}

// The members straight into one tree.
class TreeMembers final : public TarMemberSink {
 public:
  explicit TreeMembers(std::string shown) : m_builder(std::move(shown)) {}
  void add_file(std::string_view path, std::string_view content) override {
    m_builder.add_file(path, content);
  }
  void add_dir(std::string_view path) override { m_builder.add_dir(path); }
  void add_symlink(std::string_view path, std::string_view target) override {
    m_builder.add_symlink(path, target);
  }
  std::unique_ptr<FileTree> finish() { return m_builder.finish(); }

 private:
  ArchiveTreeBuilder m_builder;
};

Result<std::unique_ptr<FileTree>> load_tree(ArchiveStream& source, const std::string& shown,
                                            TreeLimits limits, TarTreeReport* report) {
  TreeMembers members(shown);
  ND_TRY(TarLoader(shown, limits, report, members).load(source));
  return members.finish();
}

}  // namespace

Status read_tar_members(const std::string& archive, TreeLimits limits, TarTreeReport* report,
                        TarMemberSink& members) {
  ND_TRY_ASSIGN(auto source, ArchiveStream::open_file(archive));
  return TarLoader(archive, limits, report, members).load(*source);
}

Result<std::unique_ptr<FileTree>> open_tar_tree(const std::string& path, TreeLimits limits,
                                                TarTreeReport* report) {
  ND_TRY_ASSIGN(auto source, ArchiveStream::open_file(path));
  return load_tree(*source, path, limits, report);
}

Result<std::unique_ptr<FileTree>> open_tar_tree_from_memory(std::string_view data,
                                                            const std::string& name,
                                                            TreeLimits limits,
                                                            TarTreeReport* report) {
  ND_TRY_ASSIGN(auto source, ArchiveStream::open_memory(data, name));
  return load_tree(*source, name, limits, report);
}

}  // namespace netdoctor
