// Verifying a change from its before and after diagnoses: which diagnosis counts as "before",
// how evidence is matched between the runs, the verdict, and what verify_change stores.
#include "store/change_verification.h"

#include <gtest/gtest.h>

#include "store/database.h"
#include "tests/store/store_fixture.h"

namespace netdoctor::store {
namespace {

EvidenceRow evidence(std::string probe, std::string signal, std::optional<double> value,
                     std::optional<double> fleet_normal = std::nullopt) {
  return {std::move(probe), std::move(signal), "summary", 1.0, value, fleet_normal, "frames/s"};
}

CauseRow cause(std::string id, std::vector<EvidenceRow> rows) {
  CauseRow row;
  row.id = std::move(id);
  row.title = row.id;
  row.confidence = 0.9;
  row.evidence = std::move(rows);
  return row;
}

DiagnosisRecord record(double at, std::vector<CauseRow> causes,
                       std::string origin = k_origin_diagnose) {
  DiagnosisRecord r;
  r.created_at = at;
  r.origin = std::move(origin);
  r.symptom = "slowdown";
  r.scope = "bundle b.tar.gz";
  r.verdict = causes.empty() ? "healthy" : "root-cause-found";
  r.json = "{}";
  r.causes = std::move(causes);
  return r;
}

TEST(DiagnosisBefore, TheLatestDiagnoseRunAtOrBeforeTheChange) {
  std::vector<DiagnosisRecord> records = {record(10.0, {}), record(20.0, {}), record(30.0, {})};
  records[1].scope = "second";
  EXPECT_EQ(diagnosis_before(records, 25.0)->scope, "second");
  EXPECT_EQ(diagnosis_before(records, 20.0)->scope, "second");  // at the change's time counts
}

TEST(DiagnosisBefore, VerifyRunsAreNotBeforeDiagnoses) {
  std::vector<DiagnosisRecord> records = {record(10.0, {}), record(20.0, {}, k_origin_verify)};
  records[0].scope = "diagnose";
  EXPECT_EQ(diagnosis_before(records, 25.0)->scope, "diagnose");
  EXPECT_FALSE(diagnosis_before({record(5.0, {}, k_origin_verify)}, 25.0).has_value());
  EXPECT_FALSE(diagnosis_before({}, 25.0).has_value());
}

TEST(DiagnosisBefore, WhenEveryRunCameAfterTheChangeTheFirstIsTaken) {
  std::vector<DiagnosisRecord> records = {record(40.0, {}), record(50.0, {})};
  records[0].scope = "first";
  EXPECT_EQ(diagnosis_before(records, 25.0)->scope, "first");
}

TEST(EvidenceFigures, MatchesByProbeAndSignalAndNumbersRepeats) {
  DiagnosisRecord before = record(1.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 900.0),
                                                            evidence("pfc-pause", "storm", 800.0),
                                                            evidence("ecn", "no-marks", 5.0)})});
  DiagnosisRecord after = record(2.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 90.0),
                                                           evidence("pfc-pause", "storm", 80.0)})});
  std::vector<Figure> figures = evidence_figures(before, after);
  ASSERT_EQ(figures.size(), 3u);
  EXPECT_EQ(figures[0].label, "pfc-pause/storm");
  EXPECT_EQ(figures[0].before, 900.0);
  EXPECT_EQ(figures[0].after, 90.0);
  EXPECT_EQ(figures[1].label, "pfc-pause/storm #2");
  EXPECT_EQ(figures[1].after, 80.0);
  EXPECT_EQ(figures[2].label, "ecn/no-marks");
  EXPECT_FALSE(figures[2].after.has_value());  // the finding no longer fires
  EXPECT_EQ(figures[2].unit, "frames/s");
}

