#include "agent/bench/explore.h"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "agent/bench/sweep.h"
#include "tb/common/paths.h"
#include "tb/common/text.h"

namespace kcraft::bench {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string hex(uint64_t value, int digits) {
  return fmt::format("{:0{}x}", value & (digits >= 16 ? ~uint64_t{0} : (uint64_t{1} << (4 * digits)) - 1),
                     digits);
}

// Shell quoting for the commands below (paths may hold spaces).
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command with its output in `log`; returns its exit status.
int run_logged(const std::string& command, const fs::path& log) {
  const int status = std::system((command + " > " + quote(log.string()) + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// A setting as a name part of letters and digits: the key in lower case, or the initials of a long
// multi-word one ("MLEN=8" -> "mlen8", "dram_latency_cycles=40" -> "dlc40"), then the value ("1.5" ->
// "1p5", "-2" -> "m2"). The settings themselves are in the variant's file and every report.
std::string name_part(const std::string& key, const std::string& value) {
  std::string s;
  const bool initials = key.size() > 8 && key.find('_') != std::string::npos;
  for (size_t i = 0; i < key.size(); ++i) {
    const bool word_start = i == 0 || key[i - 1] == '_';
    if (std::isalnum(static_cast<unsigned char>(key[i])) && (!initials || word_start))
      s += static_cast<char>(std::tolower(key[i]));
  }
  for (char c : value) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(c));
    else if (c == '.')
      s += 'p';
    else if (c == '-')
      s += 'm';
  }
  return s;
}

// The data root the sweep's workers see: the current root, except that rtl/<platform>/configs holds the
// variants' files too and rtl/<platform>/models their plugins (tb/common/hw_variants.h).
fs::path make_data_root(const fs::path& where, const std::string& platform,
                        const std::vector<Variant>& variants,
                        const std::map<std::string, fs::path>& plugins) {
  const fs::path source = kcraft::root();
  fs::remove_all(where);
  const fs::path rtl = where / "rtl", mine = rtl / platform;
  fs::create_directories(mine / "configs");
  fs::create_directories(mine / "models");
  for (const auto& e : fs::directory_iterator(source)) {
    if (e.path().filename() != "rtl") fs::create_symlink(fs::absolute(e.path()), where / e.path().filename());
  }
  for (const auto& e : fs::directory_iterator(source / "rtl")) {
    if (e.path().filename() != platform)
      fs::create_symlink(fs::absolute(e.path()), rtl / e.path().filename());
  }
  for (const auto& e : fs::directory_iterator(source / "rtl" / platform)) {
    const auto name = e.path().filename();
    if (name != "configs" && name != "models") fs::create_symlink(fs::absolute(e.path()), mine / name);
  }
  // The platform's own configurations stay: a runtime-only variant runs on the build of the one whose
  // build parameters it shares.
  for (const auto& e : fs::directory_iterator(source / "rtl" / platform / "configs")) {
    if (e.path().extension() == ".yaml") fs::copy_file(e.path(), mine / "configs" / e.path().filename());
  }
  for (const auto& v : variants) {
    std::ofstream(mine / "configs" / (v.name + ".yaml"), std::ios::binary) << v.yaml;
  }
  for (const auto& [name, plugin] : plugins) fs::create_symlink(plugin, mine / "models" / (name + ".so"));
  return where;
}

std::string cell_name(const RunRecord& r) {
  return r.key.task + "/" + r.key.config;
}

}  // namespace

std::string Variant::settings_text() const {
  std::string s;
  for (const auto& [k, v] : settings) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s;
}

std::string ParameterValues::text() const {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

ParameterValues parse_parameter_values(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ExploreError("--set expects NAME=VALUE[,VALUE...], got '" + text + "'");
  ParameterValues p;
  p.names = split(text.substr(0, eq), ',');
  if (p.names.empty()) throw ExploreError("--set expects NAME=VALUE[,VALUE...], got '" + text + "'");
  std::string value;
  std::istringstream in(text.substr(eq + 1));
  while (std::getline(in, value, ',')) {
    if (value.empty()) throw ExploreError("--set " + p.text() + ": an empty value in '" + text + "'");
    if (std::find(p.values.begin(), p.values.end(), value) != p.values.end())
      throw ExploreError("--set " + p.text() + ": " + value + " is given twice");
    p.values.push_back(value);
  }
  if (p.values.empty()) throw ExploreError("--set " + p.text() + ": no values in '" + text + "'");
  return p;
}

std::vector<Variant> make_variants(const std::string& platform, const HwConfig& base,
                                   const std::string& base_yaml, const std::vector<ParameterValues>& sets,
                                   const std::vector<HwConfig>& builtin) {
  if (sets.empty()) throw ExploreError("no --set: name at least one parameter to vary");
  std::set<std::string> seen;
  for (const auto& s : sets) {
    for (const auto& name : s.names) {
      if (!seen.insert(name).second) throw ExploreError("--set " + name + " is given twice");
      if (!base.build.count(name) && !base.runtime.count(name)) {
        std::string build, runtime;
        for (const auto& [k, v] : base.build) build += (build.empty() ? "" : ", ") + k;
        for (const auto& [k, v] : base.runtime) runtime += (runtime.empty() ? "" : ", ") + k;
        throw ExploreError(fmt::format("--set {}: not a parameter of {}/{} (build: {}; runtime: {})", name,
                                       platform, base.name, build, runtime));
      }
    }
  }
  std::vector<Variant> variants;
  std::vector<size_t> index(sets.size(), 0);
  while (true) {
    Variant v;
    for (size_t i = 0; i < sets.size(); ++i) {
      for (const auto& name : sets[i].names) v.settings.emplace_back(name, sets[i].values[index[i]]);
    }
    YAML::Node root = YAML::Load(base_yaml);
    for (const auto& [k, value] : v.settings) root[base.build.count(k) ? "build" : "runtime"][k] = value;
    root["description"] = "variant of " + base.name + ": " + v.settings_text();
    root["name"] = "variant";  // replaced below, once the parameters are known to be valid
    YAML::Emitter out;
    out << root;
    // The loader's checks, with the parameters in the file name so that its message names them.
    try {
      v.config = parse_hw_config(out.c_str(), fmt::format("{} variant ({})", platform, v.settings_text()));
    } catch (const ConfigError& e) {
      throw ExploreError(e.what());
    }
    const nlohmann::json params = {{"build", v.config.build}, {"runtime", v.config.runtime}};
    const uint64_t hash = stable_hash(platform + "\n" + params.dump());
    std::string readable;
    for (const auto& [k, value] : v.settings) readable += (readable.empty() ? "" : "_") + name_part(k, value);
    if (readable.size() > 40) readable.resize(40);
    v.name = readable + "_" + hex(hash, 8);
    v.build_hash = hex(stable_hash(nlohmann::json(v.config.build).dump()), 16);
    root["name"] = v.name;
    YAML::Emitter named;
    named << root;
    v.yaml = std::string(named.c_str()) + "\n";
    v.config.name = v.name;
    v.needs_build = std::none_of(builtin.begin(), builtin.end(),
                                 [&](const HwConfig& b) { return b.build == v.config.build; });
    variants.push_back(std::move(v));
    size_t i = sets.size();
    while (i > 0 && ++index[i - 1] == sets[i - 1].values.size()) index[--i] = 0;
    if (i == 0) break;
  }
  return variants;
}

std::vector<bool> pareto_front(const std::vector<std::pair<double, double>>& points) {
  std::vector<bool> front(points.size(), true);
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = 0; j < points.size() && front[i]; ++j) {
      const auto& a = points[j];
      const auto& b = points[i];
      if (j != i && a.first <= b.first && a.second <= b.second && (a.first < b.first || a.second < b.second))
        front[i] = false;
    }
  }
  return front;
}

