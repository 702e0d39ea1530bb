# Platforms: each one is a folder in each room (rtl/<p>/, isa/<p>/, tasks/<p>/, tb/<p>/, tests/<p>/) and
# one registration in tb/<p>/CMakeLists.txt. Nothing outside those folders names a platform
# (docs/platforms.md §6).

# kcraft_add_platform_subdirectories([EXCEPT <folder>...]): add_subdirectory() for every folder of the
# current source directory that has a CMakeLists.txt, in name order, except the room's shared folders.
# A new platform's folder is picked up when CMake next configures (CONFIGURE_DEPENDS).
function(kcraft_add_platform_subdirectories)
  cmake_parse_arguments(A "" "" "EXCEPT" ${ARGN})
  file(GLOB lists CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*/CMakeLists.txt")
  list(SORT lists)
  foreach(file IN LISTS lists)
    get_filename_component(dir "${file}" DIRECTORY)
    get_filename_component(folder "${dir}" NAME)
    if(NOT folder IN_LIST A_EXCEPT)
      add_subdirectory("${folder}")
    endif()
  endforeach()
endfunction()

# kcraft_register_platform(<name> FACTORY <qualified function> LIBRARY <target> [DEFAULT]): the one
# registration of a platform, in its tb/<name>/CMakeLists.txt. The factory is declared in the generated
# registry as `std::unique_ptr<kcraft::Platform> <factory>();` and defined by <target>. DEFAULT makes it
# the platform commands use when none is named (listed first); at most one platform may say so.
function(kcraft_register_platform name)
  cmake_parse_arguments(P "DEFAULT" "FACTORY;LIBRARY" "" ${ARGN})
  if(NOT P_FACTORY OR NOT P_LIBRARY)
    message(FATAL_ERROR "kcraft_register_platform(${name}): FACTORY and LIBRARY are required")
  endif()
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "kcraft_register_platform(${name}): a platform name is lower_snake_case")
  endif()
  get_property(names GLOBAL PROPERTY KCRAFT_PLATFORM_NAMES)
  if(name IN_LIST names)
    message(FATAL_ERROR "kcraft_register_platform(${name}): registered twice")
  endif()
  if(P_DEFAULT)
    get_property(default GLOBAL PROPERTY KCRAFT_DEFAULT_PLATFORM)
    if(default)
      message(FATAL_ERROR "kcraft_register_platform(${name}): ${default} is already the DEFAULT platform")
    endif()
    set_property(GLOBAL PROPERTY KCRAFT_DEFAULT_PLATFORM ${name})
  endif()
  set_property(GLOBAL APPEND PROPERTY KCRAFT_PLATFORM_NAMES ${name})
  set_property(GLOBAL PROPERTY KCRAFT_PLATFORM_${name}_FACTORY ${P_FACTORY})
  set_property(GLOBAL PROPERTY KCRAFT_PLATFORM_${name}_LIBRARY ${P_LIBRARY})
endfunction()

# kcraft_platform_registry(<target>): the library holding the registry (tb/common/platform_registry.cpp)
# and the generated list of every platform registered so far; it links each platform's library.
function(kcraft_platform_registry target)
  get_property(names GLOBAL PROPERTY KCRAFT_PLATFORM_NAMES)
  get_property(default GLOBAL PROPERTY KCRAFT_DEFAULT_PLATFORM)
  set(declarations "")
  set(entries "")
  set(libraries "")
  foreach(name IN LISTS names)
    get_property(factory GLOBAL PROPERTY KCRAFT_PLATFORM_${name}_FACTORY)
    get_property(library GLOBAL PROPERTY KCRAFT_PLATFORM_${name}_LIBRARY)
    if(factory MATCHES "^(.+)::([A-Za-z_][A-Za-z0-9_]*)$")
      string(APPEND declarations
             "namespace ${CMAKE_MATCH_1} {\nstd::unique_ptr<::kcraft::Platform> ${CMAKE_MATCH_2}();\n}\n")
    else()
      string(APPEND declarations "std::unique_ptr<::kcraft::Platform> ${factory}();\n")
    endif()
    if(name STREQUAL default)
      set(is_default true)
    else()
      set(is_default false)
    endif()
    string(APPEND entries "      {\"${name}\", ${is_default}, [] { return ${factory}(); }},\n")
    list(APPEND libraries ${library})
  endforeach()
  set(KCRAFT_PLATFORM_DECLARATIONS "${declarations}")
  set(KCRAFT_PLATFORM_ENTRIES "${entries}")
  set(source "${CMAKE_CURRENT_BINARY_DIR}/${target}_list.cpp")
  configure_file("${KCRAFT_PLATFORM_LIST_TEMPLATE}" "${source}" @ONLY)
  kcraft_eval_identities(identity_source "${names}")
  add_library(${target} "${KCRAFT_PLATFORM_REGISTRY_SOURCE}" "${source}" "${identity_source}"
                        "${CMAKE_SOURCE_DIR}/tb/common/eval_identity.cpp")
  target_include_directories(${target} PUBLIC "${CMAKE_SOURCE_DIR}")
  target_link_libraries(${target} PUBLIC kcraft_tb_common ${libraries} PRIVATE fmt::fmt kcraft_warnings)
