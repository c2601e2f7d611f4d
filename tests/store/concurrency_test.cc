// Nothing lost: real processes, real files. Two writers at once serialize (or one hears
// "busy, retry"); a writer killed with SIGKILL mid-loop leaves every committed record.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <set>
#include <thread>

#include "store/change_repository.h"
#include "store/database.h"
#include "store/incident_repository.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {
namespace {

// What a child reports on its pipe, one fixed-size record per outcome.
enum class Outcome : std::int64_t { Committed = 1, Busy = 2, Refused = 3, Failed = 4 };
struct Report {
  Outcome outcome;
  std::int64_t id;
};

void send(int fd, Report report) {
  // Records are far below PIPE_BUF, so each write is atomic.
  ssize_t written = ::write(fd, &report, sizeof report);
  (void)written;
}

std::vector<Report> drain(int fd) {
  std::vector<Report> reports;
  Report report{};
  while (::read(fd, &report, sizeof report) == static_cast<ssize_t>(sizeof report)) {
    reports.push_back(report);
  }
  return reports;
}

std::int64_t setup_incident(const std::string& path) {
  auto db = Database::open(path);
  EXPECT_TRUE(db.ok());
  IncidentRepository incidents(*db);
  auto id = incidents.open("slowdown", "concurrency test", 1.0);
  EXPECT_TRUE(id.ok());
  return id.value_or(0);
}

NewChange make_change(std::int64_t incident, int n, bool force) {
  NewChange change;
  change.incident_id = incident;
  change.entity = "nic:node01/mlx5_0";
  change.variable = "var" + std::to_string(n);
  change.from = "a";
  change.to = "b";
  change.at = 1000.0 + n;
  change.force = force;
  return change;
}

// Runs in the child: records `count` changes, reports each outcome, never returns.
[[noreturn]] void child_record(const std::string& path, std::int64_t incident, int go_fd,
                               int report_fd, int first, int count, bool force) {
  char go = 0;
  ssize_t got = ::read(go_fd, &go, 1);  // wait until the parent says go: start together
  (void)got;
  auto db = Database::open(path);
  if (!db.ok()) {
    send(report_fd, {Outcome::Failed, 0});
    _exit(1);
  }
  ChangeRepository changes(*db);
  for (int n = first; n < first + count; ++n) {
    auto change = changes.record(make_change(incident, n, force));
    if (change.ok()) {
      send(report_fd, {Outcome::Committed, change->id});
    } else if (is_busy(change.error())) {
      send(report_fd, {Outcome::Busy, 0});
    } else if (change.error().code == ErrorCode::Refused) {
      send(report_fd, {Outcome::Refused, 0});
    } else {
      send(report_fd, {Outcome::Failed, 0});
    }
  }
  _exit(0);
}

struct Children {
  std::vector<pid_t> pids;
  int report_read = -1;
};

Children spawn_two(const std::string& path, std::int64_t incident, int count, bool force) {
  int go[2];
  int report[2];
  EXPECT_EQ(::pipe(go), 0);
  EXPECT_EQ(::pipe(report), 0);
  Children children;
  for (int child = 0; child < 2; ++child) {
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(go[1]);
      ::close(report[0]);
      child_record(path, incident, go[0], report[1], child * 1000, count, force);
    }
    children.pids.push_back(pid);
  }
  ::close(go[0]);
  ::close(report[1]);
  char start[2] = {'g', 'g'};
  EXPECT_EQ(::write(go[1], start, 2), 2);
  ::close(go[1]);
  children.report_read = report[0];
  return children;
}

void wait_all(const Children& children) {
  for (pid_t pid : children.pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
}

std::set<std::int64_t> stored_change_ids(const std::string& path) {
  auto db = Database::open(path);
  EXPECT_TRUE(db.ok());
  auto check = db->integrity_check();
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.value_or("failed"), "ok");
  ChangeRepository changes(*db);
  std::set<std::int64_t> ids;
  for (const Change& change : changes.list().value_or({})) {
    ids.insert(change.id);
  }
  return ids;
}

