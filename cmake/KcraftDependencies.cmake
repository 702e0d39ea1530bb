# Third-party libraries, all from Debian bookworm packages (scripts/setup.sh installs them).
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(CURL REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)  # SHA-256 of the evaluation cache's keys

# libsystemc-dev ships no CMake package: headers in /usr/include, library in the multiarch dir.
find_path(SYSTEMC_INCLUDE_DIR systemc.h REQUIRED)
find_library(SYSTEMC_LIBRARY systemc REQUIRED)
add_library(systemc INTERFACE)
target_include_directories(systemc SYSTEM INTERFACE "${SYSTEMC_INCLUDE_DIR}")
# libsystemc exports sc_api_version_2_3_4_cxx201703L; pin the matching macro explicitly.
target_compile_definitions(systemc INTERFACE SC_CPLUSPLUS=201703L)
# Every executable that links SystemC gets the sc_main the shared library refers to: one archive member,
# linked after the library, so the linker takes it once per executable (and never into a unity batch).
add_library(kcraft_sc_main_stub STATIC "${CMAKE_SOURCE_DIR}/tb/common/sc_main_stub.cpp")
target_include_directories(kcraft_sc_main_stub SYSTEM PRIVATE "${SYSTEMC_INCLUDE_DIR}")
target_compile_definitions(kcraft_sc_main_stub PRIVATE SC_CPLUSPLUS=201703L)
target_link_libraries(systemc INTERFACE "${SYSTEMC_LIBRARY}" kcraft_sc_main_stub)

# Only the test suite needs these (scripts/setup.sh installs them for the test command).
if(KCRAFT_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(benchmark REQUIRED)
endif()
