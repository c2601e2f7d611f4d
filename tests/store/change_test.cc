#include <gtest/gtest.h>

#include "store/change_repository.h"
#include "store/change_verdict.h"
#include "store/database.h"
#include "store/incident_repository.h"
#include "store/postmortem.h"
#include "tests/store/store_fixture.h"

namespace netdoctor::store {
namespace {

class StoreChange : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    ASSERT_FALSE(HasFatalFailure());
    IncidentRepository incidents(*m_db);
    auto id = incidents.open("slowdown", "bundle pfc-storm.tar.gz", 1'764'662'400.0);
    ASSERT_TRUE(id.ok());
    m_incident = *id;
  }

  NewChange change(const std::string& variable, const std::string& from, const std::string& to,
                   bool force = false) {
    NewChange c;
    c.incident_id = m_incident;
    c.entity = "nic:node07/mlx5_2";
    c.variable = variable;
    c.from = from;
    c.to = to;
    c.why = "pause storm from this NIC";
    c.at = 1'764'662'500.0;
    c.force = force;
    return c;
  }

  std::int64_t m_incident = 0;
};

TEST_F(StoreChange, SecondChangeWhileFirstIsOpenIsRefusedNamingTheOpenOne) {
  ChangeRepository changes(*m_db);
  auto first = changes.record(change("ecn_min_threshold", "150KB", "50KB"));
  ASSERT_TRUE(first.ok()) << first.error().describe();
  EXPECT_TRUE(first->open());
  auto second = changes.record(change("pfc_priorities", "3,4", "3"));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ErrorCode::Refused);
  const std::string& message = second.error().message;
  EXPECT_NE(message.find("#" + std::to_string(first->id)), std::string::npos) << message;
  EXPECT_NE(message.find("ecn_min_threshold"), std::string::npos) << message;
  EXPECT_NE(message.find("unreadable"), std::string::npos) << message;
  EXPECT_NE(message.find("--force"), std::string::npos) << message;
  EXPECT_EQ(changes.list(m_incident)->size(), 1u);
}

TEST_F(StoreChange, ForcedSecondChangeIsRecordedAndNotesWhatItOverrode) {
  ChangeRepository changes(*m_db);
  auto first = changes.record(change("ecn_min_threshold", "150KB", "50KB"));
  ASSERT_TRUE(first.ok());
  auto second = changes.record(change("pfc_priorities", "3,4", "3", /*force=*/true));
  ASSERT_TRUE(second.ok()) << second.error().describe();
  EXPECT_NE(second->forced_note.find("--force"), std::string::npos);
  EXPECT_NE(second->forced_note.find("#" + std::to_string(first->id)), std::string::npos);
  EXPECT_TRUE(first->forced_note.empty());
  // Forcing when nothing is open leaves no note: there was nothing to override.
  ASSERT_TRUE(changes.rollback(first->id, 2.0).ok());
  ASSERT_TRUE(changes.rollback(second->id, 3.0).ok());
  auto third = changes.record(change("mtu", "1500", "9000", /*force=*/true));
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE(third->forced_note.empty());
}

TEST_F(StoreChange, RollbackUnblocksTheNextChangeAndGivesTheReverse) {
  ChangeRepository changes(*m_db);
  auto first = changes.record(change("ecn_min_threshold", "150KB", "50KB"));
  ASSERT_TRUE(first.ok());
  auto rolled = changes.rollback(first->id, 1'764'662'600.0);
  ASSERT_TRUE(rolled.ok());
  EXPECT_FALSE(rolled->open());
  EXPECT_EQ(reverse_change_arguments(*rolled),
            "--entity nic:node07/mlx5_2 --var ecn_min_threshold --from 50KB --to 150KB");
  EXPECT_TRUE(changes.record(change("pfc_priorities", "3,4", "3")).ok());
  auto again = changes.rollback(first->id, 1.0);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::Refused);
}

