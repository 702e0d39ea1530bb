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
