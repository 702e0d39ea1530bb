// libsystemc's own main() calls sc_main(). kcraft binaries have their own main() and drive SystemC
// directly (sc_start/sc_pause between kernels), so this is never called; the shared library still needs
// the symbol to link.
#include <systemc>

int sc_main(int /*argc*/, char* /*argv*/[]) {
  SC_REPORT_ERROR("kcraft", "sc_main is not used: kcraft drives SystemC from its own main()");
  return 1;
}
