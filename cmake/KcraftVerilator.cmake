# Verilator integration.
#
# kcraft_verilate(<target> TOP <module> PREFIX <class> SOURCES <files...>
#                 [ARGS_FILE <file>] [ARGS <args...>] [DEPENDS <files/targets...>])
#
# Runs `verilator --cc --build` at build time (never at configure time, so the RTL may include files that
# are themselves generated during the build) and exposes the result as an INTERFACE library <target>
# that carries the model's archive, headers and the shared Verilator runtime. The flags follow
# shared/reference/simulation.md: -O3, --x-assign fast, --x-initial fast, --noassert, no --threads.
# Function temporaries stay local to the generated functions (no -fno-localize): 5.006 then zeroes them on
# each call, but cachegrind counts fewer instructions on every platform than with them kept as members of
# the model (docs/simulation-speed.md).

find_program(VERILATOR_BIN verilator REQUIRED)
set(KCRAFT_VERILATOR_ROOT "/usr/share/verilator" CACHE PATH "Verilator installation root")
set(KCRAFT_VERILATOR_JOBS "2" CACHE STRING "Parallel C++ compiles inside one Verilator build")
# The options that decide simulation speed and build time; docs/simulation-speed.md has the measurements
# behind the defaults (scripts/verilator_speed_study.sh remeasures them). CFLAGS apply to all Verilated
# C++; OPT_FAST then to the hot evaluation code and OPT_SLOW to the code that runs once (construction,
# initial blocks, trace set-up); a later -O wins.
set(KCRAFT_VERILATOR_OPT_ARGS -O3 --x-assign fast --x-initial fast --noassert
    CACHE STRING "Verilator optimisation options (a list)")
set(KCRAFT_VERILATOR_CFLAGS "-std=gnu++17 -O3" CACHE STRING "C++ flags of all Verilated code")
set(KCRAFT_VERILATOR_OPT_FAST "-O3" CACHE STRING "C++ optimisation of Verilated hot code")
set(KCRAFT_VERILATOR_OPT_SLOW "" CACHE STRING "C++ optimisation of Verilated run-once code (empty: CFLAGS')")
set(KCRAFT_VERILATOR_SPLIT_ARGS --output-split 20000 --output-split-cfuncs 2000
    CACHE STRING "How Verilator splits the generated C++ into files and functions (a list)")
set(KCRAFT_VERILATOR_CXXFLAGS "" CACHE STRING "Extra C++ flags of Verilated code (e.g. profile-guided optimisation)")
# The compiler of the Verilated models: clang++ where there is one (rvv's toolchain installs clang-16), whose
# code simulates 2-8 % more cycles per second than g++'s on these models (docs/simulation-speed.md); the
# rest of the project keeps CMAKE_CXX_COMPILER. The two share the C++ ABI and the standard library.
find_program(KCRAFT_CLANGXX NAMES clang++-16 clang++)
if(KCRAFT_CLANGXX)
  set(_vl_cxx_default "${KCRAFT_CLANGXX}")
else()
  set(_vl_cxx_default "${CMAKE_CXX_COMPILER}")
endif()
set(KCRAFT_VERILATOR_CXX "${_vl_cxx_default}" CACHE FILEPATH "C++ compiler of the Verilated models")
# The models' compiles go through ccache when the project's do (scripts/setup.sh sets the launcher): the
# sanitizer build (whose models are compiled without the sanitizers, with the same flags) and the scratch
# copies of the tree in the examples' tests then reuse the normal build's model objects.
set(_vl_objcache "")
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(_vl_objcache "ccache")
endif()
set(KCRAFT_VERILATOR_OBJCACHE "${_vl_objcache}" CACHE STRING "Verilator's OBJCACHE (e.g. ccache; empty: none)")

# The runtime every Verilated model links against, compiled once with the same macros as the models.
set(_vl_inc "${KCRAFT_VERILATOR_ROOT}/include")
if(KCRAFT_VARIANT_PLUGIN)
  # A hardware variant plugin (tb/common/variant_plugin/) binds to the runtime inside kcraft: headers and
  # macros only, so that one process has one Verilator runtime.
  # A coverage plugin (KCRAFT_VARIANT_COVERAGE, `kcraft coverage --rtl`) compiles its own coverage runtime
  # (verilated_cov.cpp, which kcraft does not have): its counters live in the model's own context.
  add_library(kcraft_verilated INTERFACE)
  target_include_directories(kcraft_verilated SYSTEM INTERFACE "${_vl_inc}" "${_vl_inc}/vltstd")
  if(KCRAFT_VARIANT_COVERAGE)
    set(_vl_coverage 1)
  else()
    set(_vl_coverage 0)
  endif()
  target_compile_definitions(kcraft_verilated INTERFACE
    VM_COVERAGE=${_vl_coverage} VM_SC=0 VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0)
