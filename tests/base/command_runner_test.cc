#include "base/command_runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "base/strings.h"

namespace netdoctor {
namespace {

bool process_alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

TEST(LiveCommandRunner, EchoGivesStdoutAndExitZero) {
  LiveCommandRunner runner;
  auto r = runner.run({"echo", "hello", "world"});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->out, "hello world\n");
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_FALSE(r->truncated);
  EXPECT_GT(r->duration_s, 0.0);
}

TEST(LiveCommandRunner, ArgumentsAreNeverInterpretedByAShell) {
  LiveCommandRunner runner;
  auto r = runner.run({"echo", "$HOME;", "`id`", "*"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "$HOME; `id` *\n");
}

TEST(LiveCommandRunner, ExitCodesAndStderrAreKept) {
  LiveCommandRunner runner;
  auto r = runner.run({"sh", "-c", "echo oops >&2; exit 3"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->err, "oops\n");
  auto killed = runner.run({"sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(killed.ok());
  EXPECT_EQ(killed->exit_code, -1);
  EXPECT_EQ(killed->signal, SIGKILL);
}

TEST(LiveCommandRunner, MissingProgramIsNotFound) {
  LiveCommandRunner runner;
  auto r = runner.run({"netdoctor-no-such-tool-xyz", "-v"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_EQ(runner.run({"/nonexistent/bin/tool"}).error().code, ErrorCode::NotFound);
}

TEST(LiveCommandRunner, ExecFailureIsReportedAsAnError) {
  // Executable bit but not a valid program or script: exec itself fails.
  const std::string path = ::testing::TempDir() + "/netdoctor-not-exec";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(
        "\x7f"
        "ELF garbage",
        f);
    std::fclose(f);
  }
  ::chmod(path.c_str(), 0755);
  LiveCommandRunner runner;
  auto r = runner.run({path});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().code, ErrorCode::Timeout);
}

TEST(LiveCommandRunner, TimeoutKillsTheWholeProcessGroup) {
  LiveCommandRunner runner;
  CommandOptions options;
  options.timeout = std::chrono::milliseconds(200);
  const auto start = std::chrono::steady_clock::now();
  // The grandchild prints its pid, then both sleep.
  auto r = runner.run({"sh", "-c", "sleep 30 & echo $!; sleep 30"}, options);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Timeout);
  EXPECT_LT(elapsed, std::chrono::seconds(3));
  const auto pid_text = trim(r.error().context);
  const auto grandchild = parse_i64(pid_text);
  ASSERT_TRUE(grandchild.has_value()) << "partial output: " << r.error().context;
  // Reparented to init (or a subreaper) once killed; give it a moment to be reaped.
  bool alive = true;
  for (int i = 0; i < 100 && alive; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    alive = process_alive(static_cast<pid_t>(*grandchild));
    if (alive) {
      // A zombie not yet reaped by its new parent counts as dead.
      const std::string stat_path = "/proc/" + std::to_string(*grandchild) + "/stat";
      FILE* f = std::fopen(stat_path.c_str(), "r");
      if (f != nullptr) {
        char line[512] = {};
        const bool got = std::fgets(line, sizeof(line), f) != nullptr;
        std::fclose(f);
        const char* close_paren = got ? std::strrchr(line, ')') : nullptr;
        alive = !(close_paren != nullptr && close_paren[2] == 'Z');
      }
    }
  }
  EXPECT_FALSE(alive) << "grandchild " << *grandchild << " survived the timeout";
  // And no zombie of ours is left.
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
}

TEST(LiveCommandRunner, HugeOutputIsCutAtTheCapAndTheProgramKilled) {
  LiveCommandRunner runner;
  CommandOptions options;
  options.max_output_bytes = 100000;
  const auto start = std::chrono::steady_clock::now();
  auto r = runner.run({"yes"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->truncated);
  EXPECT_EQ(r->out.size(), 100000u);
  EXPECT_EQ(r->out.substr(0, 4), "y\ny\n");
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(LiveCommandRunner, StdinDataReachesTheProgram) {
  LiveCommandRunner runner;
  CommandOptions options;
  options.stdin_data = std::string(300000, 'a') + "\n";  // more than a pipe buffer
  auto r = runner.run({"wc", "-c"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(trim(r->out), "300001");
  auto empty = runner.run({"cat"});  // /dev/null: EOF at once, no hang
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->out, "");
}

TEST(LiveCommandRunner, ProgramThatIgnoresStdinDoesNotKillUs) {
  LiveCommandRunner runner;
  CommandOptions options;
  options.stdin_data = std::string(1 << 20, 'x');
  auto r = runner.run({"true"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
}

TEST(FindProgram, SearchesPathAndAcceptsPaths) {
  EXPECT_FALSE(find_program("sh").empty());
  EXPECT_EQ(find_program("/bin/sh"), "/bin/sh");
  EXPECT_TRUE(find_program("netdoctor-no-such-tool-xyz").empty());
}

TEST(FakeCommandRunner, ServesCannedOutputsAndRecordsCommands) {
  FakeCommandRunner fake;
  CommandOutput out;
  out.exit_code = 0;
  out.out = "stats";
  fake.set("ethtool -S eth0", out);
  fake.set_error("ibv_devinfo -v", make_error(ErrorCode::Timeout, "hung"));
  EXPECT_EQ(fake.run({"ethtool", "-S", "eth0"})->out, "stats");
  EXPECT_EQ(fake.run({"ibv_devinfo", "-v"}).error().code, ErrorCode::Timeout);
  EXPECT_EQ(fake.run({"mlnx_qos", "-i", "eth0"}).error().code, ErrorCode::NotFound);
  EXPECT_EQ(fake.commands_ran().size(), 3u);
}

}  // namespace
}  // namespace netdoctor
