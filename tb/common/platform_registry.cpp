// The platform registry: the platforms the build registered (generated list), then any added at run time.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "tb/common/platform.h"
#include "tb/common/platform_registry.h"

namespace kcraft {

namespace {

struct Entry {
  std::string name;
  PlatformFactory make;
  std::unique_ptr<Platform> instance;  // built on first use
  bool builtin = false;                // registered by the build (not at run time by a test)
};

struct Registry {
  std::mutex mutex;
  std::vector<Entry> entries;  // the default platform first
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;  // never destroyed: platforms may be used by other statics at exit
    auto builtin = detail::builtin_platforms();
    std::stable_partition(builtin.begin(), builtin.end(),
                          [](const detail::BuiltinPlatform& p) { return p.is_default; });
    for (auto& p : builtin) reg->entries.push_back(Entry{p.name, std::move(p.make), nullptr, true});
    return reg;
  }();
  return *r;
}

std::string join_names(const std::vector<Entry>& entries) {
  std::string s;
  for (const auto& e : entries) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

// Caller holds the mutex.
void build(Entry& e) {
  if (e.instance) return;
  e.instance = e.make();
  if (!e.instance || e.instance->name() != e.name) {
    throw std::logic_error(fmt::format("the factory registered for platform '{}' made {}", e.name,
                                       e.instance ? "'" + e.instance->name() + "'" : "nothing"));
  }
}

// Caller holds the mutex. The built-in platforms are made together: each announces its part of the one
// SystemC design of the process when it is made (tb/common/sc_run.h), and all parts must be known before
// the first of them runs a job.
const Platform& instance_of(Registry& r, Entry& e) {
  if (!e.instance && e.builtin) {
    for (auto& other : r.entries) {
      if (other.builtin) build(other);
    }
  }
  build(e);
  return *e.instance;
}

}  // namespace

std::vector<std::string> platform_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& e : r.entries) names.push_back(e.name);
  return names;
}

std::string default_platform_name() {
  const auto names = platform_names();
  return names.empty() ? std::string() : names.front();
}

std::string platform_list_text() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return join_names(r.entries);
}

std::vector<const Platform*> platforms() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<const Platform*> all;
  for (auto& e : r.entries) all.push_back(&instance_of(r, e));
  return all;
}

const Platform* find_platform(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto& e : r.entries) {
    if (e.name == name) return &instance_of(r, e);
  }
  return nullptr;
}

const Platform& platform(const std::string& name) {
  if (const Platform* p = find_platform(name)) return *p;
  throw std::invalid_argument(
      fmt::format("unknown platform '{}' (available: {})", name, platform_list_text()));
}

void register_platform(const std::string& name, PlatformFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& e : r.entries) {
    if (e.name == name) throw std::invalid_argument("platform '" + name + "' is already registered");
  }
  r.entries.push_back(Entry{name, std::move(factory), nullptr, false});
}

}  // namespace kcraft
