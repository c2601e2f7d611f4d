// Fan-out: launcher argument vectors, and how each host's launcher run is judged and merged.
#include "collect/fanout.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "base/file_tree.h"
#include "base/strings.h"
#include "collect/fanout_limits.h"
#include "collect/fanout_progress.h"
#include "collect/stream_writer.h"

namespace netdoctor::collect {
namespace {

// FakeCommandRunner is not thread-safe; fan-out calls it from several threads.
class LockedRunner final : public CommandRunner {
 public:
  explicit LockedRunner(FakeCommandRunner& inner) : m_inner(inner) {}
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options) override {
    std::lock_guard<std::mutex> guard(m_lock);
    return m_inner.run(argv, options);
  }

 private:
  FakeCommandRunner& m_inner;
  std::mutex m_lock;
};

// What `netdoctor collect --out - --base64 --host <self>` prints for a one-host capture.
std::string capture_text(const std::string& self, const std::string& mtu,
                         const std::string& sminfo = {}) {
  std::string archive;
  auto writer = open_tar_gz_stream_writer(
      [&](std::string_view bytes) {
        archive.append(bytes);
        return Status{};
      },
      "t");
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->write_file("hosts/" + self + "/0/captured_at", "10.0\n").ok());
  EXPECT_TRUE((*writer)->write_file("hosts/" + self + "/0/sys/class/net/e0/mtu", mtu).ok());
  EXPECT_TRUE((*writer)->write_file("bundle.json", "{}").ok());
  if (!sminfo.empty()) {  // an InfiniBand host's capture carries the fabric views too
    EXPECT_TRUE((*writer)->write_file("fabric/0/captured_at", "10.0\n").ok());
    EXPECT_TRUE((*writer)->write_file("fabric/0/sos_commands/infiniband/sminfo", sminfo).ok());
  }
  EXPECT_TRUE((*writer)->finish().ok());
  return encode_base64(archive) + "\n";
}

CommandOutput exited(int code, std::string out, std::string err = {}) {
  CommandOutput output;
  output.exit_code = code;
  output.out = std::move(out);
  output.err = std::move(err);
  return output;
}

// An in-memory sink for merged bundles.
class MemWriter final : public TreeWriter {
 public:
  Status write_file(std::string_view path, std::string_view content) override {
    files[std::string(path)] = std::string(content);
    return {};
  }
  Status finish() override { return {}; }
  std::string describe() const override { return "memory"; }
  std::map<std::string, std::string> files;
};

TEST(LauncherArgv, SshQuotesTheRemoteCommandForItsShell) {
  FanoutOptions options;
  options.launcher = Launcher::Ssh;
  options.collect_args = {"--samples", "3", "--root", "/srv/roots/%h", "--remote-arg", "a b"};
  const auto argv = launcher_argv(options, "node01");
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[0], "ssh");
  EXPECT_EQ(argv[1], "-o");
  EXPECT_EQ(argv[2], "BatchMode=yes");
  EXPECT_EQ(argv[argv.size() - 2], "node01");
  EXPECT_EQ(argv.back(),
            "netdoctor collect --out - --base64 --host node01 --samples 3 --root "
            "/srv/roots/node01 --remote-arg 'a b'");
}

TEST(LauncherArgv, PdshAndSrunTargetOneHost) {
  FanoutOptions options;
  options.launcher = Launcher::Pdsh;
  options.pdsh_rcmd = "exec";
  options.remote_command = {"/opt/nd/bin/netdoctor"};
  EXPECT_EQ(join(launcher_argv(options, "gpu-a001"), " "),
            "pdsh -N -S -R exec -w gpu-a001 /opt/nd/bin/netdoctor collect --out - --base64 --host "
            "gpu-a001");
  options.launcher = Launcher::Srun;
  EXPECT_EQ(join(launcher_argv(options, "gpu-a001"), " "),
            "srun -w gpu-a001 -N1 -n1 -- /opt/nd/bin/netdoctor collect --out - --base64 --host "
            "gpu-a001");
  EXPECT_FALSE(parse_launcher("mpirun").ok());
  // pdsh hands its words to a remote shell: quoted where they need it, '@', '%' and '+' bare.
  options.launcher = Launcher::Pdsh;
  options.collect_args = {"it's", "a@b%c+d"};
  const auto argv = launcher_argv(options, "gpu-a001");
  ASSERT_GE(argv.size(), 2u);
  EXPECT_EQ(argv[argv.size() - 2], "'it'\\''s'");
  EXPECT_EQ(argv.back(), "a@b%c+d");
}