endfunction()

# kcraft_eval_identities(<out var> <platform names>): the generated source that embeds each platform's
# evaluation identity (cmake/KcraftEvalIdentity.cmake; tb/common/eval_identity.h), recomputed at build time
# whenever a file of rtl/, isa/, tasks/ or tb/ changes. The script also writes <build>/eval_identity.json.
function(kcraft_eval_identities out_var names)
  set(cpp "${CMAKE_CURRENT_BINARY_DIR}/eval_identity_list.cpp")
  set(json "${CMAKE_BINARY_DIR}/eval_identity.json")
  set(args "${CMAKE_BINARY_DIR}/eval_identity_args.cmake")
  find_program(KCRAFT_IDENTITY_VERILATOR verilator)
  set(verilator_version "no verilator")
  if(KCRAFT_IDENTITY_VERILATOR)
    execute_process(COMMAND "${KCRAFT_IDENTITY_VERILATOR}" --version OUTPUT_VARIABLE verilator_version
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  set(tools "kcraft ${PROJECT_VERSION}; ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}; \
${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} ${KCRAFT_SANITIZER_FLAGS}; ${verilator_version}; \
${KCRAFT_VERILATOR_OPT_ARGS} ${KCRAFT_VERILATOR_CFLAGS} ${KCRAFT_VERILATOR_OPT_FAST} ${KCRAFT_VERILATOR_OPT_SLOW} \
${KCRAFT_VERILATOR_CXXFLAGS}; models compiled by ${KCRAFT_VERILATOR_CXX}")
  string(REPLACE "\\" "\\\\" tools "${tools}")
  string(REPLACE "\"" "\\\"" tools "${tools}")
  file(CONFIGURE OUTPUT "${args}" CONTENT "set(KCRAFT_EVAL_PLATFORMS \"${names}\")\nset(KCRAFT_EVAL_TOOLS \"${tools}\")\n")
  set(inputs "")
  foreach(room rtl isa tasks tb)
    file(GLOB_RECURSE room_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${room}/*")
    list(APPEND inputs ${room_files})
  endforeach()
  add_custom_command(
    OUTPUT "${cpp}" "${json}"
    COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${CMAKE_SOURCE_DIR}" "-DARGS_FILE=${args}" "-DOUT_CPP=${cpp}"
            "-DOUT_JSON=${json}" -P "${KCRAFT_EVAL_IDENTITY_SCRIPT}"
    DEPENDS "${KCRAFT_EVAL_IDENTITY_SCRIPT}" "${args}" ${inputs}
    COMMENT "Evaluation identities of the platforms")
  # Not in a unity batch: the batch's source would include it before the command has written it.
  set_source_files_properties("${cpp}" PROPERTIES GENERATED ON SKIP_UNITY_BUILD_INCLUSION ON)
  set(${out_var} "${cpp}" PARENT_SCOPE)
endfunction()

set(KCRAFT_EVAL_IDENTITY_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/KcraftEvalIdentity.cmake")
set(KCRAFT_PLATFORM_LIST_TEMPLATE "${CMAKE_CURRENT_LIST_DIR}/platform_list.cpp.in")
set(KCRAFT_PLATFORM_REGISTRY_SOURCE "${CMAKE_SOURCE_DIR}/tb/common/platform_registry.cpp")

# kcraft_generate_host_regs(): the host register maps, written by `kcraft_isagen host-regs` at build time
# (never committed) into build/generated/:
#   rtl/common/host_regs.yaml  -> rtl/kc_host_pkg.sv (${KCRAFT_HOST_PKG}) and tb/common/host_regs.h
#   rtl/<p>/<p>_host_regs.yaml -> rtl/<p>_pkg.sv (${KCRAFT_<P>_HOST_PKG}) and tb/<p>/<p>_regs.h
# The target kcraft_host_regs_gen writes them all; whatever reads them depends on it (kcraft_tb_common and
# every testbench library do, and include build/generated). A new platform's YAML is picked up when CMake
# next configures. The generator rewrites only files whose content changed.
function(kcraft_generate_host_regs)
  set(root "${CMAKE_BINARY_DIR}/generated")
  file(GLOB platform_yamls CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/rtl/*/*_host_regs.yaml")
  list(SORT platform_yamls)
  set(stamps "")
  foreach(yaml "${CMAKE_SOURCE_DIR}/rtl/common/host_regs.yaml" ${platform_yamls})
    get_filename_component(folder "${yaml}" DIRECTORY)
    get_filename_component(p "${folder}" NAME)
    if(p STREQUAL "common")
      set(sv "${root}/rtl/kc_host_pkg.sv")
      set(cpp "${root}/tb/common/host_regs.h")
      set(var KCRAFT_HOST_PKG)
    else()
      string(TOUPPER "${p}" P)
      set(sv "${root}/rtl/${p}_pkg.sv")
      set(cpp "${root}/tb/${p}/${p}_regs.h")
      set(var KCRAFT_${P}_HOST_PKG)
    endif()
    file(RELATIVE_PATH source_name "${CMAKE_SOURCE_DIR}" "${yaml}")
    set(stamp "${root}/rtl/${p}_host_regs.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${sv}" "${cpp}"
      COMMAND kcraft_isagen host-regs "${yaml}" --sv "${sv}" --cpp "${cpp}" --source-name "${source_name}"
              --stamp "${stamp}"
      DEPENDS kcraft_isagen "${yaml}"
      COMMENT "Generating the ${p} host register map"
      VERBATIM)
    list(APPEND stamps "${stamp}")
    set(${var} "${sv}" CACHE INTERNAL "")
  endforeach()
  add_custom_target(kcraft_host_regs_gen DEPENDS ${stamps})
endfunction()

# kcraft_verilate_platform(<p> SOURCES <sv files, packages first> DEPENDS <targets>), in rtl/<p>/: one
# Verilated model of <p>_top per hardware configuration in rtl/<p>/configs/*.yaml, whose `build:`
# parameters become -G overrides. Targets rtl_<p>_<config> (INTERFACE libraries carrying the models);
# cache variables KCRAFT_<P>_CONFIGS (the configuration names) and KCRAFT_<P>_RTL_SOURCES.
# KCRAFT_HW_CONFIGS (a list of names) builds only those configurations, e.g. for a speed study.
# VERILATOR_ARGS <options> adds Verilator options of this platform's models alone (after the project's
# KCRAFT_VERILATOR_OPT_ARGS), for an optimisation measured on its RTL (docs/simulation-speed.md).
function(kcraft_verilate_platform p)
  cmake_parse_arguments(A "" "" "SOURCES;DEPENDS;VERILATOR_ARGS" ${ARGN})
  string(TOUPPER "${p}" P)
  file(GLOB config_files CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/configs/*.yaml")
  list(SORT config_files)
  if(KCRAFT_HW_CONFIGS)
    list(FILTER config_files INCLUDE REGEX "/(${KCRAFT_HW_CONFIGS_REGEX})\\.yaml$")
  endif()
  set(KCRAFT_${P}_RTL_SOURCES ${A_SOURCES} CACHE INTERNAL "${p} RTL, packages first")
  set(configs "")
  foreach(cfg_file IN LISTS config_files)
    get_filename_component(cfg "${cfg_file}" NAME_WE)
    set(vc "${CMAKE_CURRENT_BINARY_DIR}/${cfg}.vc")
    add_custom_command(
      OUTPUT "${vc}"
      COMMAND kcraft_isagen verilator-args "${cfg_file}" "${vc}"
      DEPENDS kcraft_isagen "${cfg_file}"
      COMMENT "Verilator parameters of ${p}/${cfg}")
    kcraft_verilate(rtl_${p}_${cfg}
      TOP ${p}_top
      PREFIX V${p}_${cfg}
      SOURCES ${A_SOURCES}
      ARGS_FILE "${vc}"
      ARGS ${A_VERILATOR_ARGS}
      DEPENDS ${A_DEPENDS})
    list(APPEND configs ${cfg})
  endforeach()
  set(KCRAFT_${P}_CONFIGS ${configs} CACHE INTERNAL "${p} hardware configurations")
endfunction()

# kcraft_add_testbench(<target> PLATFORM <p> HW_CLASS <class in kcraft::<p>> HW_HEADER <header>
#                      SOURCES <files> LINK <libraries>), in tb/<p>/: the platform's testbench library.
# For each Verilated configuration it instantiates tb::VerilatedDriver (tb/common/verilated_driver.h) for
# the model V<p>_<config> and HW_CLASS, and generates the factory `<p>_hw_configs()` /
# `make_<p>_hw(config)` declared in HW_HEADER.
set(KCRAFT_TESTBENCH_TEMPLATES "${CMAKE_SOURCE_DIR}/tb/common")
function(kcraft_add_testbench target)
  cmake_parse_arguments(A "" "PLATFORM;HW_CLASS;HW_HEADER" "SOURCES;LINK" ${ARGN})
  string(TOUPPER "${A_PLATFORM}" P)
  set(KCRAFT_PLATFORM ${A_PLATFORM})
  set(KCRAFT_HW_CLASS ${A_HW_CLASS})
  set(KCRAFT_HW_HEADER ${A_HW_HEADER})
  set(hw_sources "")
  set(factory_decls "")
  set(factory_cases "")
  set(config_names "")
  foreach(cfg IN LISTS KCRAFT_${P}_CONFIGS)
    set(KCRAFT_CONFIG ${cfg})
    set(source "${CMAKE_CURRENT_BINARY_DIR}/${A_PLATFORM}_driver_${cfg}.cpp")
    configure_file("${KCRAFT_TESTBENCH_TEMPLATES}/verilated_driver_config.cpp.in" "${source}" @ONLY)
    list(APPEND hw_sources "${source}")
    string(APPEND factory_decls
           "std::unique_ptr<${A_HW_CLASS}> make_${A_PLATFORM}_hw_${cfg}(const std::string& name);\n")
    string(APPEND factory_cases "  if (model == \"${cfg}\") return make_${A_PLATFORM}_hw_${cfg}(config);\n")
    string(APPEND config_names "\"${cfg}\", ")
  endforeach()
  set(KCRAFT_FACTORY_DECLS "${factory_decls}")
  set(KCRAFT_FACTORY_CASES "${factory_cases}")
  set(KCRAFT_CONFIG_NAMES "${config_names}")
  set(factory "${CMAKE_CURRENT_BINARY_DIR}/${A_PLATFORM}_hw_factory.cpp")
  configure_file("${KCRAFT_TESTBENCH_TEMPLATES}/hw_factory.cpp.in" "${factory}" @ONLY)

  add_library(${target} ${A_SOURCES} ${hw_sources} "${factory}")
  target_include_directories(${target} PUBLIC "${CMAKE_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/generated")
  add_dependencies(${target} kcraft_host_regs_gen)  # tb/<p>/<p>_regs.h
  target_link_libraries(${target} PUBLIC kcraft_tb_common ${A_LINK} kcraft_isa systemc
                                  PRIVATE fmt::fmt kcraft_warnings)
  foreach(cfg IN LISTS KCRAFT_${P}_CONFIGS)
    target_link_libraries(${target} PUBLIC rtl_${A_PLATFORM}_${cfg})
  endforeach()
  # Verilated headers trip -Wold-style-cast/-Wshadow; they are not ours.
  set_source_files_properties(${hw_sources} PROPERTIES COMPILE_OPTIONS "-Wno-old-style-cast;-Wno-shadow")

  # What tb/common/variant_plugin/ needs to build a hardware variant of this platform the way this build
  # builds its configurations (`kcraft explore`, docs/explore.md): the RTL, the Verilator and C++ settings,
  # and the testbench's include directories and definitions.
  get_property(builtin_configs CACHE KCRAFT_${P}_CONFIGS PROPERTY VALUE)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  # A list (the sanitizer build's flags) would reach the plugin's compile line with its ';' separators.
  list(JOIN KCRAFT_SANITIZER_FLAGS " " sanitizer_flags)
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/variants/${A_PLATFORM}.json" CONTENT "{
  \"platform\": \"${A_PLATFORM}\",
  \"hw_class\": \"${A_HW_CLASS}\",
  \"hw_header\": \"${A_HW_HEADER}\",
  \"builtin_configs\": \"${builtin_configs}\",
  \"source_dir\": \"${CMAKE_SOURCE_DIR}\",
  \"isagen\": \"$<TARGET_FILE:kcraft_isagen>\",
  \"rtl_sources\": \"${KCRAFT_${P}_RTL_SOURCES}\",
  \"include_dirs\": \"$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>\",
  \"compile_definitions\": \"$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>\",
  \"cxx_compiler\": \"${CMAKE_CXX_COMPILER}\",
  \"cxx_flags\": \"${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} ${sanitizer_flags}\",
  \"verilator_opt_args\": \"${KCRAFT_VERILATOR_OPT_ARGS}\",
  \"verilator_cflags\": \"${KCRAFT_VERILATOR_CFLAGS}\",
  \"verilator_opt_fast\": \"${KCRAFT_VERILATOR_OPT_FAST}\",
  \"verilator_opt_slow\": \"${KCRAFT_VERILATOR_OPT_SLOW}\",
  \"verilator_cxx\": \"${KCRAFT_VERILATOR_CXX}\"
}
")
endfunction()
