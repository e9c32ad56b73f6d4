# The statically linked scopesim command (scopesim-static, README), as it is
# carried to a machine without the Debian packages: check that it asks for no
# shared library, and that it prints what the dynamically linked command
# prints (`check --json`: every model's verdict, counts and findings); both
# are linked from the same objects (sim/CMakeLists.txt). Run by ctest
# (tests/CMakeLists.txt) with -DSTATIC, -DDYNAMIC (the two commands),
# -DWORK_DIR and -DREADELF; with -DMISSING (the static archives not found)
# in place of -DSTATIC where scopesim-static could not be built.
cmake_minimum_required(VERSION 3.25)

if(DEFINED MISSING)
  message(FATAL_ERROR "scopesim-static was not built: ${MISSING} not found; install the Debian -dev packages "
                      "that ship them (README, \"Dependencies and why\"), then configure again")
endif()

# A static executable has no program interpreter and needs no shared library.
execute_process(COMMAND ${READELF} --program-headers --dynamic "${STATIC}" OUTPUT_VARIABLE headers
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed (${rc}) on ${STATIC}")
endif()
if(headers MATCHES "INTERP" OR headers MATCHES "NEEDED")
  message(FATAL_ERROR "${STATIC} is not statically linked:\n${headers}")
endif()

# `command check --json`'s output, in `out` (a nonzero exit fails the test).
function(check_json command out)
  execute_process(COMMAND "${command}" check --json --no-schedules OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${command} check --json --no-schedules exited ${rc}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
check_json("${STATIC}" out_static)
check_json("${DYNAMIC}" out_dynamic)
if(NOT out_static STREQUAL out_dynamic)
  file(MAKE_DIRECTORY "${WORK_DIR}")
  file(WRITE "${WORK_DIR}/check-static.json" "${out_static}")
  file(WRITE "${WORK_DIR}/check-dynamic.json" "${out_dynamic}")
  message(FATAL_ERROR "check --json differs between the static and the dynamic command: "
                      "${WORK_DIR}/check-static.json, ${WORK_DIR}/check-dynamic.json")
endif()
string(LENGTH "${out_static}" length)
message(STATUS "static scopesim: no shared library; check --json identical to the dynamic command's (${length} bytes)")
