# scopesim as a CMake package: namespaced targets (scopesim::api, ...), the same
# in this build and after find_package(scopesim), and the rules that install
# the libraries, the headers (under include/scopesim) and the package files.
include(CMakePackageConfigHelpers)

set(SCOPESIM_PACKAGE_LIBRARIES core fiber model engine report dialect api)
foreach(lib IN LISTS SCOPESIM_PACKAGE_LIBRARIES ITEMS models)
  set_target_properties(scopesim_${lib} PROPERTIES EXPORT_NAME ${lib})
  add_library(scopesim::${lib} ALIAS scopesim_${lib})
endforeach()
list(TRANSFORM SCOPESIM_PACKAGE_LIBRARIES PREPEND scopesim_)

set(SCOPESIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/scopesim)
install(TARGETS ${SCOPESIM_PACKAGE_LIBRARIES} scopesim_models EXPORT scopesimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/scopesim/models)
install(DIRECTORY sim/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scopesim/sim FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY models/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scopesim/models FILES_MATCHING PATTERN "*.hpp")
install(FILES gpu/cuda_host.cuh DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scopesim/gpu)
install(EXPORT scopesimTargets NAMESPACE scopesim:: DESTINATION ${SCOPESIM_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/scopesimConfig.cmake.in ${PROJECT_BINARY_DIR}/scopesimConfig.cmake
                              INSTALL_DESTINATION ${SCOPESIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/scopesimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/scopesimConfig.cmake ${PROJECT_BINARY_DIR}/scopesimConfigVersion.cmake
              cmake/libcuxx.cmake cmake/scopesim_add_kernel.cmake
        DESTINATION ${SCOPESIM_INSTALL_CMAKEDIR})

include(cmake/scopesim_add_kernel.cmake)
