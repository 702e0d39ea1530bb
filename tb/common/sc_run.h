// Running the SystemC scheduler from a host thread, with what every platform's testbench needs around it.
#pragma once

namespace kcraft::tb {

// sc_core::sc_start(), then hands AddressSanitizer back the bounds of the calling thread's stack.
//
// Debian's SystemC announces its coroutine switches to ASan (__sanitizer_start_switch_fiber), but when it
// switches back to the thread that called sc_start it passes no bounds for that stack (its "main"
// coroutine has none), so ASan believes the host thread's stack is empty. The next exception thrown on
// it makes ASan skip unpoisoning the unwound frames ("ignoring requested __asan_handle_no_return ...
// top: 0x000000000000"), and their stale redzones are reported later as stack-buffer-overflow or
// stack-use-after-scope in code that did nothing wrong. Outside a sanitizer build this is sc_start().
void sc_start_and_restore_stack();

}  // namespace kcraft::tb

#include <functional>
#include <string>

namespace kcraft::tb {

// Every platform's SystemC modules live in the process's one simulation context, which accepts new modules
// only until the simulation first starts. So a platform announces its part of the design when its Platform
// object is made (the registry makes every built-in platform together), and the first start elaborates every
// part announced by then. `elaborate` creates the part's modules; adding a name twice keeps the first.
void sc_world_add(const std::string& name, std::function<void()> elaborate);

// Elaborates the parts not elaborated yet. Throws std::logic_error naming them when the simulation has
// already started (a platform made after another one had run a job, outside the registry).
void sc_world_elaborate();

}  // namespace kcraft::tb
