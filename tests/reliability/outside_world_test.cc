// The live host through make_live_sample: hung commands are killed with their children at the
// timeout, floods are cut at the cap and not used, and arguments never reach a shell.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "base/command_runner.h"
#include "base/sample_source.h"
#include "tests/reliability/reliability_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;
using std::chrono::steady_clock;

bool process_alive(pid_t pid) {
  if (::kill(pid, 0) != 0) {
    return errno != ESRCH;
  }
  // A zombie waiting for its reaper is dead for our purpose.
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close == std::string::npos || stat.size() < close + 3 || stat[close + 2] != 'Z';
}

TEST(LiveSampleCommand, HungCommandIsKilledAtTheTimeoutWithItsChildren) {
  if (find_program("sh").empty() || find_program("sleep").empty()) {
    GTEST_SKIP() << "needs sh and sleep";
  }
  const std::string dir = make_temp_dir("hang");
  const std::string pid_file = dir + "/child.pid";
  LiveCommandRunner runner;
  CommandOptions options;
  options.timeout = std::chrono::milliseconds(500);
  auto sample = make_live_sample(dir, runner, options, 1.0);
  const auto start = steady_clock::now();
  // The test spells out the script itself: a tool that forks a child and then hangs.
  auto out =
      sample->command({"sh", "-c", "sleep 300 & echo $! > " + pid_file + "; exec sleep 300"});
  const auto elapsed = steady_clock::now() - start;
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::Timeout) << out.error().describe();
  EXPECT_NE(out.error().describe().find("sleep"), std::string::npos) << "the command is not named";
  EXPECT_LT(elapsed, std::chrono::seconds(10));

  const pid_t child = static_cast<pid_t>(std::stol(read_text(pid_file)));
  ASSERT_GT(child, 1);
  const auto deadline = steady_clock::now() + std::chrono::seconds(5);
  while (process_alive(child) && steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const bool alive = process_alive(child);
  if (alive) {
    ::kill(child, SIGKILL);  // do not leave it behind whatever the verdict
  }
  EXPECT_FALSE(alive) << "the hung command's child " << child << " survived the timeout";
}

TEST(LiveSampleCommand, FloodOfOutputIsCutAtTheCapAndNotUsed) {
  if (find_program("yes").empty()) {
    GTEST_SKIP() << "needs yes";
  }
  LiveCommandRunner runner;
  CommandOptions options;
  options.max_output_bytes = 1u << 20;
  options.timeout = std::chrono::seconds(20);
  auto sample = make_live_sample(make_temp_dir("flood"), runner, options, 1.0);
  const auto start = steady_clock::now();
  auto out = sample->command({"yes", "gigabytes of output"});
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(15))
      << "the flood ran to the timeout instead of being cut at the cap";
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::Refused) << out.error().describe();
  EXPECT_NE(out.error().describe().find("yes"), std::string::npos);
}

TEST(LiveSampleCommand, ShellMetacharactersInArgumentsAreNeverInterpreted) {
  if (find_program("echo").empty()) {
    GTEST_SKIP() << "needs echo";
  }
  const std::string dir = make_temp_dir("noshell");
  const std::string marker = dir + "/pwned";
  LiveCommandRunner runner;
  auto sample = make_live_sample(dir, runner, {}, 1.0);
  // An interface name from a hostile bundle or hostlist, as collect would pass it along.
  const std::string hostile =
      "eth0; touch " + marker + " $(touch " + marker + ") `touch " + marker + "` | touch " + marker;
  auto out = sample->command({"echo", hostile});
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_EQ(*out, hostile + "\n");
  EXPECT_FALSE(fs::exists(marker)) << "an argument reached a shell";
}

TEST(LiveSampleCommand, MissingProgramIsNotFoundNotACrash) {
  LiveCommandRunner runner;
  auto sample = make_live_sample(make_temp_dir("missing"), runner, {}, 1.0);
  auto out = sample->command({"netdoctor-no-such-tool-xyz", "--flag"});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::NotFound) << out.error().describe();
}

TEST(LiveSampleFiles, LinksUnderAFakeRootDoNotLeaveIt) {
  const std::string dir = make_temp_dir("liveroot");
  const std::string root = dir + "/root";
  fs::create_directories(root + "/sys/class/net/eth0");
  Canary canary(dir);
  fs::create_symlink(canary.path(), root + "/sys/class/net/eth0/mtu");
  fs::create_directory_symlink("/etc", root + "/sys/class/net/etc");
  LiveCommandRunner runner;
  auto sample = make_live_sample(root, runner, {}, 1.0);
  auto mtu = sample->read_file("/sys/class/net/eth0/mtu");
  ASSERT_FALSE(mtu.ok());
  EXPECT_EQ(mtu.error().code, ErrorCode::Refused);
  auto passwd = sample->read_file("/sys/class/net/etc/passwd");
  EXPECT_FALSE(passwd.ok());
  auto climb = sample->read_file("/../../../../etc/passwd");
  EXPECT_FALSE(climb.ok() && climb->find("root:") != std::string::npos);
  EXPECT_EQ(canary.check(), "");
}

}  // namespace
}  // namespace netdoctor::testing
