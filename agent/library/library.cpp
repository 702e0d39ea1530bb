#include "agent/library/library.h"

#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <ctime>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "agent/common/environment.h"

namespace kcraft::library {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw LibraryError(
      fmt::format("kernel library: {}: {}", what, db != nullptr ? sqlite3_errmsg(db) : "no database"));
}

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK) fail(db, "prepare");
  }
  ~Stmt() { sqlite3_finalize(st_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt& text(int i, const std::string& v) {
    sqlite3_bind_text(st_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& integer(int i, int64_t v) {
    sqlite3_bind_int64(st_, i, v);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail(db_, "query");
    return false;
  }
  std::string col_text(int i) const {
    const auto* p = sqlite3_column_text(st_, i);
    return p != nullptr ? reinterpret_cast<const char*>(p) : "";
  }
  int64_t col_int(int i) const { return sqlite3_column_int64(st_, i); }
  sqlite3_stmt* raw() { return st_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(db, "schema");
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The task's title and description from the registry ("" for a task it does not know: a library may
// hold kernels of tasks this build has not got).
std::string describe_task(const std::string& task) {
  try {
    if (const auto* spec = agent::task_registry().find(task)) return spec->title + ". " + spec->description;
  } catch (const std::exception&) {
  }
  return "";
}

}  // namespace

void create_schema(sqlite3* db) {
  exec(db, R"SQL(
CREATE TABLE IF NOT EXISTS kernels(
  id INTEGER PRIMARY KEY, platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL,
  config TEXT NOT NULL, cycles INTEGER NOT NULL, agent TEXT NOT NULL, language TEXT NOT NULL,
  source TEXT NOT NULL, git_commit TEXT NOT NULL, description TEXT NOT NULL, recorded_at TEXT NOT NULL,
  UNIQUE(platform, hw_config, task, config, agent, source));
CREATE VIRTUAL TABLE IF NOT EXISTS kernels_fts USING fts5(task, description, source);
)SQL");
}

bool insert_kernel(sqlite3* db, KernelEntry e) {
  if (e.platform.empty() || e.task.empty() || e.config.empty() || e.source.empty())
    throw LibraryError("kernel library: a kernel needs a platform, task, configuration and source");
  if (e.description.empty()) e.description = describe_task(e.task);
  if (e.recorded_at.empty()) e.recorded_at = now_utc();
  // The row and its index entry go together: a savepoint nests inside a caller's transaction.
  exec(db, "SAVEPOINT library_insert");
  try {
    static const std::string sql = fmt::format(
        "INSERT OR IGNORE INTO kernels({}) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", kKernelColumns);
    Stmt ins(db, sql.c_str());
    ins.text(1, e.platform).text(2, e.hw_config).text(3, e.task).text(4, e.config);
    ins.integer(5, static_cast<int64_t>(e.cycles)).text(6, e.agent).text(7, e.language).text(8, e.source);
    ins.text(9, e.git_commit).text(10, e.description).text(11, e.recorded_at);
    ins.step();
    const bool added = sqlite3_changes(db) > 0;
    if (added) {
      // Underscores split words in FTS5's tokenizer only if they are separators; index "layer_norm" also
      // as "layer norm" so a query for either finds it (copy_kernels_sql indexes copied rows alike).
      std::string task_words = e.task;
      for (auto& c : task_words)
        if (c == '_') c = ' ';
      Stmt fts(db, "INSERT INTO kernels_fts(rowid, task, description, source) VALUES(?, ?, ?, ?)");
      fts.integer(1, sqlite3_last_insert_rowid(db)).text(2, e.task + " " + task_words).text(3, e.description);
      fts.text(4, e.source).step();
    }
    exec(db, "RELEASE library_insert");
    return added;
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK TO library_insert; RELEASE library_insert", nullptr, nullptr, nullptr);
    throw;
  }
}

std::string copy_kernels_sql(const std::string& schema) {
  // The index entry of a copied row as insert_kernel makes it: the task, then its words.
  return fmt::format(
      "INSERT OR IGNORE INTO main.kernels({0}) SELECT {0} FROM {1}.kernels;\n"
      "INSERT INTO main.kernels_fts(rowid, task, description, source) SELECT k.id, "
      "k.task || ' ' || replace(k.task, '_', ' '), k.description, k.source FROM main.kernels k "
      "WHERE k.id NOT IN (SELECT rowid FROM main.kernels_fts)",
      kKernelColumns, schema);
}

std::string fts_query(const std::string& text) {
  std::string out, word;
  std::set<std::string> seen;
  auto flush = [&] {
    if (!word.empty() && seen.insert(word).second) out += (out.empty() ? "\"" : " OR \"") + word + "\"";
    word.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || (static_cast<unsigned char>(c) & 0x80) != 0)
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

std::vector<KernelEntry> search(sqlite3* db, const SearchRequest& r) {
  if (r.platform.empty() || r.task.empty() || r.config.empty())
    throw LibraryError("kernel library: a search needs the platform and the scored task and configuration");
  std::string text = r.query;
  if (text.empty()) text = r.task + " " + describe_task(r.task);
  const std::string match = fts_query(text);
  if (match.empty()) return {};
  // The rule is in the SQL itself, so no later step can let the scored cell through: with
  // allow_scored_cell = 0 a row of the scored task+config is excluded whatever its hardware configuration.
  Stmt st(db,
          "SELECT k.platform, k.hw_config, k.task, k.config, k.cycles, k.agent, k.language, k.source, "
          "k.git_commit, k.description, k.recorded_at FROM kernels_fts f JOIN kernels k ON k.id = f.rowid "
          "WHERE kernels_fts MATCH ? AND k.platform = ? AND (? OR NOT (k.task = ? AND k.config = ?)) "
          "ORDER BY bm25(kernels_fts, 10.0, 3.0, 1.0), k.cycles, k.id");
  st.text(1, match)
      .text(2, r.platform)
      .integer(3, r.allow_scored_cell ? 1 : 0)
      .text(4, r.task)
      .text(5, r.config);
  std::vector<KernelEntry> out;
  std::set<std::pair<std::string, std::string>> cells;
  while (out.size() < r.limit && st.step()) {
    KernelEntry e{
        st.col_text(0), st.col_text(1), st.col_text(2), st.col_text(3), static_cast<uint64_t>(st.col_int(4)),
        st.col_text(5), st.col_text(6), st.col_text(7), st.col_text(8), st.col_text(9),
        st.col_text(10)};
    if (!cells.insert({e.task, e.config}).second) continue;  // one kernel per cell: the best ranked
    e.scored_cell = e.task == r.task && e.config == r.config;
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<DocSection> split_sections(const std::string& document_name, const std::string& markdown) {
  std::vector<DocSection> out;
  std::vector<std::string> headings;  // headings[i]: the current level-(i+1) heading
  DocSection current{document_name, ""};
  bool in_code = false;
  size_t start = 0;
  while (start < markdown.size()) {
    size_t end = markdown.find('\n', start);
    if (end == std::string::npos) end = markdown.size();
    const std::string line = markdown.substr(start, end - start);
    start = end + 1;
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    size_t level = 0;
    while (!in_code && level < line.size() && line[level] == '#') ++level;
    if (level > 0 && level <= 6 && level < line.size() && line[level] == ' ') {
      if (current.text.find_first_not_of(" \n") != std::string::npos) out.push_back(current);
      headings.resize(level);
      headings[level - 1] = line.substr(level + 1);
      current.path = document_name;
      for (const auto& h : headings)
        if (!h.empty()) current.path += " > " + h;
      current.text.clear();
    }
    current.text += line + "\n";
  }
  if (current.text.find_first_not_of(" \n") != std::string::npos) out.push_back(current);
  return out;
}

std::vector<DocSection> search_sections(const std::vector<DocSection>& sections, const std::string& query,
                                        size_t limit) {
  const std::string match = fts_query(query);
  if (match.empty() || sections.empty()) return {};
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    throw LibraryError("documentation search: cannot open an in-memory database");
  }
  std::vector<DocSection> out;
  try {
    exec(db, "CREATE VIRTUAL TABLE sections USING fts5(path, body)");
    {
      Stmt ins(db, "INSERT INTO sections(rowid, path, body) VALUES(?, ?, ?)");
      for (size_t i = 0; i < sections.size(); ++i) {
        ins.integer(1, static_cast<int64_t>(i)).text(2, sections[i].path).text(3, sections[i].text).step();
        sqlite3_reset(ins.raw());
      }
    }
    // Heading words weigh more than body words: a section named after the query is what was asked.
    Stmt st(
        db,
        "SELECT rowid FROM sections WHERE sections MATCH ? ORDER BY bm25(sections, 5.0, 1.0), rowid LIMIT ?");
    st.text(1, match).integer(2, static_cast<int64_t>(limit));
    while (st.step()) out.push_back(sections[static_cast<size_t>(st.col_int(0))]);
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  sqlite3_close(db);
  return out;
}

KernelLibrary::KernelLibrary(const std::filesystem::path& file) : file_(file) {
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw LibraryError(file.string() + ": cannot open the kernel library: " + why);
  }
  sqlite3_busy_timeout(db_, 30000);
  try {
    create_schema(db_);
  } catch (const LibraryError& e) {
    sqlite3_close(db_);
    throw LibraryError(file.string() + ": " + e.what());
  }
}

KernelLibrary::~KernelLibrary() {
  sqlite3_close(db_);
}

}  // namespace kcraft::library
