# scopesim_add_kernel(<target> <source>...)
#
# Compiles kernel sources written in the scopesim dialect (each defining a
# models::Model, registered or not) into <target>, usually a test, and links
# <target> to scopesim::api. The sources get -O1 -g1, which keeps the source
# lines of loads recoverable for reports (-g1: the line tables alone, quick
# to load; for a debugger, add -g to ${target}_scopesim_kernels' options
# after this call), and go in as object files, so a model's static
# registration (models::Registrar) is always linked. May be called again for
# the same target to add more sources.
function(scopesim_add_kernel target)
  if(ARGC LESS 2)
    message(FATAL_ERROR "scopesim_add_kernel(${target}): name at least one kernel source")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "scopesim_add_kernel: '${target}' is not a target; create it first")
  endif()
  set(kernels ${target}_scopesim_kernels)
  if(NOT TARGET ${kernels})
    add_library(${kernels} OBJECT)
    target_compile_features(${kernels} PUBLIC cxx_std_20)
    target_compile_options(${kernels} PRIVATE -O1 -g1)
    target_link_libraries(${kernels} PUBLIC scopesim::api)
    target_link_libraries(${target} PRIVATE ${kernels} scopesim::api)
  endif()
  target_sources(${kernels} PRIVATE ${ARGN})
endfunction()
