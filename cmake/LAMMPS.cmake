# Find LAMMPS for the plugin and the tests.
#  - LAMMPS_INSTALL_DIR + LAMMPS_SOURCE_DIR: use that install (bin/lmp,
#    lib/liblammps.so built with REAXFF, PLUGIN, MPI, shared) and that tree's headers.
#  - LAMMPS_SOURCE_DIR only: build that tree with scripts/build_lammps.sh.
#  - neither: fetch the pinned release LAMMPS_VERSION (scripts/get_lammps.sh:
#    4Jul2026, the default: the newest that passes the whole suite, or 4Feb2025)
#    and build it.
# Builds are cached under $REAXFF_CUDA_CACHE (default ~/.cache/reaxff-cuda),
# keyed by LAMMPS version and options, so only the first configure is slow.
set(_scripts ${PROJECT_SOURCE_DIR}/scripts)
# Run one of our scripts; its last line of output is the path it produced.
function(run_lammps_script script result)
  execute_process(COMMAND bash ${_scripts}/${script} ${ARGN}
                  OUTPUT_VARIABLE _out RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scripts/${script} failed (${_rc})")
  endif()
  string(REGEX REPLACE ".*\n" "" _out "${_out}")
  set(${result} "${_out}" PARENT_SCOPE)
endfunction()

set(LAMMPS_VERSION "4Jul2026" CACHE STRING
    "LAMMPS release fetched when LAMMPS_SOURCE_DIR is not given: 4Jul2026 or 4Feb2025")
set_property(CACHE LAMMPS_VERSION PROPERTY STRINGS 4Jul2026 4Feb2025)
# (fetched again, and LAMMPS built again, when LAMMPS_VERSION changes in a build folder)
if(NOT LAMMPS_SOURCE_DIR OR (LAMMPS_FETCHED_VERSION AND NOT LAMMPS_FETCHED_VERSION STREQUAL
                                                          LAMMPS_VERSION))
  run_lammps_script(get_lammps.sh _path ${LAMMPS_VERSION})
  set(LAMMPS_SOURCE_DIR "${_path}" CACHE PATH "" FORCE)
  set(LAMMPS_FETCHED_VERSION "${LAMMPS_VERSION}" CACHE INTERNAL "")
  set(LAMMPS_INSTALL_DIR "" CACHE PATH "" FORCE)
  unset(LAMMPS_EXECUTABLE CACHE)
  unset(LAMMPS_LIBRARY CACHE)
endif()
# A Kokkos source (e.g. lib/kokkos of LAMMPS's release tarball of the same version): the
# LAMMPS built here then has its KOKKOS package on Kokkos's Serial backend, and the
# plugin's styles are KOKKOS styles under -k on (cmake/LammpsKokkos.cmake).
set(LAMMPS_KOKKOS_SOURCE "" CACHE PATH
    "Kokkos source to build LAMMPS's KOKKOS package with (as its bundled Kokkos); empty: without")
set(LAMMPS_KOKKOS_ARCH "serial" CACHE STRING
    "That Kokkos's backend: serial, or a CUDA compute capability (e.g. 90) for CUDA + Serial")
# (a build folder whose LAMMPS we built with another Kokkos source, or none, builds again;
# build_lammps.sh names its installs lammps-install-*. An install named on the command
# line, which this folder did not build, is taken as it is: even one of build_lammps.sh's)
if(DEFINED LAMMPS_BUILT_KOKKOS_SOURCE AND LAMMPS_INSTALL_DIR MATCHES "/lammps-install-[^/]*$"
   AND NOT "${LAMMPS_BUILT_KOKKOS_SOURCE}" STREQUAL "${LAMMPS_KOKKOS_SOURCE} ${LAMMPS_KOKKOS_ARCH}")
  set(LAMMPS_INSTALL_DIR "" CACHE PATH "" FORCE)
  unset(LAMMPS_EXECUTABLE CACHE)
  unset(LAMMPS_LIBRARY CACHE)
endif()
if(NOT LAMMPS_INSTALL_DIR)
  message(STATUS "Building LAMMPS from ${LAMMPS_SOURCE_DIR} (cached after the first time)")
  set(LAMMPS_BUILT_KOKKOS_SOURCE "${LAMMPS_KOKKOS_SOURCE} ${LAMMPS_KOKKOS_ARCH}" CACHE INTERNAL "")
  set(_kokkos_arg)
  if(LAMMPS_KOKKOS_SOURCE)
    set(_kokkos_arg --kokkos=${LAMMPS_KOKKOS_SOURCE} --kokkos-arch=${LAMMPS_KOKKOS_ARCH})
  endif()
  run_lammps_script(build_lammps.sh _path ${_kokkos_arg} ${LAMMPS_SOURCE_DIR})
  set(LAMMPS_INSTALL_DIR "${_path}" CACHE PATH "" FORCE)
endif()

# (an install, or the folder LAMMPS was built in: lmp and liblammps at its top)
find_program(LAMMPS_EXECUTABLE lmp PATHS ${LAMMPS_INSTALL_DIR}/bin ${LAMMPS_INSTALL_DIR}
             NO_DEFAULT_PATH REQUIRED)
find_library(LAMMPS_LIBRARY lammps PATHS ${LAMMPS_INSTALL_DIR}/lib ${LAMMPS_INSTALL_DIR}/lib64
             ${LAMMPS_INSTALL_DIR} NO_DEFAULT_PATH REQUIRED)
if(NOT EXISTS ${LAMMPS_SOURCE_DIR}/src/REAXFF/pair_reaxff.h)
  message(FATAL_ERROR "LAMMPS_SOURCE_DIR=${LAMMPS_SOURCE_DIR} has no src/REAXFF/pair_reaxff.h")
endif()
message(STATUS "LAMMPS: ${LAMMPS_EXECUTABLE} (headers from ${LAMMPS_SOURCE_DIR}/src)")

add_library(lammps_for_plugin INTERFACE)
target_include_directories(lammps_for_plugin INTERFACE ${LAMMPS_SOURCE_DIR}/src
                                                       ${LAMMPS_SOURCE_DIR}/src/REAXFF)
target_compile_definitions(lammps_for_plugin INTERFACE LAMMPS_SMALLBIG)
target_link_libraries(lammps_for_plugin INTERFACE ${LAMMPS_LIBRARY} MPI::MPI_CXX)
