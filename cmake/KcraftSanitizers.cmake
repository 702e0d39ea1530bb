# KCRAFT_SANITIZE: AddressSanitizer + UndefinedBehaviorSanitizer for everything this project compiles:
# its own code, the Verilator runtime and the Verilated models (kcraft_verilate passes the same flags to
# Verilator's make). Third-party libraries (SystemC, yaml-cpp, libcurl ...) are Debian's, uninstrumented.
# Every UBSan finding aborts (no recovery), so a test that triggers one fails.
set(KCRAFT_SANITIZER_FLAGS "")
if(KCRAFT_SANITIZE)
  set(KCRAFT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${KCRAFT_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "kcraft: AddressSanitizer + UndefinedBehaviorSanitizer build")
endif()