TEST(EvidenceFigures, PrefersTheSameCauseThenTheFirstOtherCauseWithTheFinding) {
  DiagnosisRecord before = record(1.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 900.0),
                                                            evidence("drops", "buffer", 70.0)})});
  DiagnosisRecord after =
      record(2.0, {cause("buffer-exhaustion",
                         {evidence("pfc-pause", "storm", 1.0), evidence("drops", "buffer", 60.0)}),
                   cause("lossy-roce", {evidence("drops", "buffer", 50.0)}),
                   cause("pfc-storm", {evidence("pfc-pause", "storm", 300.0)})});
  std::vector<Figure> figures = evidence_figures(before, after);
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].after, 300.0);  // pfc-storm's own, though another cause came first
  EXPECT_EQ(figures[1].after, 60.0);   // moved: the first cause that has it
}

TEST(EvidenceFigures, FindingsWithoutValuesGiveNoFigure) {
  DiagnosisRecord before = record(
      1.0, {cause("mtu-mismatch",
                  {evidence("mtu", "mismatch", std::nullopt), evidence("mtu", "small", 1500.0)})});
  std::vector<Figure> figures = evidence_figures(before, record(2.0, {}));
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].label, "mtu/small");
  EXPECT_TRUE(evidence_figures(record(1.0, {}), before).empty());  // no cause before
}

TEST(EvidenceFigures, BelowTheFleetNormalHigherIsBetter) {
  DiagnosisRecord before =
      record(1.0, {cause("link-degraded", {evidence("link-speed", "slow", 100.0, 400.0),
                                           evidence("pfc-pause", "storm", 900.0, 10.0),
                                           evidence("errors", "fcs", 12.0, 12.0),
                                           evidence("errors", "symbol", 3.0)})});
  std::vector<Figure> figures = evidence_figures(before, record(2.0, {}));
  ASSERT_EQ(figures.size(), 4u);
  EXPECT_FALSE(figures[0].lower_is_better);  // bandwidth-like: below its normal is bad
  EXPECT_TRUE(figures[1].lower_is_better);
  EXPECT_TRUE(figures[2].lower_is_better);  // at its normal: a counter
  EXPECT_TRUE(figures[3].lower_is_better);  // no normal to compare with
}

TEST(AssessChange, CauseGoneIsImprovedEvenWithoutFigures) {
  auto before = record(1.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", std::nullopt)})});
  ChangeAssessment assessment = assess_change(before, record(2.0, {}));
  EXPECT_EQ(assessment.cause_id, "pfc-storm");
  EXPECT_TRUE(assessment.figures.empty());
  EXPECT_EQ(assessment.verdict, ChangeVerdict::Improved);
}

TEST(AssessChange, CauseStillThereIsJudgedByItsFigures) {
  auto before = record(1.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 900.0)})});
  auto worse = record(2.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 2000.0)})});
  auto same = record(2.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 910.0)})});
  auto better = record(2.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 100.0)})});
  EXPECT_EQ(assess_change(before, worse).verdict, ChangeVerdict::Regressed);
  EXPECT_EQ(assess_change(before, same).verdict, ChangeVerdict::NoEffect);
  ChangeAssessment improved = assess_change(before, better);
  EXPECT_EQ(improved.verdict, ChangeVerdict::Improved);
  ASSERT_EQ(improved.figures.size(), 1u);
  EXPECT_EQ(improved.figures[0].after, 100.0);
}

TEST(AssessChange, WithoutACauseBeforeAnyCauseAfterIsARegression) {
  auto found = record(2.0, {cause("mtu-mismatch", {})});
  EXPECT_EQ(assess_change(std::nullopt, found).verdict, ChangeVerdict::Regressed);
  EXPECT_EQ(assess_change(record(1.0, {}), found).verdict, ChangeVerdict::Regressed);
  ChangeAssessment clear = assess_change(std::nullopt, record(2.0, {}));
  EXPECT_EQ(clear.verdict, ChangeVerdict::NoEffect);
  EXPECT_TRUE(clear.cause_id.empty());
}

