#include "tb/common/sc_run.h"

#include <systemc>

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

}  // namespace kcraft::tb