nlohmann::json variant_build_info(const std::string& platform) {
  try {
    return tb::variant_build_info(platform);
  } catch (const std::invalid_argument& e) {
    throw ExploreError(e.what());
  }
}

VariantBuild build_variant(const std::string& platform, const Variant& v, const nlohmann::json& info,
                           unsigned jobs) {
  // One plugin per set of build parameters (variants that differ in runtime settings share it).
  tb::VariantPluginRequest request;
  request.platform = platform;
  request.model = tb::variant_model_name(v.config.build);
  request.build = v.config.build;
  request.jobs = jobs;
  request.label = fmt::format("hardware variant {} ({})", v.name, v.settings_text());
  const auto built = tb::build_variant_plugin(request, info);
  return VariantBuild{built.plugin, built.rebuilt, built.seconds};
}

namespace {

// The base configuration of an exploration, its file's text, and the configurations this binary has
// Verilated builds of. Throws ExploreError naming the known configurations, or the loader's error.
void load_base(const std::string& platform, const std::string& name, const nlohmann::json& info,
               HwConfig& base, std::string& base_yaml, std::vector<HwConfig>& builtin) {
  const fs::path configs = hw_config_dir(platform);
  const fs::path base_file = configs / (name + ".yaml");
  if (!fs::exists(base_file)) {
    std::string names;
    for (const auto& e : fs::directory_iterator(configs)) {
      if (e.path().extension() == ".yaml") names += (names.empty() ? "" : ", ") + e.path().stem().string();
    }
    throw ExploreError("--base " + name + ": no configuration of that name in " + configs.string() + " (" +
                       names + ")");
  }
  try {
    base = load_hw_config(base_file);
    base_yaml = tb::read_file(base_file);
    for (const auto& n : split(info["builtin_configs"].get<std::string>(), ';')) {
      if (fs::exists(configs / (n + ".yaml"))) builtin.push_back(load_hw_config(configs / (n + ".yaml")));
    }
  } catch (const ConfigError& e) {
    throw ExploreError(e.what());
  }
}

// The synthesis cache's file of a variant (its build parameters and the RTL).
fs::path synthesis_file(const std::string& platform, const Variant& v, const nlohmann::json& info) {
  std::string rtl;
  for (const auto& f : split(info["rtl_sources"].get<std::string>(), ';')) rtl += tb::read_file(f);
  return variant_cache_root() / platform /
         ("synth-" + v.build_hash + "-" + hex(stable_hash(rtl), 8) + ".json");
}

}  // namespace

