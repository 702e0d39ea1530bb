#include "tb/common/hw_variants.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "isa/common/hw_config.h"
#include "tb/common/paths.h"
#include "tb/common/variant_build.h"

namespace kcraft::tb {

namespace {

// register_variant_plugin's entries: (platform, config) -> plugin.
std::map<std::pair<std::string, std::string>, std::filesystem::path>& registered_plugins() {
  static std::map<std::pair<std::string, std::string>, std::filesystem::path> plugins;
  return plugins;
}
std::mutex registered_mutex;

std::optional<std::filesystem::path> registered_plugin(const std::string& platform,
                                                       const std::string& config) {
  std::lock_guard<std::mutex> lock(registered_mutex);
  const auto it = registered_plugins().find({platform, config});
  if (it == registered_plugins().end()) return std::nullopt;
  return it->second;
}

// The data root's configurations; a folder with a broken file has none here (the platform's own loader
// reports that file).
std::vector<HwConfig> root_configs(const std::string& platform) {
  try {
    return load_hw_configs(hw_config_dir(platform));
  } catch (const std::exception&) {
    return {};
  }
}

std::optional<VariantModel> model_among(const std::vector<HwConfig>& configs, const std::string& platform,
                                        const std::string& config, const std::vector<std::string>& builtin) {
  const auto it =
      std::find_if(configs.begin(), configs.end(), [&](const HwConfig& c) { return c.name == config; });
  if (it == configs.end()) return std::nullopt;
  if (const auto plugin = variant_plugin_path(platform, config); std::filesystem::exists(plugin))
    return VariantModel{{}, plugin};
  for (const auto& c : configs) {
    if (std::find(builtin.begin(), builtin.end(), c.name) != builtin.end() && c.build == it->build)
      return VariantModel{c.name, {}};
  }
  return std::nullopt;
}

}  // namespace

void register_variant_plugin(const std::string& platform, const std::string& config,
                             const std::filesystem::path& plugin) {
  std::lock_guard<std::mutex> lock(registered_mutex);
  registered_plugins()[{platform, config}] = plugin;
}

namespace {

std::vector<std::string> builtin_of(const nlohmann::json& info) {
  std::vector<std::string> builtin;
  std::istringstream names(info.value("builtin_configs", std::string()));
  for (std::string name; std::getline(names, name, ';');) builtin.push_back(name);
  return builtin;
}

// The plugin a first use of `config` builds.
VariantPluginRequest first_use_request(const std::string& platform, const HwConfig& config) {
  VariantPluginRequest request;
  request.platform = platform;
  request.model = variant_model_name(config.build);
  request.build = config.build;
  request.jobs = std::max(1u, std::thread::hardware_concurrency());
  request.label = fmt::format("the Verilated model of {}/{}", platform, config.name);
  return request;
}

}  // namespace

std::string hw_model_status(const std::string& platform, const std::string& config) {
  if (auto plugin = registered_plugin(platform, config)) return "plugin " + plugin->string();
  nlohmann::json info;
  try {
    info = variant_build_info(platform);
  } catch (const std::invalid_argument&) {
    return "";
  }
  const auto builtin = builtin_of(info);
  if (std::find(builtin.begin(), builtin.end(), config) != builtin.end()) return "compiled in";
  const auto configs = root_configs(platform);
  if (const auto model = model_among(configs, platform, config, builtin)) {
    return model->plugin.empty() ? fmt::format("compiled in ({}'s build)", model->builtin)
                                 : "plugin " + model->plugin.string();
  }
  const auto it =
      std::find_if(configs.begin(), configs.end(), [&](const HwConfig& c) { return c.name == config; });
  if (it == configs.end()) return "";
  const auto plugin = variant_plugin_file(first_use_request(platform, *it), info);
  return std::filesystem::exists(plugin)
             ? fmt::format("built on first use (ready in {})", plugin.parent_path().parent_path().string())
             : "built on first use (not built yet)";
}

bool ensure_hw_model(const std::string& platform, const std::string& config, std::ostream& progress) {
  if (registered_plugin(platform, config)) return true;
  const auto info = variant_build_info(platform);
  const auto builtin = builtin_of(info);
  if (std::find(builtin.begin(), builtin.end(), config) != builtin.end()) return true;
  const auto configs = root_configs(platform);
  if (model_among(configs, platform, config, builtin)) return true;
  const auto it =
      std::find_if(configs.begin(), configs.end(), [&](const HwConfig& c) { return c.name == config; });
  if (it == configs.end()) return false;

  // A build without the RTL (the fuzz build, which links no Verilated model) has nothing to build from.
  if (info.value("rtl_sources", std::string()).empty()) {
    throw VariantBuildError(fmt::format(
        "kcraft: {}/{} has no Verilated model in this build, and this build has no RTL to make one from "
        "(a build without rtl/, such as the fuzz build)",
        platform, config));
  }
  const VariantPluginRequest request = first_use_request(platform, *it);
  const auto plugin = variant_plugin_file(request, info);
  const bool first = !std::filesystem::exists(plugin);
  if (first) {
    progress
        << fmt::format(
               "kcraft: building the Verilated model of {}/{} on first use (a minute or two; kept in {})\n",
               platform, config, plugin.parent_path().parent_path().string())
        << std::flush;
  }
  const auto built = build_variant_plugin(request, info);
  if (built.rebuilt) {
    progress << fmt::format("kcraft: {} the Verilated model of {}/{} in {:.0f} s\n",
                            first ? "built" : "rebuilt", platform, config, built.seconds)
             << std::flush;
  } else if (first) {
    // Another kcraft process held the cache's lock and built it meanwhile (parallel sweeps and tests).
    progress << fmt::format("kcraft: another kcraft process built the Verilated model of {}/{} meanwhile\n",
                            platform, config)
             << std::flush;
  }
  register_variant_plugin(platform, config, built.plugin);
  return true;
}

std::filesystem::path variant_plugin_path(const std::string& platform, const std::string& config) {
  return root() / "rtl" / platform / "models" / (config + ".so");
}

std::optional<VariantModel> find_variant_model(const std::string& platform, const std::string& config,
                                               const std::vector<std::string>& builtin) {
  if (auto plugin = registered_plugin(platform, config)) return VariantModel{{}, *plugin};
  return model_among(root_configs(platform), platform, config, builtin);
}

std::vector<std::string> configs_with_variants(const std::string& platform,
                                               const std::vector<std::string>& builtin) {
  std::vector<std::string> names = builtin;
  const auto configs = root_configs(platform);
  for (const auto& c : configs) {
    if (std::find(builtin.begin(), builtin.end(), c.name) == builtin.end() &&
        model_among(configs, platform, c.name, builtin))
      names.push_back(c.name);
  }
  {
    std::lock_guard<std::mutex> lock(registered_mutex);
    for (const auto& [key, plugin] : registered_plugins()) {
      if (key.first == platform && std::find(names.begin(), names.end(), key.second) == names.end())
        names.push_back(key.second);
    }
  }
  std::sort(names.begin() + static_cast<std::ptrdiff_t>(builtin.size()), names.end());
  return names;
}

std::unique_ptr<AcceleratorHw> load_variant_plugin(const std::filesystem::path& plugin,
                                                   const std::string& platform, const std::string& config) {
  using PlatformFn = const char* (*)();
  using MakeFn = AcceleratorHw* (*)(const char*);
  // Plugins stay loaded for the life of the process: the drivers they make use their code.
  static std::mutex mutex;
  static std::map<std::string, void*> handles;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::filesystem::absolute(plugin).string();
  void*& handle = handles[key];
  if (handle == nullptr) {
    // RTLD_NOW: a symbol the binary does not provide is an error here, not a crash in mid-run.
    handle = dlopen(key.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      handles.erase(key);
      const char* why = dlerror();
      throw std::runtime_error("cannot load the hardware variant " + key + ": " +
                               (why ? why : "unknown error"));
    }
  }
  auto platform_fn = reinterpret_cast<PlatformFn>(dlsym(handle, kVariantPlatformSymbol));
  auto make_fn = reinterpret_cast<MakeFn>(dlsym(handle, kVariantMakeHwSymbol));
  if (platform_fn == nullptr || make_fn == nullptr)
    throw std::runtime_error(key + " is not a kcraft hardware variant (no " + kVariantMakeHwSymbol + ")");
  if (platform_fn() != platform)
    throw std::runtime_error(key + " is a variant of " + platform_fn() + ", not of " + platform);
  return std::unique_ptr<AcceleratorHw>(make_fn(config.c_str()));
}

}  // namespace kcraft::tb