class VerifyChange : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    ASSERT_FALSE(HasFatalFailure());
    IncidentRepository incidents(*m_db);
    auto stored = incidents.add_diagnosis(
        record(100.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 41000.0, 10.0)})}));
    ASSERT_TRUE(stored.ok()) << stored.error().describe();
    m_incident = stored->incident_id;
    ChangeRepository changes(*m_db);
    auto change = changes.record({m_incident, "nic:node07/mlx5_2", "pfc_watchdog", "off", "on",
                                  "pause storm", 200.0, false});
    ASSERT_TRUE(change.ok()) << change.error().describe();
    m_change = change->id;
  }

  std::int64_t m_incident = 0;
  std::int64_t m_change = 0;
};

TEST_F(VerifyChange, HealthyRerunConfirmsTheCauseAndStoresEverything) {
  auto outcome =
      verify_change(*m_db, m_change, record(300.0, {}), /*symptom_gone=*/true, "new.tgz");
  ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
  EXPECT_EQ(outcome->verdict, ChangeVerdict::Improved);
  EXPECT_EQ(outcome->cause_id, "pfc-storm");
  EXPECT_TRUE(outcome->symptom_gone);
  EXPECT_TRUE(outcome->confirmed);
  ASSERT_EQ(outcome->figures.size(), 1u);
  EXPECT_EQ(outcome->figures[0].before, 41000.0);
  EXPECT_FALSE(outcome->figures[0].after.has_value());
  EXPECT_FALSE(outcome->change.open());
  EXPECT_EQ(outcome->change.verified_at, 300.0);
  EXPECT_EQ(outcome->change.verify_source, "new.tgz");
  EXPECT_EQ(outcome->change.figures.size(), 1u);

  IncidentRepository incidents(*m_db);
  auto records = incidents.diagnoses(m_incident);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 2u);
  const DiagnosisRecord& rerun = records->back();
  EXPECT_EQ(rerun.id, outcome->diagnosis_id);
  EXPECT_EQ(rerun.origin, k_origin_verify);
  EXPECT_EQ(rerun.change_id, m_change);
  auto incident = incidents.get(m_incident);
  ASSERT_TRUE(incident.ok());
  EXPECT_EQ(incident->confirmed_cause, "pfc-storm");
  EXPECT_EQ(incident->confirmed_by_change, m_change);
}

TEST_F(VerifyChange, SymptomStillThereConfirmsNothing) {
  auto rerun = record(300.0, {cause("pfc-storm", {evidence("pfc-pause", "storm", 50000.0, 10.0)})});
  auto outcome = verify_change(*m_db, m_change, rerun, /*symptom_gone=*/false, "new.tgz");
  ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
  EXPECT_EQ(outcome->verdict, ChangeVerdict::Regressed);
  EXPECT_FALSE(outcome->confirmed);
  EXPECT_EQ(outcome->change.verdict, ChangeVerdict::Regressed);
  auto incident = IncidentRepository(*m_db).get(m_incident);
  ASSERT_TRUE(incident.ok());
  EXPECT_TRUE(incident->confirmed_cause.empty());
}

TEST_F(VerifyChange, UnknownOrRolledBackChangesAreRefusedAndNothingIsStored) {
  auto unknown = verify_change(*m_db, 4242, record(300.0, {}), true, "new.tgz");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::NotFound);
  ASSERT_TRUE(ChangeRepository(*m_db).rollback(m_change, 250.0).ok());
  auto rolled = verify_change(*m_db, m_change, record(300.0, {}), true, "new.tgz");
  ASSERT_FALSE(rolled.ok());
  EXPECT_EQ(rolled.error().code, ErrorCode::Refused);
  EXPECT_NE(rolled.error().message.find("rolled back"), std::string::npos);
  EXPECT_EQ(IncidentRepository(*m_db).diagnoses(m_incident)->size(), 1u);
}

}  // namespace
}  // namespace netdoctor::store
