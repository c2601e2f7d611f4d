// The store suite's fixture: every test gets a fresh database file of its own, named after
// its test suite, in a folder of its own (testing::make_temp_dir).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <utility>

#include "store/database.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* suite = ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
    auto db = Database::open(netdoctor::testing::make_temp_dir(suite) + "/nd.db");
    ASSERT_TRUE(db.ok()) << db.error().describe();
    m_db.emplace(std::move(db).value());
  }

  std::optional<Database> m_db;
};

}  // namespace netdoctor::store
