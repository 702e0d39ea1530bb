#include "tb/common/variant_build.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tb/common/text.h"

#ifndef KCRAFT_BINARY_DIR
#error "KCRAFT_BINARY_DIR must be defined by the build"
#endif

namespace kcraft::tb {

namespace fs = std::filesystem;

namespace {

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

// The line of a build log that says what went wrong first.
std::string first_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, compiler_error, cmake_error, last;
  while (std::getline(in, line)) {
    if (line.rfind("%Error", 0) == 0) return line;
    if (compiler_error.empty() && line.find("error:") != std::string::npos) compiler_error = line;
    if (cmake_error.empty() && line.find("CMake Error") != std::string::npos) cmake_error = line;
    if (!line.empty()) last = line;
  }
  return !compiler_error.empty() ? compiler_error : !cmake_error.empty() ? cmake_error : last;
}

fs::file_time_type mtime_or_min(const fs::path& p) {
  std::error_code ec;
  const auto t = fs::last_write_time(p, ec);
  return ec ? fs::file_time_type::min() : t;
}

void write_if_changed(const fs::path& file, const std::string& text) {
  if (fs::exists(file) && read_file(file) == text) return;  // keeps the mtime: make sees nothing new
  std::ofstream(file, std::ios::binary) << text;
}

// Holds an exclusive lock on a file while it lives: two processes building one plugin take turns.
class FileLock {
 public:
  explicit FileLock(const fs::path& file) : fd_(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

fs::path plugin_dir(const VariantPluginRequest& r, const nlohmann::json& info) {
  const std::string folder = r.model + (r.rtl_coverage ? "-cov" : "");
  return variant_cache_root() / r.platform /
         fmt::format("{}-{:08x}", folder, variant_hash(info.dump()) & 0xFFFFFFFFu);
}

fs::path info_file(const std::string& platform) {
  return fs::path(KCRAFT_BINARY_DIR) / "variants" / (platform + ".json");
}

}  // namespace

uint64_t variant_hash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

fs::path variant_cache_root() {
  if (const char* env = std::getenv("KCRAFT_VARIANT_CACHE"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "kcraft" / "variants";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "kcraft" / "variants";
  return fs::temp_directory_path() / "kcraft-variants";
}

nlohmann::json variant_build_info(const std::string& platform) {
  const fs::path file = info_file(platform);
  if (!fs::exists(file)) {
    throw std::invalid_argument("this kcraft has no variant build information for " + platform + " (" +
                                file.string() + " is missing: build kcraft from its source tree)");
  }
  return nlohmann::json::parse(read_file(file));
}

std::string variant_model_name(const std::map<std::string, int64_t>& build) {
  return fmt::format("b{:016x}", variant_hash(nlohmann::json(build).dump())).substr(0, 13);
}

fs::path variant_plugin_file(const VariantPluginRequest& r, const nlohmann::json& info) {
  return plugin_dir(r, info) / "build" / (r.model + ".so");
}

VariantPluginBuild build_variant_plugin(const VariantPluginRequest& r, const nlohmann::json& info) {
  const fs::path dir = plugin_dir(r, info);
  const fs::path build = dir / "build", yaml = dir / (r.model + ".yaml");
  fs::create_directories(dir);
  const FileLock lock(dir / ".lock");
  // Only what the build depends on, so that the file (and the build) stays the same for every variant.
  YAML::Emitter build_yaml;
  build_yaml << YAML::BeginMap << YAML::Key << "platform" << YAML::Value << r.platform << YAML::Key << "name"
             << YAML::Value << r.model << YAML::Key << "build" << YAML::Value << YAML::BeginMap;
  for (const auto& [key, value] : r.build) build_yaml << YAML::Key << key << YAML::Value << value;
  build_yaml << YAML::EndMap << YAML::EndMap;
  write_if_changed(yaml, std::string(build_yaml.c_str()) + "\n");
  VariantPluginBuild result;
  result.plugin = variant_plugin_file(r, info);
  const auto before = mtime_or_min(result.plugin);
  const auto start = std::chrono::steady_clock::now();
  const auto fail = [&](const fs::path& log) {
    throw VariantBuildError(
        fmt::format("{} failed to build: {} (log: {})", r.label, first_error_line(log), log.string()));
  };
  if (!fs::exists(build / "CMakeCache.txt")) {
    const std::string configure = fmt::format(
        "cmake -S {} -B {} -DCMAKE_BUILD_TYPE=Release -DKCRAFT_VARIANT_INFO={} -DKCRAFT_VARIANT_NAME={} "
        "-DKCRAFT_VARIANT_YAML={} -DKCRAFT_VARIANT_COVERAGE={}",
        quote(
            (fs::path(info["source_dir"].get<std::string>()) / "tb" / "common" / "variant_plugin").string()),
        quote(build.string()), quote(info_file(r.platform).string()), r.model, quote(yaml.string()),
        r.rtl_coverage ? "ON" : "OFF");
    if (run_logged(configure, dir / "configure.log") != 0) {
      fs::remove_all(build);  // configure again next time
      fail(dir / "configure.log");
    }
  }
  if (run_logged(fmt::format("cmake --build {} -j {}", quote(build.string()), std::max(1u, r.jobs)),
                 dir / "build.log") != 0 ||
      !fs::exists(result.plugin))
    fail(dir / "build.log");
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.rebuilt = mtime_or_min(result.plugin) != before;
  return result;
}

}  // namespace kcraft::tb