TEST_F(StoreChange, VerificationStoresFiguresVerdictAndUnblocks) {
  ChangeRepository changes(*m_db);
  auto first = changes.record(change("ecn_min_threshold", "150KB", "50KB"));
  ASSERT_TRUE(first.ok());
  ChangeVerification verification;
  verification.change_id = first->id;
  verification.at = 1'764'663'000.0;
  verification.verdict = ChangeVerdict::Improved;
  verification.source = "healthy.tar.gz";
  verification.figures = {{"pfc-pause rx pause", "frames/s", 41000.0, 200.0, true},
                          {"perftest bw", "Gb/s", 180.0, std::nullopt, false}};
  ASSERT_TRUE(changes.verify(verification).ok());
  auto stored = changes.get(first->id);
  ASSERT_TRUE(stored.ok());
  EXPECT_FALSE(stored->open());
  EXPECT_EQ(stored->verdict, ChangeVerdict::Improved);
  EXPECT_EQ(stored->verify_source, "healthy.tar.gz");
  ASSERT_EQ(stored->figures.size(), 2u);
  EXPECT_EQ(stored->figures[0].before, 41000.0);
  EXPECT_EQ(stored->figures[0].after, 200.0);
  EXPECT_FALSE(stored->figures[1].after.has_value());
  EXPECT_FALSE(stored->figures[1].lower_is_better);
  EXPECT_TRUE(changes.record(change("pfc_priorities", "3,4", "3")).ok());
}

TEST_F(StoreChange, RolledBackChangeCannotBeVerified) {
  ChangeRepository changes(*m_db);
  auto first = changes.record(change("mtu", "1500", "9000"));
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(changes.rollback(first->id, 5.0).ok());
  ChangeVerification verification;
  verification.change_id = first->id;
  Status status = changes.verify(verification);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Refused);
}

TEST_F(StoreChange, ChangesOnAnUnknownOrClosedIncidentAreRefused) {
  ChangeRepository changes(*m_db);
  NewChange orphan = change("mtu", "1500", "9000");
  orphan.incident_id = 4242;
  auto missing = changes.record(orphan);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
  IncidentRepository incidents(*m_db);
  ASSERT_TRUE(incidents.close(m_incident, "pfc-storm", "done", 9.0).ok());
  auto closed = changes.record(change("mtu", "1500", "9000"));
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().code, ErrorCode::Refused);
}

TEST_F(StoreChange, ChangesAreListedPerIncident) {
  ChangeRepository changes(*m_db);
  IncidentRepository incidents(*m_db);
  auto other = incidents.open("timeouts", "hosts node01,node02", 2.0);
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(changes.record(change("mtu", "1500", "9000")).ok());
  NewChange elsewhere = change("ecn", "off", "on");
  elsewhere.incident_id = *other;
  ASSERT_TRUE(changes.record(elsewhere).ok());  // the rule is per incident
  EXPECT_EQ(changes.list()->size(), 2u);
  ASSERT_EQ(changes.list(*other)->size(), 1u);
  EXPECT_EQ(changes.list(*other)->front().variable, "ecn");
}

// Verdict logic from before/after figures.

Figure figure(double before, std::optional<double> after, bool lower_is_better = true) {
  return {"f", "u", before, after, lower_is_better};
}

TEST(ChangeVerdictLogic, CauseGoneAfterTheChangeIsImproved) {
  VerdictInput input{true, false, {figure(100.0, 100.0)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::Improved);
}

TEST(ChangeVerdictLogic, PauseRateDroppingByHalfIsImproved) {
  VerdictInput input{true, true, {figure(41000.0, 20000.0)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::Improved);
}

TEST(ChangeVerdictLogic, BandwidthFallingBeyondThresholdIsRegressed) {
  VerdictInput input{true, true, {figure(390.0, 350.0, /*lower_is_better=*/false)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::Regressed);
}

TEST(ChangeVerdictLogic, MovesWithinThresholdAreNoEffect) {
  VerdictInput input{true, true, {figure(390.0, 380.0, false), figure(100.0, 103.0)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::NoEffect);
}

TEST(ChangeVerdictLogic, AnyRegressionOutweighsAnImprovement) {
  VerdictInput input{true, true, {figure(100.0, 10.0), figure(390.0, 300.0, false)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::Regressed);
}

TEST(ChangeVerdictLogic, CauseAppearingAfterTheChangeIsRegressed) {
  VerdictInput input{false, true, {}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::Regressed);
}

TEST(ChangeVerdictLogic, MissingFiguresGiveNoEffect) {
  VerdictInput input{true, true, {figure(100.0, std::nullopt)}, 0.05};
  EXPECT_EQ(judge_change(input), ChangeVerdict::NoEffect);
}

}  // namespace
}  // namespace netdoctor::store
