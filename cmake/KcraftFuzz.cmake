# The fuzz build (-DKCRAFT_FUZZ=ON): every target of the project is compiled with libFuzzer's coverage
# instrumentation and AddressSanitizer + UndefinedBehaviorSanitizer; the harnesses in tests/fuzz add
# -fsanitize=fuzzer at link time (libFuzzer's main). Only clang has libFuzzer (Debian: clang-16 and
# libfuzzer-16-dev); scripts/fuzz.sh configures build-fuzz with CC=clang-16 CXX=clang++-16.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR
    "KCRAFT_FUZZ=ON needs clang (libFuzzer is part of LLVM), but the compilers are "
    "${CMAKE_C_COMPILER_ID}/${CMAKE_CXX_COMPILER_ID}. Configure a separate build directory with "
    "CC=clang-16 CXX=clang++-16 (apt-get install clang-16 libfuzzer-16-dev), or run scripts/fuzz.sh.")
endif()

# One optimisation level whatever the build type: KCRAFT_FUZZ_OPT, -O1 by default, as OSS-Fuzz builds (it
# compiles faster than -O2 under these sanitizers; docs/fuzzing.md has the measurement), assertions kept (they
# are oracles too), line tables for symbolised reports. CI's short run (scripts/fuzz.sh --ci) builds at -O0:
# a third of the compile time, fewer executions per second.
set(KCRAFT_FUZZ_OPT "-O1" CACHE STRING "Optimisation level of the fuzz build")
foreach(lang C CXX)
  foreach(config DEBUG RELEASE RELWITHDEBINFO MINSIZEREL)
    set(CMAKE_${lang}_FLAGS_${config} "${KCRAFT_FUZZ_OPT}")
  endforeach()
endforeach()
# Every undefined-behaviour report aborts, so libFuzzer records it as a finding (with the input).
set(KCRAFT_SANITIZERS "-fsanitize=address,undefined" "-fno-sanitize-recover=all")
# Coverage (the edges libFuzzer steers by) only for kcraft's own code: see the ignorelist for why.
set(KCRAFT_FUZZ_IGNORELIST "${CMAKE_CURRENT_LIST_DIR}/fuzz_coverage_ignorelist.txt")
add_compile_options(-fsanitize=fuzzer-no-link "-fsanitize-coverage-ignorelist=${KCRAFT_FUZZ_IGNORELIST}"
                    ${KCRAFT_SANITIZERS} -fno-omit-frame-pointer -gline-tables-only)
add_link_options(${KCRAFT_SANITIZERS})

# Targets that link these get libFuzzer's main().
add_library(kcraft_fuzzer_main INTERFACE)
target_link_options(kcraft_fuzzer_main INTERFACE -fsanitize=fuzzer)

# Verilator's headers (tb/ includes verilated.h) without its runtime: no Verilated model is linked.
set(KCRAFT_VERILATOR_ROOT "/usr/share/verilator" CACHE PATH "Verilator installation root")