TEST(MergeLauncherOutput, FailuresAreNamedPerCause) {
  MemWriter out;
  EXPECT_TRUE(contains(merge_launcher_output("n1",
                                             exited(255, "",
                                                    "ssh: connect to host n1 "
                                                    "port 22: No route to host\n"),
                                             out)
                           .error,
                       "unreachable"));
  EXPECT_TRUE(contains(
      merge_launcher_output("n1", exited(127, "", "bash: netdoctor: command not found\n"), out)
          .error,
      "command not found"));
  EXPECT_TRUE(contains(
      merge_launcher_output("h2",
                            exited(1, "",
                                   "h2: netdoctor collect: cannot use --root: no such directory\n"
                                   "pdsh@vm: h2: netdoctor exited with exit code 1\n"),
                            out)
          .error,
      "cannot use --root"));
  const Result<CommandOutput> timed_out = make_error(ErrorCode::Timeout, "killed after 300s");
  EXPECT_TRUE(contains(merge_launcher_output("n1", timed_out, out).error, "timed out"));
  EXPECT_TRUE(contains(merge_launcher_output("n1", exited(0, "hello world\n"), out).error,
                       "no capture came back"));
  EXPECT_TRUE(out.files.empty());
}

TEST(FanOut, EveryHostMergedUnderItsListNameAndOneFailureReported) {
  FakeCommandRunner fake;
  FanoutOptions options;
  options.launcher = Launcher::Srun;
  options.parallel = 3;
  const std::vector<std::string> hosts = {"node01", "node02", "node03", "node04"};
  for (const auto& host : hosts) {
    // The host calls itself by its short name; the list name must win.
    fake.set(join(launcher_argv(options, host), " "),
             exited(0, capture_text("self-" + host, host + "\n")));
  }
  fake.set(join(launcher_argv(options, "node03"), " "),
           exited(1, "", "srun: error: Unable to resolve \"node03\"\n"));
  LockedRunner runner(fake);
  MemWriter out;
  std::vector<std::string> progress;
  const auto outcomes =
      fan_out(hosts, options, runner, out,
              [&](const HostOutcome& outcome, std::size_t done, std::size_t total) {
                progress.push_back(outcome.host + (outcome.ok ? " ok " : " failed ") +
                                   std::to_string(done) + "/" + std::to_string(total));
              });
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_TRUE(outcomes[0].ok);
  EXPECT_FALSE(outcomes[2].ok);
  EXPECT_TRUE(contains(outcomes[2].error, "Unable to resolve")) << outcomes[2].error;
  EXPECT_EQ(progress.size(), 4u);
  for (const char* host : {"node01", "node02", "node04"}) {
    EXPECT_EQ(out.files[std::string("hosts/") + host + "/0/sys/class/net/e0/mtu"],
              std::string(host) + "\n");
    EXPECT_EQ(out.files.count(std::string("hosts/") + host + "/0/captured_at"), 1u);
  }
  EXPECT_EQ(out.files.count("hosts/node03/0/captured_at"), 0u);
  EXPECT_EQ(out.files.count("bundle.json"), 0u) << "per-host manifests are not merged";
  EXPECT_EQ(out.files.size(), 6u);
  EXPECT_EQ(fake.commands_ran().size(), 4u);
}

TEST(FanOut, TheSubnetIsSweptOnceFromTheFabricHost) {
  FakeCommandRunner fake;
  FanoutOptions options;
  options.launcher = Launcher::Srun;
  options.parallel = 2;
  options.fabric_host = "node01";
  options.fabric_host_args = {"--fabric"};
  const std::vector<std::string> hosts = {"node01", "node02", "node03"};
  const auto first = remote_argv(options, "node01");
  const auto other = remote_argv(options, "node02");
  EXPECT_EQ(first.back(), "--fabric");
  EXPECT_EQ(std::count(first.begin(), first.end(), "--no-fabric"), 0);
  EXPECT_EQ(other.back(), "--no-fabric");
  for (const auto& host : hosts) {
    // Had a host swept anyway, its views would still not be merged.
    fake.set(join(launcher_argv(options, host), " "),
             exited(0, capture_text(host, "4200\n", "sminfo from " + host + "\n")));
  }
  LockedRunner runner(fake);
  MemWriter out;
  const auto outcomes = fan_out(hosts, options, runner, out, {});
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].ok && outcomes[1].ok && outcomes[2].ok);
  EXPECT_EQ(out.files["fabric/0/sos_commands/infiniband/sminfo"], "sminfo from node01\n");
  EXPECT_EQ(out.files.count("fabric/0/captured_at"), 1u);
  EXPECT_EQ(outcomes[0].files, 4u);  // its host sample and its fabric sample
  EXPECT_EQ(outcomes[1].files, 2u);
}

