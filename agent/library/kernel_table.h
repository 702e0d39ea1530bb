// The kernel library's tables, in whatever SQLite database holds them: a library file of its own
// (KernelLibrary, library.h) or a results store's database, which creates them beside its own tables:
//   kernels(id, platform, hw_config, task, config, cycles, agent, language, source, git_commit,
//           description, recorded_at)       one row per distinct passing kernel
//   kernels_fts(task, description, source)  FTS5 index over those rows (rowid = kernels.id)
// A database that keeps the library's tables needs only this header: the rows, how to create the tables,
// insert a kernel, read the rows back and copy another database's. Searching them is library.h's.
// Defined in library.cpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

struct sqlite3;

namespace kcraft::library {

class LibraryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct KernelEntry {
  std::string platform, hw_config, task, config;
  uint64_t cycles = 0;
  std::string agent;     // who wrote it: "tuner", "llm:<provider>/<model>", ...
  std::string language;  // KernelLanguage::name ("" = the platform's default)
  std::string source;
  std::string git_commit;
  std::string description;   // the task's description (indexed); filled from the task registry if empty
  std::string recorded_at;   // ISO 8601 UTC; filled with now if empty
  bool scored_cell = false;  // search results only: this is the scored task+configuration (allowed)
};

// The kernels table's columns after id, in KernelEntry's order (SELECT them to read rows back).
inline constexpr const char* kKernelColumns =
    "platform, hw_config, task, config, cycles, agent, language, source, git_commit, description, "
    "recorded_at";

// Creates the kernel library's tables in an open database (idempotent).
void create_schema(sqlite3* db);
// Inserts one passing kernel; a kernel already stored (same platform, hardware, task, config, agent and
// source) is ignored. Returns whether a row was added. Throws LibraryError.
bool insert_kernel(sqlite3* db, KernelEntry entry);
// The SQL that copies the kernels of the database attached as `schema` into main's tables (a kernel main
// already has is kept) and indexes the rows it added, for the caller to execute.
std::string copy_kernels_sql(const std::string& schema);

}  // namespace kcraft::library
