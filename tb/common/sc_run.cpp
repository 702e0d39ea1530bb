#include "tb/common/sc_run.h"

#include <systemc>

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include <stdexcept>
#endif

namespace kcraft::tb {

void sc_start_and_restore_stack() {
  sc_core::sc_start();
#if defined(__SANITIZE_ADDRESS__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    throw std::runtime_error("pthread_getattr_np failed: cannot give ASan this thread's stack bounds");
  void* stack_bottom = nullptr;
  size_t stack_size = 0;
  pthread_attr_getstack(&attr, &stack_bottom, &stack_size);
  pthread_attr_destroy(&attr);
  // A "switch" from this stack to itself: ASan takes the bounds it is given as the current stack's.
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, stack_bottom, stack_size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

namespace {

struct WorldPart {
  std::function<void()> elaborate;
  bool done = false;
};

struct World {
  std::mutex mutex;
  std::map<std::string, WorldPart> parts;
};

World& world() {
  static World* w = new World;  // never destroyed: modules outlive every static
  return *w;
}

}  // namespace

void sc_world_add(const std::string& name, std::function<void()> elaborate) {
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.parts.emplace(name, WorldPart{std::move(elaborate), false});
}

void sc_world_elaborate() {
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mutex);
  std::string late;
  const bool started = sc_core::sc_start_of_simulation_invoked();
  for (auto& [name, part] : w.parts) {
    if (part.done) continue;
    if (started) {
      late += (late.empty() ? "" : ", ") + name;
      continue;
    }
    part.elaborate();
    part.done = true;
  }
  if (!late.empty()) {
    throw std::logic_error("the SystemC simulation already ran, so the testbench of " + late +
                           " can no longer be elaborated: make every platform (kcraft::platforms()) before "
                           "the first run");
  }
}

}  // namespace kcraft::tb