TEST(StoreConcurrency, TwoProcessesRecordingManyChangesAtOnceLoseNothing) {
  std::string path = netdoctor::testing::make_temp_dir("concurrent") + "/nd.db";
  std::int64_t incident = setup_incident(path);
  Children children = spawn_two(path, incident, 40, /*force=*/true);
  std::vector<Report> reports = drain(children.report_read);
  ::close(children.report_read);
  wait_all(children);
  ASSERT_EQ(reports.size(), 80u);
  std::set<std::int64_t> committed;
  for (const Report& report : reports) {
    EXPECT_TRUE(report.outcome == Outcome::Committed || report.outcome == Outcome::Busy)
        << static_cast<int>(report.outcome);
    if (report.outcome == Outcome::Committed) {
      committed.insert(report.id);
    }
  }
  EXPECT_GT(committed.size(), 0u);
  EXPECT_EQ(stored_change_ids(path), committed);  // no lost write, no phantom
}

TEST(StoreConcurrency, TwoProcessesRecordingTheSameIncidentOneWinsTheOtherIsRefusedOrBusy) {
  std::string path = netdoctor::testing::make_temp_dir("race") + "/nd.db";
  std::int64_t incident = setup_incident(path);
  Children children = spawn_two(path, incident, 1, /*force=*/false);
  std::vector<Report> reports = drain(children.report_read);
  ::close(children.report_read);
  wait_all(children);
  ASSERT_EQ(reports.size(), 2u);
  int committed = 0;
  for (const Report& report : reports) {
    if (report.outcome == Outcome::Committed) {
      ++committed;
    } else {
      EXPECT_TRUE(report.outcome == Outcome::Refused || report.outcome == Outcome::Busy);
    }
  }
  EXPECT_EQ(committed, 1);  // the one-open-change rule held across processes
  EXPECT_EQ(stored_change_ids(path).size(), 1u);
}

TEST(StoreConcurrency, WriterKilledWithSigkillLeavesEveryCommittedRecord) {
  std::string path = netdoctor::testing::make_temp_dir("sigkill") + "/nd.db";
  std::int64_t incident = setup_incident(path);
  int report[2];
  ASSERT_EQ(::pipe(report), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(report[0]);
    auto db = Database::open(path);
    if (!db.ok()) {
      _exit(1);
    }
    ChangeRepository changes(*db);
    IncidentRepository incidents(*db);
    for (int n = 0;; ++n) {
      // Alternate a small write and a large multi-row one, so the kill can land in either.
      DiagnosisRecord record;
      record.incident_id = incident;
      record.created_at = n;
      record.symptom = "slowdown";
      record.scope = "loop";
      record.verdict = "inconclusive";
      record.json = std::string(4096, 'x');
      for (int p = 0; p < 50; ++p) {
        record.probes.push_back({"probe" + std::to_string(p), "ran", "", 1.0});
      }
      if (incidents.add_diagnosis(record).ok()) {
        send(report[1], {Outcome::Refused, 0});  // diagnoses are not counted by id here
      }
      auto change = changes.record(make_change(incident, n, /*force=*/true));
      if (change.ok()) {
        send(report[1], {Outcome::Committed, change->id});
      }
    }
  }
  ::close(report[1]);
  std::set<std::int64_t> committed;
  Report one{};
  while (committed.size() < 30 &&
         ::read(report[0], &one, sizeof one) == static_cast<ssize_t>(sizeof one)) {
    if (one.outcome == Outcome::Committed) {
      committed.insert(one.id);
    }
  }
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  for (const Report& late : drain(report[0])) {  // commits reported just before the kill
    if (late.outcome == Outcome::Committed) {
      committed.insert(late.id);
    }
  }
  ::close(report[0]);
  ASSERT_GE(committed.size(), 30u);
  std::set<std::int64_t> stored = stored_change_ids(path);  // also checks integrity
  for (std::int64_t id : committed) {
    EXPECT_TRUE(stored.count(id) == 1) << "committed change " << id << " lost";
  }
  // The database is still writable after the crash.
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok());
  ChangeRepository changes(*db);
  EXPECT_TRUE(changes.record(make_change(incident, 99999, true)).ok());
}

}  // namespace
}  // namespace netdoctor::store