// Answers every host with its capture after `delay`, except the hosts in `hung`, whose launcher
// is killed at the timeout as the live runner does (a Timeout error after the timeout has
// passed). Counts the outputs handed back and not yet merged (the merge is seen through the
// progress sink, called under fan-out's lock once a host is merged), and the most at once.
class CountingRunner final : public CommandRunner {
 public:
  CountingRunner(std::set<std::string> hung, std::chrono::milliseconds delay)
      : m_hung(std::move(hung)), m_delay(delay) {}
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options) override {
    const std::string host = host_of(argv);
    if (m_hung.count(host) > 0) {
      std::this_thread::sleep_for(options.timeout);
      return make_error(ErrorCode::Timeout, join(argv, " ") + " did not finish and was killed");
    }
    std::this_thread::sleep_for(m_delay);
    CommandOutput output = exited(0, capture_text("self-" + host, host + "\n"));
    std::lock_guard<std::mutex> guard(m_lock);
    ++m_runs;
    m_alive_peak = std::max(m_alive_peak, m_runs - m_merged);
    return output;
  }
  void merged() {
    std::lock_guard<std::mutex> guard(m_lock);
    ++m_merged;
  }
  std::size_t alive_peak() const { return m_alive_peak; }
  std::size_t runs() const { return m_runs; }

 private:
  std::string host_of(const std::vector<std::string>& argv) const {
    for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == "-w") {
        return argv[i + 1];
      }
    }
    return {};
  }
  std::set<std::string> m_hung;
  std::chrono::milliseconds m_delay;
  std::mutex m_lock;
  std::size_t m_runs = 0;
  std::size_t m_merged = 0;
  std::size_t m_alive_peak = 0;
};

// stem01, stem02, ... (`digits` wide).
std::vector<std::string> numbered(const std::string& stem, int count, int digits = 2) {
  std::vector<std::string> hosts;
  for (int i = 1; i <= count; ++i) {
    hosts.push_back(fmt::format("{}{:0{}}", stem, i, digits));
  }
  return hosts;
}

// A progress sink that feeds `counts` and keeps the lines it prints (and tells `runner`, when
// given, that a host was merged).
ProgressSink collecting(FanoutProgress& counts, std::vector<std::string>& lines,
                        CountingRunner* runner = nullptr) {
  return [&counts, &lines, runner](const HostOutcome& outcome, std::size_t, std::size_t) {
    if (runner != nullptr) {
      runner->merged();
    }
    for (auto& line : counts.finished(outcome, 1.0)) {
      lines.push_back(std::move(line));
    }
  };
}

// A slow bundle writer (a busy disk, a big compression level): outputs pile up behind it.
class SlowWriter final : public TreeWriter {
 public:
  Status write_file(std::string_view path, std::string_view content) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return inner.write_file(path, content);
  }
  Status finish() override { return {}; }
  std::string describe() const override { return "slow memory"; }
  MemWriter inner;
};

TEST(FanOut, AHungHostIsReportedAsTimedOutAndLeftOutWhileTheOthersMerge) {
  FanoutOptions options;
  options.launcher = Launcher::Srun;
  options.parallel = 4;
  options.timeout = std::chrono::milliseconds(300);
  const auto hosts = numbered("node", 12);
  CountingRunner runner({"node03"}, std::chrono::milliseconds(5));
  MemWriter out;
  FanoutProgress counts(hosts.size(), 0.0, 0.0);
  std::vector<std::string> lines;
  const auto outcomes = fan_out(hosts, options, runner, out, collecting(counts, lines, &runner));
  ASSERT_EQ(outcomes.size(), 12u);
  EXPECT_FALSE(outcomes[2].ok);
  EXPECT_TRUE(contains(outcomes[2].error, "timed out: no answer within 0.3s")) << outcomes[2].error;
  EXPECT_FALSE(contains(outcomes[2].error, "srun")) << "the reason, not the command line";
  EXPECT_GE(outcomes[2].seconds, 0.3);
  EXPECT_EQ(out.files.count("hosts/node03/0/captured_at"), 0u);
  for (const auto& outcome : outcomes) {
    if (outcome.host != "node03") {
      EXPECT_TRUE(outcome.ok) << outcome.host << ": " << outcome.error;
      EXPECT_EQ(out.files["hosts/" + outcome.host + "/0/sys/class/net/e0/mtu"],
                outcome.host + "\n");
    }
  }
  // The hung host held one slot; the other 11 went through the other three meanwhile.
  EXPECT_EQ(counts.counts_line(), "11/12 hosts done, 1 failed, 0 pending (slowest so far node03 " +
                                      fmt::format("{:.1f}", outcomes[2].seconds) + "s)");
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& line) { return contains(line, "FAILED"); }),
            1);
  ASSERT_EQ(counts.left_out().size(), 1u);
  EXPECT_TRUE(starts_with(counts.left_out()[0], "node03: timed out")) << counts.left_out()[0];
}