std::vector<fs::path> synthesis_cache_files(const std::string& platform, const std::string& base_name,
                                            const ParameterValues& set) {
  const auto info = variant_build_info(platform);
  HwConfig base;
  std::string base_yaml;
  std::vector<HwConfig> builtin;
  load_base(platform, base_name, info, base, base_yaml, builtin);
  std::vector<fs::path> out;
  for (const auto& v : make_variants(platform, base, base_yaml, {set}, builtin))
    out.push_back(synthesis_file(platform, v, info));
  return out;
}

std::vector<std::optional<uint64_t>> cached_cells(const std::string& platform, const std::string& base_name,
                                                  const ParameterValues& set) {
  std::vector<std::optional<uint64_t>> out;
  for (const auto& file : synthesis_cache_files(platform, base_name, set)) {
    if (fs::exists(file)) {
      out.push_back(nlohmann::json::parse(tb::read_file(file)).at("cells").get<uint64_t>());
    } else {
      out.push_back(std::nullopt);
    }
  }
  return out;
}

std::vector<std::optional<uint64_t>> synthesized_cells(const std::string& platform,
                                                       const std::string& base_name,
                                                       const ParameterValues& set, std::string& error) {
  const auto info = variant_build_info(platform);
  HwConfig base;
  std::string base_yaml;
  std::vector<HwConfig> builtin;
  load_base(platform, base_name, info, base, base_yaml, builtin);
  std::vector<std::optional<uint64_t>> out;
  for (const auto& v : make_variants(platform, base, base_yaml, {set}, builtin)) {
    const auto size = synthesize_variant(platform, v, info, error);
    out.push_back(size ? std::optional<uint64_t>(size->cells) : std::nullopt);
  }
  return out;
}

std::optional<SynthesisSize> synthesize_variant(const std::string& platform, const Variant& v,
                                                const nlohmann::json& info, std::string& error) {
  const auto sources = info["rtl_sources"].get<std::string>();
  // The size depends on the RTL and the build parameters only: runtime-only variants share it.
  const fs::path dir = variant_cache_root() / platform;
  const fs::path result_file = synthesis_file(platform, v, info);
  const std::string key = result_file.stem().string();
  if (fs::exists(result_file)) {
    const auto j = nlohmann::json::parse(tb::read_file(result_file));
    return SynthesisSize{j.at("cells"), j.at("memories"), j.at("seconds"), true};
  }
  fs::create_directories(dir);
  const fs::path yaml = dir / (key + ".yaml"), out = dir / (key + ".out"), log = dir / (key + ".log");
  std::ofstream(yaml, std::ios::binary) << v.yaml;
  const auto script = fs::path(info["source_dir"].get<std::string>()) / "scripts" / "synth.sh";
  const int status =
      run_logged(fmt::format("bash {} {} {} --sources {} --log {}", quote(script.string()), platform,
                             quote(yaml.string()), quote(sources), quote(log.string())),
                 out);
  const std::string text = tb::read_file(out);
  static const std::regex cells_re(R"((\d+) cells \((\d+) of them memories\), (\d+) s)");
  std::smatch m;
  if (status != 0 || !std::regex_search(text, m, cells_re)) {
    error = fmt::format("synthesis of {} ({}) failed: {}", v.name, v.settings_text(),
                        text.empty() ? "no output" : split(text, '\n').front());
    return std::nullopt;
  }
  SynthesisSize size{std::stoull(m[1].str()), std::stoull(m[2].str()), std::stod(m[3].str()), false};
  std::ofstream(result_file) << nlohmann::json{
      {"cells", size.cells},
      {"memories", size.memories},
      {"seconds", size.seconds}}.dump();
  return size;
}

