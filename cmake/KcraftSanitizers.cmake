# KCRAFT_SANITIZE: AddressSanitizer + UndefinedBehaviorSanitizer for the project's own code and the
# Verilator runtime; the Verilated models are generated code and stay uninstrumented (kcraft_verilate,
# docs/sanitizers.md). Third-party libraries (SystemC, yaml-cpp, libcurl ...) are Debian's, uninstrumented.
# Every UBSan finding aborts (no recovery), so a test that triggers one fails.
# The instrumented code is compiled at -Og: GCC takes 3-4x longer at -O3 with both sanitizers (a unity batch
# of tb/rvv: 89 s at -O3, 47 s at -O1, 27 s at -Og; docs/sanitizers.md), and the code that runs hot in a
# simulation, the Verilated models, is not instrumented and keeps -O3.
set(KCRAFT_SANITIZER_FLAGS "")
if(KCRAFT_SANITIZE)
  set(KCRAFT_SANITIZER_FLAGS -Og -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${KCRAFT_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "kcraft: AddressSanitizer + UndefinedBehaviorSanitizer build")
endif()
