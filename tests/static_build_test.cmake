# The statically linked scopesim command (SCOPESIM_STATIC, README), as it is
# built for a machine without the Debian packages: configure and build it in
# a tree of its own, check that it asks for no shared library, and that it
# prints what the dynamically linked command prints (`check --json`: every
# model's verdict, counts and findings). Run by ctest (tests/CMakeLists.txt)
# with -DSOURCE_DIR, -DWORK_DIR, -DGENERATOR, -DCXX, -DBUILD_TYPE, -DCUDA_ROOT,
# -DREADELF and -DDYNAMIC (the dynamically linked command).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/script_support.cmake)

# (The same build type as the dynamic command's: spin-assume compares a
# kernel's registers and stack, which its compiled code decides.)
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DSCOPESIM_STATIC=ON -DSCOPESIM_CUDA=OFF -DSCOPESIM_TESTS=OFF
    -DCUDAToolkit_ROOT=${CUDA_ROOT})
run(${CMAKE_COMMAND} --build "${WORK_DIR}" --target scopesim)
set(static "${WORK_DIR}/sim/scopesim")

# A static executable has no program interpreter and needs no shared library.
execute_process(COMMAND ${READELF} --program-headers --dynamic "${static}" OUTPUT_VARIABLE headers
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed (${rc}) on ${static}")
endif()
if(headers MATCHES "INTERP" OR headers MATCHES "NEEDED")
  message(FATAL_ERROR "${static} is not statically linked:\n${headers}")
endif()

# `command check --json`'s output, in `out` (a nonzero exit fails the test).
function(check_json command out)
  execute_process(COMMAND "${command}" check --json --no-schedules OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${command} check --json --no-schedules exited ${rc}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
check_json("${static}" out_static)
check_json("${DYNAMIC}" out_dynamic)
if(NOT out_static STREQUAL out_dynamic)
  file(WRITE "${WORK_DIR}/check-static.json" "${out_static}")
  file(WRITE "${WORK_DIR}/check-dynamic.json" "${out_dynamic}")
  message(FATAL_ERROR "check --json differs between the static and the dynamic command: "
                      "${WORK_DIR}/check-static.json, ${WORK_DIR}/check-dynamic.json")
endif()
string(LENGTH "${out_static}" length)
message(STATUS "static scopesim: no shared library; check --json identical to the dynamic command's (${length} bytes)")
