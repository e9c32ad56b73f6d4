# The example project as a user builds it: install scopesim into a prefix under
# the build directory, then configure, build and test tests/example_project
# against that prefix alone. Run by ctest (tests/CMakeLists.txt) with
# -DBUILD_DIR, -DSOURCE_DIR, -DWORK_DIR, -DGENERATOR, -DCXX, -DCUDA_ROOT.

# Runs a command; a nonzero exit fails the script, naming the command.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "failed (${rc}): ${cmd}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/example_project" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCUDAToolkit_ROOT=${CUDA_ROOT})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run(${CMAKE_CTEST_COMMAND} --test-dir "${WORK_DIR}/build" --output-on-failure)
