// The streamed .tar.gz and its base64 form: what `collect --out - [--base64]` prints must open
// as a tree again.
#include "collect/stream_writer.h"

#include <gtest/gtest.h>

#include <random>

#include "base/file_tree.h"

namespace netdoctor::collect {
namespace {

TEST(Base64, RoundTripsEveryLengthAndByte) {
  std::mt19937 rng(7);
  for (std::size_t length = 0; length < 70; ++length) {
    std::string bytes;
    for (std::size_t i = 0; i < length; ++i) {
      bytes += static_cast<char>(rng() & 0xFF);
    }
    auto decoded = decode_base64(encode_base64(bytes));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, bytes) << length;
  }
  EXPECT_EQ(encode_base64("Man"), "TWFu");
  EXPECT_EQ(encode_base64("Ma"), "TWE=");
  EXPECT_FALSE(decode_base64("TW!u").ok());
  EXPECT_FALSE(decode_base64("node01: TWFu").ok()) << "a pdsh host prefix is not base64";
}

TEST(Base64Sink, SplitWritesGiveTheSameTextAsOneWriteInShortLines) {
  std::string bytes(1000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<char>(i * 7);
  }
  std::string text;
  Base64Sink sink([&](std::string_view chunk) {
    text.append(chunk);
    return Status{};
  });
  for (std::size_t i = 0; i < bytes.size(); i += 11) {
    ASSERT_TRUE(sink.write(std::string_view(bytes).substr(i, 11)).ok());
  }
  ASSERT_TRUE(sink.finish().ok());
  for (std::size_t start = 0; start < text.size();) {
    const auto end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "ends with a newline";
    EXPECT_LE(end - start, 76u);
    start = end + 1;
  }
  auto decoded = decode_base64(text);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, bytes);
}

TEST(TarGzStream, MembersReadBackThroughTheTarTree) {
  std::string archive;
  auto writer = open_tar_gz_stream_writer(
      [&](std::string_view bytes) {
        archive.append(bytes);
        return Status{};
      },
      "test");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->write_file("hosts/n1/0/captured_at", "1.5\n").ok());
  ASSERT_TRUE((*writer)->write_file("hosts/n1/0/sys/class/net/eth0/mtu", "9000\n").ok());
  EXPECT_FALSE((*writer)->write_file("../x", "no").ok());
  EXPECT_FALSE((*writer)->write_file("/abs", "no").ok());
  ASSERT_TRUE((*writer)->finish().ok());
  auto tree = open_tar_tree_from_memory(archive, "stream");
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  EXPECT_EQ((*tree)->read("hosts/n1/0/captured_at").value_or(""), "1.5\n");
  EXPECT_EQ((*tree)->read("hosts/n1/0/sys/class/net/eth0/mtu").value_or(""), "9000\n");
}

TEST(TarGzStream, SinkFailureIsReported) {
  auto writer = open_tar_gz_stream_writer(
      [](std::string_view) { return Status(make_error(ErrorCode::Io, "pipe closed")); }, "test");
  ASSERT_TRUE(writer.ok());
  Status status = (*writer)->write_file("a", std::string(200'000, 'x'));
  if (status.ok()) {
    status = (*writer)->finish();
  }
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace netdoctor::collect