TEST(FanOut, OutputsAreMergedAsTheyCompleteNeverMoreThanParallelHeld) {
  FanoutOptions options;
  options.launcher = Launcher::Srun;
  options.parallel = 4;
  const auto hosts = numbered("n", 60, 3);
  // Launchers answer at once and the writer is slow: every worker ends up waiting on the merge.
  CountingRunner runner({}, std::chrono::milliseconds(0));
  SlowWriter out;
  std::size_t runs_at_first_merge = 0;
  const auto outcomes = fan_out(hosts, options, runner, out,
                                [&](const HostOutcome& outcome, std::size_t done, std::size_t) {
                                  EXPECT_TRUE(outcome.ok) << outcome.error;
                                  if (done == 1) {
                                    runs_at_first_merge = runner.runs();
                                  }
                                  runner.merged();
                                });
  EXPECT_EQ(runner.runs(), 60u);
  EXPECT_LE(runner.alive_peak(), 4u) << "held outputs are bounded by --parallel, not the hosts";
  EXPECT_GE(runner.alive_peak(), 2u) << "the workers did run side by side";
  EXPECT_LE(runs_at_first_merge, 4u) << "the first host was merged before the rest were run";
  EXPECT_EQ(out.inner.files.size(), 120u);
}

// Into an archive, each host is unpacked and recompressed on its worker's thread (two at once
// here) and appended as a piece: a hung host and an unreachable one are left out and named,
// the rest read back from the one .tar.gz under the names the host list gave them.
TEST(FanOut, IntoAnArchiveHostsArePiecesCompressedOnTheirThreadsAndTheBundleLoads) {
  FanoutOptions options;
  options.launcher = Launcher::Srun;
  options.parallel = 6;
  options.merge_threads = 2;
  options.timeout = std::chrono::milliseconds(300);
  const auto hosts = numbered("gpu", 20);
  CountingRunner runner({"gpu07"}, std::chrono::milliseconds(2));
  FakeCommandRunner unreachable;
  unreachable.set(join(launcher_argv(options, "gpu13"), " "),
                  exited(255, "", "ssh: connect to host gpu13 port 22: No route to host\n"));
  // gpu13 answers through `unreachable`, every other host through `runner`.
  class Routed final : public CommandRunner {
   public:
    Routed(CommandRunner& most, FakeCommandRunner& one) : m_most(most), m_one(one) {}
    Result<CommandOutput> run(const std::vector<std::string>& argv,
                              const CommandOptions& run_options) override {
      if (std::find(argv.begin(), argv.end(), "gpu13") != argv.end()) {
        std::lock_guard<std::mutex> guard(m_lock);
        return m_one.run(argv, run_options);
      }
      return m_most.run(argv, run_options);
    }

   private:
    CommandRunner& m_most;
    FakeCommandRunner& m_one;
    std::mutex m_lock;
  } routed(runner, unreachable);

  std::string archive;
  auto writer = open_tar_gz_stream_writer(
      [&](std::string_view bytes) {
        archive.append(bytes);
        return Status{};
      },
      "cluster", 0, options.compression_level);
  ASSERT_TRUE(writer.ok());
  FanoutProgress counts(hosts.size(), 0.0, 0.0);
  std::vector<std::string> lines;
  const auto outcomes = fan_out(hosts, options, routed, **writer, collecting(counts, lines));
  ASSERT_TRUE((*writer)->write_file("netdoctor_collect.log", "log\n").ok());
  ASSERT_TRUE((*writer)->finish().ok());

  ASSERT_EQ(outcomes.size(), 20u);
  EXPECT_EQ(counts.counts_line(), "18/20 hosts done, 2 failed, 0 pending (slowest so far gpu07 " +
                                      fmt::format("{:.1f}", outcomes[6].seconds) + "s)");
  const auto left_out = counts.left_out();
  ASSERT_EQ(left_out.size(), 2u);
  const std::string named = join(left_out, "\n");
  EXPECT_TRUE(contains(named, "gpu07: timed out: no answer within 0.3s")) << named;
  EXPECT_TRUE(contains(named,
                       "gpu13: exit 255 (host unreachable or connection refused): ssh: "
                       "connect to host gpu13 port 22: No route to host"))
      << named;
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& line) { return contains(line, "FAILED"); }),
            2);

  auto tree = open_tar_tree_from_memory(archive, "cluster");
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  auto listed = (*tree)->list("hosts");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 18u);
  for (const auto& outcome : outcomes) {
    const auto mtu = (*tree)->read("hosts/" + outcome.host + "/0/sys/class/net/e0/mtu");
    if (outcome.host == "gpu07" || outcome.host == "gpu13") {
      EXPECT_FALSE(outcome.ok);
      EXPECT_FALSE(mtu.ok()) << outcome.host << " is left out of the bundle";
    } else {
      EXPECT_TRUE(outcome.ok) << outcome.host << ": " << outcome.error;
      EXPECT_EQ(outcome.files, 2u);
      EXPECT_EQ(mtu.value_or(""), outcome.host + "\n");
    }
  }
  EXPECT_FALSE((*tree)->read("bundle.json").ok()) << "per-host manifests are not merged";
  EXPECT_EQ((*tree)->read("netdoctor_collect.log").value_or(""), "log\n");
}

