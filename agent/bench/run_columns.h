// The columns of a run record, written once: the results store's runs table (store.cpp binds, reads back
// and merges a run by them) and the runs CSV (report.cpp, write_runs_csv: its header and fields) both go
// through run_columns(). A new RunRecord field is one entry there; the store also needs the column in its
// schema and a migration that adds it to older stores (store.cpp, kSchema and kMigrateFrom*), with the
// entry's since_version set to the new schema version.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "agent/bench/run_record.h"

namespace kcraft::bench {

// A column's value as the store binds it: NULL, an integer (unsigned for cycles, tokens and seeds: the store
// keeps every integer as a signed 64-bit one), a real or text.
using RunValue = std::variant<std::nullptr_t, int64_t, uint64_t, double, std::string>;

// How the store reads a column back: as an integer, a real or text (NULL reads as nullptr in each case).
enum class RunColumnType { kInteger, kReal, kText };

struct RunColumn {
  const char* name = "";  // the runs table's column and the CSV header
  RunColumnType type = RunColumnType::kText;
  int since_version = 1;  // the results store's schema version that added the column (store.h)
  bool in_csv = true;     // every column but the kernel (the JSON report has it)
  std::function<RunValue(const RunRecord&)> get;  // the value the store binds
  // Sets the field from the value the store read back. Columns are read back in run_columns()'s order, so
  // a column may depend on one before it (the tuned speedup on the tuned cycles, the compiler baseline on
  // the verdict).
  std::function<void(RunRecord&, const RunValue&)> set;
  std::function<std::string(const RunRecord&)> csv;  // the CSV field; empty: run_value_text(get(run))
};

// Every column of a run, the key's among them, in the CSV's order.
const std::vector<RunColumn>& run_columns();

// A value as CSV text (unquoted): empty for NULL, integers in decimal, reals with 6 significant digits,
// text as it is.
std::string run_value_text(const RunValue& value);
// The column's CSV field of a run (unquoted).
std::string run_csv_text(const RunColumn& column, const RunRecord& run);

}  // namespace kcraft::bench
