# The mcp.sdk_client fixture: `npm ci` in DIR (the build tree's copy of tests/mcp) unless the installed
# node_modules already matches package-lock.json (re-running the suite then costs nothing).
# Usage: cmake -DNPM=<npm> -DDIR=<dir> -P npm_ci.cmake
file(READ "${DIR}/package-lock.json" lock)
set(stamp "${DIR}/node_modules/.kcraft-installed-lock.json")
if(EXISTS "${stamp}")
  file(READ "${stamp}" installed)
  if(installed STREQUAL lock)
    message(STATUS "npm packages already installed in ${DIR}")
    return()
  endif()
endif()
execute_process(COMMAND "${NPM}" ci --no-audit --no-fund --prefer-offline WORKING_DIRECTORY "${DIR}"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "npm ci failed in ${DIR} (${result}): the npm registry must be reachable the first time")
endif()
file(WRITE "${stamp}" "${lock}")
