# What the tests run as CMake scripts (`cmake -P`) share.

# Runs a command; a nonzero exit fails the script, naming the command.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "failed (${rc}): ${cmd}")
  endif()
endfunction()