Exploration run_exploration(const ExploreOptions& o, const tasks::TaskRegistry& registry,
                            std::ostream& progress_out) {
  const auto start = std::chrono::steady_clock::now();
  const auto info = variant_build_info(o.platform);
  HwConfig base;
  std::string base_yaml;
  std::vector<HwConfig> builtin;
  load_base(o.platform, o.base, info, base, base_yaml, builtin);
  const auto variants = make_variants(o.platform, base, base_yaml, o.sets, builtin);

  Exploration e;
  e.platform = o.platform;
  e.base = o.base;
  for (const auto& s : o.sets) e.parameters.insert(e.parameters.end(), s.names.begin(), s.names.end());
  e.results = o.results;
  std::map<std::string, fs::path> plugins;
  std::map<std::string, VariantBuild> builds;
  std::map<std::string, VariantBuild> by_build_hash;  // variants with the same build parameters share one
  for (const auto& v : variants) {
    if (!v.needs_build) continue;
    if (auto same = by_build_hash.find(v.build_hash); same != by_build_hash.end()) {
      plugins[v.name] = same->second.plugin;
      builds[v.name] = VariantBuild{same->second.plugin, false, 0};  // the plugin built for the other one
      continue;
    }
    progress_out << "variant " << v.name << " (" << v.settings_text() << "): its own Verilated build\n"
                 << std::flush;
    auto b = build_variant(o.platform, v, info, o.jobs);
    by_build_hash[v.build_hash] = b;
    progress_out << "variant " << v.name << ": "
                 << (b.rebuilt ? fmt::format("built in {:.0f} s", b.seconds) : std::string("cached build"))
                 << "\n";
    plugins[v.name] = b.plugin;
    builds[v.name] = b;
  }
  fs::create_directories(fs::absolute(o.results).parent_path());
  e.data_root = fs::absolute(o.results).parent_path() / (o.results.stem().string() + ".root");
  make_data_root(e.data_root, o.platform, variants, plugins);
  kcraft::set_root(e.data_root);  // this process's platforms and the workers both see the variants

  SweepOptions s;
  s.filters.platforms = {o.platform};
  for (const auto& v : variants) s.filters.hw_configs.push_back(o.platform + "/" + v.name);
  s.filters.tasks = o.tasks;
  s.filters.configs = o.configs;
  s.filters.agents = o.agents;
  s.jobs = o.jobs;
  s.db = o.results;
  s.transcripts = "none";
  s.job_timeout_seconds = o.job_timeout_seconds;
  s.progress = o.progress;
  s.command_line = o.command_line;
  s.tuned_baselines = TunedBaselineMode::kNone;  // speedups are not what an exploration compares
  SweepResult sweep;
  try {
    sweep = run_sweep(s, registry, progress_out);
  } catch (const ConfigError& err) {
    throw ExploreError(err.what());  // a variant the platform itself refuses (its configuration checks)
  } catch (const std::invalid_argument& err) {
    throw ExploreError(err.what());
  }
  e.interrupted = sweep.interrupted;

  for (const auto& v : variants) {
    VariantResult r;
    r.variant = v;
    if (auto it = builds.find(v.name); it != builds.end()) r.build = it->second;
    for (const auto& rec : sweep.records) {
      if (rec.key.hw_config != v.name) continue;
      r.runs.push_back(rec);
      if (!rec.correct()) {
        ++r.failed;
        continue;
      }
      const auto cell = cell_name(rec);
      if (!r.best_cycles.count(cell) || rec.cycles < r.best_cycles[cell]) {
        r.best_cycles[cell] = rec.cycles;
        r.best_utilization[cell] = rec.utilization;
      }
    }
    r.passed = r.best_cycles.size();
    for (const auto& c : sweep.plan.unsupported) {
      if (c.hw_config == v.name) r.unsupported.push_back(c);
    }
    if (o.synthesis) r.size = synthesize_variant(o.platform, v, info, r.synth_error);
    e.variants.push_back(std::move(r));
  }
  // The geomean is over the cells every variant ran correctly, so that variants compare like with like.
  if (!e.variants.empty()) {
    for (const auto& entry : e.variants.front().best_cycles) {
      const auto& cell = entry.first;  // named, not a structured binding: lambdas capture those from C++20
      if (std::all_of(e.variants.begin(), e.variants.end(),
                      [&](const VariantResult& r) { return r.best_cycles.count(cell) > 0; }))
        e.cells.push_back(cell);
    }
  }
  for (auto& r : e.variants) {
    if (e.cells.empty()) continue;
    double log_sum = 0, util = 0;
    for (const auto& cell : e.cells) {
      log_sum += std::log(static_cast<double>(std::max<uint64_t>(1, r.best_cycles[cell])));
      util += r.best_utilization[cell];
    }
    r.geomean_cycles = std::exp(log_sum / static_cast<double>(e.cells.size()));
    r.mean_utilization = util / static_cast<double>(e.cells.size());
  }
  std::vector<std::pair<double, double>> points;
  std::vector<size_t> which;
  for (size_t i = 0; i < e.variants.size(); ++i) {
    const auto& r = e.variants[i];
    if (r.size && r.geomean_cycles) {
      points.emplace_back(static_cast<double>(r.size->cells), *r.geomean_cycles);
      which.push_back(i);
    }
  }
  const auto front = pareto_front(points);
  for (size_t k = 0; k < which.size(); ++k) e.variants[which[k]].pareto = front[k];
  e.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

// ---- reports

namespace {

std::string setting_of(const Variant& v, const std::string& name) {
  for (const auto& [k, value] : v.settings) {
    if (k == name) return value;
  }
  return "";
}

std::string build_text(const VariantResult& r) {
  if (!r.build) return "runtime only";
  return r.build->rebuilt ? fmt::format("built, {:.0f} s", r.build->seconds) : "built (cached)";
}

// Why a variant's run is not in its numbers: the verdict and the first line of the error, if any.
std::string failure_text(const RunRecord& r) {
  std::string why = r.verdict;
  if (!r.error.empty()) why += ": " + split(r.error, '\n').front();
  return why;
}

// Task configurations the variant was asked to run: planned ones and refused ones.
size_t cell_count(const VariantResult& r) {
  std::set<std::string> cells;
  for (const auto& run : r.runs) cells.insert(cell_name(run));
  for (const auto& c : r.unsupported) cells.insert(c.task + "/" + c.config);
  return std::max(cells.size(), r.passed);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string exploration_text(const Exploration& e) {
  std::ostringstream out;
  out << fmt::format(
      "explore {} (base {}): {} variants; geomean over {} task configurations correct on every "
      "variant\n\n",
      e.platform, e.base, e.variants.size(), e.cells.size());
  size_t name_width = 7;
  for (const auto& r : e.variants) name_width = std::max(name_width, r.variant.name.size());
  out << fmt::format("{:<{}}", "variant", name_width);
  for (const auto& p : e.parameters) out << fmt::format("  {:>{}}", p, std::max<size_t>(6, p.size()));
  out << fmt::format("  {:<16}  {:>10}  {:>14}  {:>11}  {:>7}  {}\n", "build", "yosys cells",
                     "geomean cycles", "utilisation", "correct", "Pareto");
  for (const auto& r : e.variants) {
    out << fmt::format("{:<{}}", r.variant.name, name_width);
    for (const auto& p : e.parameters)
      out << fmt::format("  {:>{}}", setting_of(r.variant, p), std::max<size_t>(6, p.size()));
    out << fmt::format("  {:<16}  {:>10}  {:>14}  {:>11}  {:>7}  {}\n", build_text(r),
                       r.size ? std::to_string(r.size->cells) : "-",
                       r.geomean_cycles ? fmt::format("{:.0f}", *r.geomean_cycles) : "-",
                       r.mean_utilization ? fmt::format("{:.1f}%", 100 * *r.mean_utilization) : "-",
                       fmt::format("{}/{}", r.passed, cell_count(r)), r.pareto ? "*" : "");
  }
  // Cycles per task configuration, variants as columns.
  std::set<std::string> cells;
  for (const auto& r : e.variants) {
    for (const auto& [cell, c] : r.best_cycles) cells.insert(cell);
  }
  if (!cells.empty()) {
    out << "\ncycles per task configuration (the fewest of a correct run):\n";
    out << fmt::format("{:<24}", "task/config");
    for (size_t i = 0; i < e.variants.size(); ++i) out << fmt::format("  {:>12}", fmt::format("v{}", i + 1));
    out << "\n";
    for (const auto& cell : cells) {
      out << fmt::format("{:<24}", cell);
      for (const auto& r : e.variants) {
        auto it = r.best_cycles.find(cell);
        out << fmt::format("  {:>12}", it == r.best_cycles.end() ? "-" : std::to_string(it->second));
      }
      out << "\n";
    }
    for (size_t i = 0; i < e.variants.size(); ++i)
      out << fmt::format("  v{} = {} ({})\n", i + 1, e.variants[i].variant.name,
                         e.variants[i].variant.settings_text());
  }
  // Nothing is skipped silently: every cell without a correct kernel says why.
  std::vector<std::string> invalid;
  for (const auto& r : e.variants) {
    for (const auto& c : r.unsupported)
      invalid.push_back(
          fmt::format("  {} {}/{}: unsupported: {}", r.variant.name, c.task, c.config, c.reason));
    for (const auto& run : r.runs) {
      if (!run.correct())
        invalid.push_back(fmt::format("  {} {}/{} {}: {}", r.variant.name, run.key.task, run.key.config,
                                      run.key.agent, failure_text(run)));
    }
    if (!r.synth_error.empty()) invalid.push_back("  " + r.synth_error);
  }
  if (!invalid.empty()) {
    out << "\nnot valid on a variant (not in its numbers):\n";
    for (const auto& line : invalid) out << line << "\n";
  }
  if (std::none_of(e.variants.begin(), e.variants.end(),
                   [](const VariantResult& r) { return r.size.has_value(); }))
    out << "\nno synthesis sizes (--no-synth): no Pareto front\n";
  out << fmt::format("\nresults: {} ({:.0f} s)\n", e.results.string(), e.wall_seconds);
  return out.str();
}

nlohmann::json exploration_json(const Exploration& e) {
  nlohmann::json j = {{"platform", e.platform},         {"base", e.base},
                      {"parameters", e.parameters},     {"cells", e.cells},
                      {"results", e.results.string()},  {"data_root", e.data_root.string()},
                      {"wall_seconds", e.wall_seconds}, {"interrupted", e.interrupted}};
  j["variants"] = nlohmann::json::array();
  for (const auto& r : e.variants) {
    nlohmann::json v = {{"name", r.variant.name},
                        {"settings", nlohmann::json::object()},
                        {"build", r.variant.config.build},
                        {"runtime", r.variant.config.runtime},
                        {"needs_build", r.variant.needs_build},
                        {"correct_cells", r.passed},
                        {"failed_runs", r.failed},
                        {"pareto", r.pareto},
                        {"cycles", r.best_cycles},
                        {"utilization", r.best_utilization}};
    for (const auto& [k, value] : r.variant.settings) v["settings"][k] = value;
    v["built"] = r.build ? nlohmann::json{{"rebuilt", r.build->rebuilt}, {"seconds", r.build->seconds}}
                         : nlohmann::json(nullptr);
    v["yosys_cells"] = r.size ? nlohmann::json(r.size->cells) : nlohmann::json(nullptr);
    v["yosys_memories"] = r.size ? nlohmann::json(r.size->memories) : nlohmann::json(nullptr);
    if (!r.synth_error.empty()) v["synthesis_error"] = r.synth_error;
    v["geomean_cycles"] = r.geomean_cycles ? nlohmann::json(*r.geomean_cycles) : nlohmann::json(nullptr);
    v["mean_utilization"] =
        r.mean_utilization ? nlohmann::json(*r.mean_utilization) : nlohmann::json(nullptr);
    v["invalid"] = nlohmann::json::array();
    for (const auto& c : r.unsupported)
      v["invalid"].push_back(
          {{"task", c.task}, {"config", c.config}, {"why", "unsupported"}, {"reason", c.reason}});
    for (const auto& run : r.runs) {
      if (!run.correct())
        v["invalid"].push_back({{"task", run.key.task},
                                {"config", run.key.config},
                                {"agent", run.key.agent},
                                {"why", run.verdict},
                                {"reason", run.error}});
    }
    j["variants"].push_back(std::move(v));
  }
  return j;
}

void write_exploration_csv(const Exploration& e, const fs::path& file) {
  std::ofstream out(file, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  // One row per variant and task configuration: the variant's columns repeat so that a spreadsheet can
  // filter and pivot.
  out << "variant";
  for (const auto& p : e.parameters) out << "," << csv_field(p);
  out << ",yosys_cells,geomean_cycles,pareto,task,config,cycles,utilization,status\n";
  for (const auto& r : e.variants) {
    const auto prefix = [&] {
      std::string s = csv_field(r.variant.name);
      for (const auto& p : e.parameters) s += "," + csv_field(setting_of(r.variant, p));
      s += "," + (r.size ? std::to_string(r.size->cells) : std::string()) + "," +
           (r.geomean_cycles ? fmt::format("{:.1f}", *r.geomean_cycles) : std::string()) + "," +
           (r.pareto ? "1" : "0");
      return s;
    };
    for (const auto& [cell, cycles] : r.best_cycles) {
      const auto slash = cell.find('/');
      out << prefix() << "," << cell.substr(0, slash) << "," << cell.substr(slash + 1) << "," << cycles << ","
          << fmt::format("{:.4f}", r.best_utilization.at(cell)) << ",pass\n";
    }
    for (const auto& c : r.unsupported)
      out << prefix() << "," << c.task << "," << c.config << ",,," << csv_field("unsupported: " + c.reason)
          << "\n";
    for (const auto& run : r.runs) {
      if (!run.correct())
        out << prefix() << "," << run.key.task << "," << run.key.config << ",,,"
            << csv_field(failure_text(run)) << "\n";
    }
  }
}

std::string exploration_html(const Exploration& e) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>kcraft explore "
    << tb::html_escape(e.platform)
    << "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
    << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
    << "td:first-child,th:first-child{text-align:left}tr.front{background:#fff3d6}"
    << ".note{color:#555}</style></head><body>\n";
  h << "<h1>Design-space exploration: " << tb::html_escape(e.platform) << " (base " << tb::html_escape(e.base)
    << ")</h1>\n<p class=\"note\">" << e.variants.size() << " variants; geometric mean of cycles over the "
    << e.cells.size() << " task configurations correct on every variant; yosys cells (coarse synthesis, "
    << "scripts/synth.sh). Pareto front (fewer cells, fewer cycles) highlighted.</p>\n";

  // The chart: cycles against cells, front joined and marked.
  std::vector<const VariantResult*> plotted;
  for (const auto& r : e.variants) {
    if (r.size && r.geomean_cycles) plotted.push_back(&r);
  }
  if (plotted.empty()) {
    h << "<p id=\"no-chart\">No chart: no variant has both a synthesis size and a geomean of cycles "
      << "(--no-synth, or no task configuration correct on every variant).</p>\n";
  } else {
    double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
    for (const auto* r : plotted) {
      x0 = std::min(x0, double(r->size->cells));
      x1 = std::max(x1, double(r->size->cells));
      y0 = std::min(y0, *r->geomean_cycles);
      y1 = std::max(y1, *r->geomean_cycles);
    }
    const auto pad = [](double& lo, double& hi) {
      const double span = hi > lo ? hi - lo : std::max(1.0, hi * 0.1);
      lo -= span * 0.1;
      hi += span * 0.1;
      lo = std::max(0.0, lo);
    };
    pad(x0, x1);
    pad(y0, y1);
    const double W = 760, H = 440, L = 90, R = 30, T = 20, B = 60;
    const auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
    const auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
    h << fmt::format(
        "<svg id=\"chart\" width=\"{}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" "
        "font-size=\"12\">\n",
        W, H);
    h << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>", L, H - B, W - R,
                     H - B);
    h << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\n", L, T, L, H - B);
    for (int i = 0; i <= 4; ++i) {
      const double xv = x0 + (x1 - x0) * i / 4, yv = y0 + (y1 - y0) * i / 4;
      h << fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{:.0f}</text>", px(xv), H - B + 16,
                       xv);
      h << fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.0f}</text>\n", L - 6, py(yv) + 4,
                       yv);
    }
    h << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">size: yosys cells</text>",
                     (L + W - R) / 2, H - 12);
    h << fmt::format(
        "<text transform=\"rotate(-90)\" x=\"{}\" y=\"16\" text-anchor=\"middle\">geomean "
        "cycles</text>\n",
        -(T + H - B) / 2);
    std::vector<const VariantResult*> front;
    for (const auto* r : plotted) {
      if (r->pareto) front.push_back(r);
    }
    std::sort(front.begin(), front.end(),
              [](const VariantResult* a, const VariantResult* b) { return a->size->cells < b->size->cells; });
    if (front.size() > 1) {
      h << "<polyline id=\"front\" fill=\"none\" stroke=\"#d9480f\" stroke-width=\"2\" points=\"";
      for (const auto* r : front)
        h << fmt::format("{:.1f},{:.1f} ", px(double(r->size->cells)), py(*r->geomean_cycles));
      h << "\"/>\n";
    }
    // Labels sit beside their point, towards the middle of the chart; variants at the same point (same
    // size and cycles) stack their labels instead of overprinting them.
    std::map<std::pair<long, long>, int> labels_at;
    for (const auto* r : plotted) {
      const double x = px(double(r->size->cells)), y = py(*r->geomean_cycles);
      const int stacked = labels_at[{std::lround(x), std::lround(y)}]++;
      const bool right_half = x > (L + W - R) / 2;
      h << fmt::format(
          "<g class=\"point{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/>"
          "<title>{} ({}): {} cells, {:.0f} cycles</title>"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">{}</text></g>\n",
          r->pareto ? " pareto" : "", x, y, r->pareto ? "#d9480f" : "#1c7ed6",
          tb::html_escape(r->variant.name), tb::html_escape(r->variant.settings_text()), r->size->cells,
          *r->geomean_cycles, right_half ? x - 9 : x + 9, y - 7 - 14 * stacked, right_half ? "end" : "start",
          tb::html_escape(r->variant.settings_text()));
    }
    h << "</svg>\n";
  }
  h << "<h2>Variants</h2>\n<table id=\"variants\"><tr><th>variant</th>";
  for (const auto& p : e.parameters) h << "<th>" << tb::html_escape(p) << "</th>";
  h << "<th>build</th><th>yosys cells</th><th>geomean cycles</th><th>utilisation</th><th>correct</th>"
    << "<th>Pareto</th></tr>\n";
  for (const auto& r : e.variants) {
    h << "<tr" << (r.pareto ? " class=\"front\"" : "") << "><td>" << tb::html_escape(r.variant.name)
      << "</td>";
    for (const auto& p : e.parameters) h << "<td>" << tb::html_escape(setting_of(r.variant, p)) << "</td>";
    h << "<td>" << build_text(r) << "</td><td>" << (r.size ? std::to_string(r.size->cells) : "-")
      << "</td><td>" << (r.geomean_cycles ? fmt::format("{:.0f}", *r.geomean_cycles) : "-") << "</td><td>"
      << (r.mean_utilization ? fmt::format("{:.1f}%", 100 * *r.mean_utilization) : "-") << "</td><td>"
      << r.passed << "/" << cell_count(r) << "</td><td>" << (r.pareto ? "&#9733;" : "") << "</td></tr>\n";
  }
  h << "</table>\n";
  std::set<std::string> cells;
  for (const auto& r : e.variants) {
    for (const auto& [cell, c] : r.best_cycles) cells.insert(cell);
  }
  h << "<h2>Cycles per task configuration</h2>\n<table id=\"cells\"><tr><th>task/config</th>";
  for (const auto& r : e.variants) h << "<th>" << tb::html_escape(r.variant.settings_text()) << "</th>";
  h << "</tr>\n";
  for (const auto& cell : cells) {
    h << "<tr><td>" << tb::html_escape(cell) << "</td>";
    for (const auto& r : e.variants) {
      auto it = r.best_cycles.find(cell);
      h << "<td>" << (it == r.best_cycles.end() ? "-" : std::to_string(it->second)) << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n<h2>Not valid on a variant</h2>\n<ul id=\"invalid\">\n";
  size_t invalid = 0;
  for (const auto& r : e.variants) {
    for (const auto& c : r.unsupported) {
      h << "<li>"
        << tb::html_escape(r.variant.name + " " + c.task + "/" + c.config + ": unsupported: " + c.reason)
        << "</li>\n";
      ++invalid;
    }
    for (const auto& run : r.runs) {
      if (run.correct()) continue;
      h << "<li>"
        << tb::html_escape(r.variant.name + " " + run.key.task + "/" + run.key.config + " " + run.key.agent +
                           ": " + failure_text(run))
        << "</li>\n";
      ++invalid;
    }
  }
  if (invalid == 0) h << "<li>none: every run on every variant was correct</li>\n";
  h << "</ul>\n</body></html>\n";
  return h.str();
}

}  // namespace kcraft::bench
