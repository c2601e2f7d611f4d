// Numbered schema migrations, recorded in PRAGMA user_version. Migration N takes a database
// at version N-1 to N; version 0 is an empty file. Migrations are never edited once shipped:
// a schema change is a new entry.
#pragma once

#include <string>

#include "base/result.h"

namespace netdoctor::store {

class Database;

int latest_schema_version();

// Applies the migrations after the database's version, up to `target`, each in its own write
// transaction (re-checking the version inside it, so two processes opening an old file at
// once migrate it once). Unsupported when the file is newer than this build.
Status migrate(Database& db, int target);

// The refusal for a database written by a newer netdoctor.
Error newer_schema_error(int found, const std::string& path);

}  // namespace netdoctor::store
