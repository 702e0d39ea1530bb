// The kernel library: every passing kernel, searchable by SQLite FTS5 full-text search, so agents can
// see how other tasks were solved on the same platform (docs/agents.md, "The kernel library").
//
// The tables live in the results store's database (agent/bench/store.h creates them with the rest of
// its schema) and can also be a database of their own (`kcraft agent --library FILE`):
//   kernels(id, platform, hw_config, task, config, cycles, agent, language, source, git_commit,
//           description, recorded_at)       one row per distinct passing kernel
//   kernels_fts(task, description, source)  FTS5 index over those rows (rowid = kernels.id)
//
// The benchmark rule: a search made for a scored (task, configuration) never returns a kernel of that
// same task and configuration, on ANY hardware configuration (a kernel for another hardware
// configuration of the same cell is close to the answer, so it counts as a leak), unless the caller
// explicitly allows it, and then every result carries `scored_cell = true` so the run can report it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

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

// What a search is for: the platform, and the cell being scored (never returned unless allowed).
struct SearchRequest {
  std::string platform;
  std::string task, config;  // the scored cell
  std::string query;         // free text; empty: the scored task's name and description
  size_t limit = 3;
  bool allow_scored_cell = false;  // the run asked for it explicitly
};

// Creates the kernel library's tables in an open database (idempotent; used by the results store).
void create_schema(sqlite3* db);
// Inserts one passing kernel; a kernel already stored (same platform, hardware, task, config, agent and
// source) is ignored. Returns whether a row was added. Throws LibraryError.
bool insert_kernel(sqlite3* db, KernelEntry entry);
// The most relevant kernels under the benchmark rule, best first (BM25, ties to fewer cycles), at most
// one per (task, config). Throws LibraryError.
std::vector<KernelEntry> search(sqlite3* db, const SearchRequest& request);

// The FTS5 query for free text: every word quoted (so no text is FTS syntax), any word may match.
std::string fts_query(const std::string& text);

// Documentation retrieval: markdown documents split at their headings, ranked by FTS5 (BM25) against a
// query. Each section keeps its heading path ("platform guide > Memory > DMA").
struct DocSection {
  std::string path;  // document name, then the headings above and of this section, joined by " > "
  std::string text;  // the section's own text (its heading line and body up to the next heading)
};
std::vector<DocSection> split_sections(const std::string& document_name, const std::string& markdown);
// The `limit` best sections for `query` (empty when no word matches). Throws LibraryError.
std::vector<DocSection> search_sections(const std::vector<DocSection>& sections, const std::string& query,
                                        size_t limit);

// A library database file of its own (or a results store's file: the tables are the same).
class KernelLibrary {
 public:
  explicit KernelLibrary(const std::filesystem::path& file);  // creates it if needed
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  bool insert(const KernelEntry& entry) { return insert_kernel(db_, entry); }
  std::vector<KernelEntry> search(const SearchRequest& request) const {
    return library::search(db_, request);
  }
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
};

}  // namespace kcraft::library
