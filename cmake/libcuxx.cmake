# scopesim_libcuxx_include(<var> <CUDA include dirs>...): the directories that
# hold libcu++'s <cuda/atomic> (thread_scope, memory_order) for a host build; newer
# toolkits keep it under include/cccl. Used by the build and by the installed package.
function(scopesim_libcuxx_include var)
  set(dirs ${ARGN})
  foreach(dir IN LISTS ARGN)
    if(EXISTS "${dir}/cccl/cuda/atomic")
      list(PREPEND dirs "${dir}/cccl")
    endif()
  endforeach()
  set(${var} ${dirs} PARENT_SCOPE)
endfunction()
