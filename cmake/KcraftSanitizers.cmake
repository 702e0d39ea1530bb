# KCRAFT_SANITIZE: AddressSanitizer + UndefinedBehaviorSanitizer for the project's own code and the
# Verilator runtime; the Verilated models are generated code and stay uninstrumented (kcraft_verilate,
# docs/sanitizers.md). Third-party libraries (SystemC, yaml-cpp, libcurl ...) are Debian's, uninstrumented.
# Every UBSan finding aborts (no recovery), so a test that triggers one fails.
set(KCRAFT_SANITIZER_FLAGS "")
if(KCRAFT_SANITIZE)
  set(KCRAFT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${KCRAFT_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "kcraft: AddressSanitizer + UndefinedBehaviorSanitizer build")
endif()
