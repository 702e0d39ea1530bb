// The kernel library: every passing kernel, searchable by SQLite FTS5 full-text search, so agents can
// see how other tasks were solved on the same platform (docs/agents.md, "The kernel library").
//
// The tables (kernel_table.h) live in a database of their own (`kcraft agent --library FILE`) or in a
// results store's database, which keeps every passing run's kernel in them.
//
// The benchmark rule: a search made for a scored (task, configuration) never returns a kernel of that
// same task and configuration, on ANY hardware configuration (a kernel for another hardware
// configuration of the same cell is close to the answer, so it counts as a leak), unless the caller
// explicitly allows it, and then every result carries `scored_cell = true` so the run can report it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "agent/library/kernel_table.h"

namespace kcraft::library {

// What a search is for: the platform, and the cell being scored (never returned unless allowed).
struct SearchRequest {
  std::string platform;
  std::string task, config;  // the scored cell
  std::string query;         // free text; empty: the scored task's name and description
  size_t limit = 3;
  bool allow_scored_cell = false;  // the run asked for it explicitly
};

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