else()
add_library(kcraft_verilated STATIC
  "${_vl_inc}/verilated.cpp"
  "${_vl_inc}/verilated_fst_c.cpp"
  "${_vl_inc}/verilated_threads.cpp")
target_include_directories(kcraft_verilated SYSTEM PUBLIC "${_vl_inc}" "${_vl_inc}/vltstd")
target_compile_definitions(kcraft_verilated PUBLIC
  VM_COVERAGE=0 VM_SC=0 VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0)
target_compile_options(kcraft_verilated PRIVATE -O2 -w)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
target_link_libraries(kcraft_verilated PUBLIC ZLIB::ZLIB Threads::Threads)
if(KCRAFT_SANITIZE)
  # Verilator's FST writer (gtkwave/fstapi.c, included by verilated_fst_c.cpp) stores 32-bit words at
  # unaligned addresses and left-shifts negative values, on purpose: x86-64 allows the first and GCC
  # defines the second. Third-party code: exempt those two checks for that one file, keep the rest.
  set_source_files_properties("${_vl_inc}/verilated_fst_c.cpp" PROPERTIES
    COMPILE_OPTIONS "-fno-sanitize=alignment;-fno-sanitize=shift-base")
endif()
endif()

set(KCRAFT_RUN_LOGGED "${CMAKE_CURRENT_LIST_DIR}/run_logged.sh")

function(kcraft_verilate target)
  cmake_parse_arguments(V "" "TOP;PREFIX;ARGS_FILE" "SOURCES;ARGS;DEPENDS" ${ARGN})
  set(mdir "${CMAKE_CURRENT_BINARY_DIR}/${V_PREFIX}")
  set(archive "${mdir}/${V_PREFIX}__ALL.a")
  set(extra_args ${V_ARGS})
  # The models are compiled without the sanitizers even in a sanitizer build: Verilator guards variable
  # indices into arrays in the code it generates, so an out-of-range index from the RTL does not reach
  # memory, and the testbench code that touches a model (back door, DPI, drivers) is ours and instrumented.
  # Uninstrumented models (with vliw's decoder blocks left out of that run) took the sanitizer tests from
  # 27 to 18 minutes on the 2-core machine (docs/sanitizers.md).
  separate_arguments(extra_cxxflags UNIX_COMMAND "${KCRAFT_VERILATOR_CXXFLAGS}")
  foreach(flag IN LISTS extra_cxxflags)
    list(APPEND extra_args -CFLAGS ${flag})
  endforeach()
  if(V_ARGS_FILE)
    list(APPEND extra_args -f "${V_ARGS_FILE}")
  endif()
  add_custom_command(
    OUTPUT "${archive}" "${mdir}/${V_PREFIX}.h"
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${mdir}"
    # The inner make must not inherit the outer jobserver (it would fall back to -j1).
    # Its output (every compiler command line of the model) goes to a log, printed only on failure or
    # with KCRAFT_VERBOSE=1 (cmake/run_logged.sh).
    COMMAND "${CMAKE_COMMAND}" -E env MAKEFLAGS= sh "${KCRAFT_RUN_LOGGED}" "${mdir}.log"
            "${VERILATOR_BIN}" --cc --build -j ${KCRAFT_VERILATOR_JOBS}
            ${KCRAFT_VERILATOR_OPT_ARGS} --trace-fst
            -Wall ${KCRAFT_VERILATOR_SPLIT_ARGS}
            -CFLAGS "${KCRAFT_VERILATOR_CFLAGS}"
            -MAKEFLAGS "CXX=${KCRAFT_VERILATOR_CXX} OPT_FAST=${KCRAFT_VERILATOR_OPT_FAST} OPT_SLOW=${KCRAFT_VERILATOR_OPT_SLOW} OPT_GLOBAL=-O2 VM_PARALLEL_BUILDS=1 OBJCACHE=${KCRAFT_VERILATOR_OBJCACHE}"
            --prefix ${V_PREFIX} --top-module ${V_TOP} -Mdir "${mdir}"
            ${extra_args} ${V_SOURCES}
    DEPENDS ${V_SOURCES} ${V_ARGS_FILE} ${V_DEPENDS}
    COMMENT "Verilating ${V_TOP} as ${V_PREFIX}"
    VERBATIM)
  add_custom_target(${target}_build DEPENDS "${archive}")
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_build)
  target_include_directories(${target} SYSTEM INTERFACE "${mdir}")
  target_link_libraries(${target} INTERFACE "${archive}" kcraft_verilated)
endfunction()