TEST(FanoutLimits, ParallelIsLoweredToWhatTheOpenFileLimitAllows) {
  const auto fits = fit_parallel(1024, 20000);
  EXPECT_EQ(fits.parallel, 1024);
  EXPECT_TRUE(fits.note.empty());
  // ulimit -n 1024: (1024 - 64 reserved) / 6 per host.
  const auto lowered = fit_parallel(1024, 1024);
  EXPECT_EQ(lowered.parallel, 160);
  EXPECT_TRUE(contains(lowered.note, "--parallel 1024 lowered to 160")) << lowered.note;
  EXPECT_TRUE(contains(lowered.note, "ulimit -n")) << lowered.note;
  EXPECT_EQ(fit_parallel(0, 1024).parallel, 1);
  EXPECT_EQ(fit_parallel(8, 10).parallel, 1) << "always at least one host at a time";
}

TEST(FanoutProgress, CountsAreRateLimitedAndAddUp) {
  FanoutProgress counts(5, 100.0, 0.5);
  const auto ok = [](const std::string& host, double seconds) {
    HostOutcome outcome;
    outcome.host = host;
    outcome.ok = true;
    outcome.seconds = seconds;
    return outcome;
  };
  HostOutcome hung;
  hung.host = "n4";
  hung.error = "timed out: no answer within 9s, the launcher was killed";
  hung.seconds = 9.0;
  EXPECT_TRUE(counts.finished(ok("n1", 1.5), 100.2).empty()) << "within half a second";
  EXPECT_EQ(
      counts.finished(ok("n2", 2.5), 100.6),
      (std::vector<std::string>{"2/5 hosts done, 0 failed, 3 pending (slowest so far n2 2.5s)"}));
  EXPECT_TRUE(counts.finished(ok("n3", 0.5), 100.7).empty());
  EXPECT_EQ(counts.finished(hung, 100.8),
            (std::vector<std::string>{
                "[4/5] n4: FAILED: timed out: no answer within 9s, the launcher was killed"}));
  EXPECT_EQ(counts.pending(), 1u);
  HostOutcome refused;
  refused.host = "n5";
  refused.error = "exit 255 (host unreachable or connection refused)";
  refused.seconds = 0.1;
  EXPECT_EQ(counts.finished(refused, 200.0).size(), 1u) << "the last counts line is the caller's";
  EXPECT_EQ(counts.counts_line(), "3/5 hosts done, 2 failed, 0 pending (slowest so far n4 9.0s)");
  EXPECT_EQ(counts.left_out(),
            (std::vector<std::string>{"n4: timed out: no answer within 9s, the launcher was killed",
                                      "n5: exit 255 (host unreachable or connection refused)"}));
  EXPECT_EQ(counts.left_out(1),
            (std::vector<std::string>{"n4: timed out: no answer within 9s, the launcher was killed",
                                      "... and 1 more (see netdoctor_collect.log)"}));
}

}  // namespace
}  // namespace netdoctor::collect
