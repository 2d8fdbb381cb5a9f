# Finds the Kokkos that LAMMPS was built with, for cmake/LammpsKokkos.cmake (and
# unittest/kokkos_discovery, which tests this search). In: LAMMPS_LIBRARY,
# LAMMPS_EXECUTABLE, LAMMPS_INSTALL_DIR, LAMMPS_SOURCE_DIR, LAMMPS_BUILD_DIR,
# Kokkos_DIR / Kokkos_ROOT (optional), CMAKE_CUDA_COMPILER (optional). Out:
# _lammps_has_kokkos, _kokkos_dir (LAMMPS's Kokkos's CMake configuration, empty where
# none was found), _layout_define (LAMMPS's view layout), and, where no Kokkos half can
# be built, REAXFF_CUDA_KOKKOS_SUMMARY saying why and what to do.
set(_kokkos_dir "")
set(_lammps_has_kokkos OFF)

set(LAMMPS_BUILD_DIR "" CACHE PATH
    "The folder where LAMMPS was built: its bundled Kokkos's CMake configuration is there")
option(REAXFF_CUDA_REQUIRE_KOKKOS
       "Stop the configure when LAMMPS has KOKKOS but the plugin's KOKKOS half cannot be built" OFF)

execute_process(COMMAND ${CMAKE_NM} -D --defined-only ${LAMMPS_LIBRARY}
                COMMAND grep -m 1 KokkosLMP OUTPUT_VARIABLE _lammps_kokkos_symbol ERROR_QUIET)
if(NOT _lammps_kokkos_symbol)
  set(REAXFF_CUDA_KOKKOS_SUMMARY "KOKKOS styles (-k on): LAMMPS has no KOKKOS package"
      CACHE INTERNAL "")
  return()
endif()
set(_lammps_has_kokkos ON)

# What LAMMPS says of its own KOKKOS (lmp -h): Kokkos's version and backends, the
# precision and view layout. On a machine without a GPU driver, a liblammps built
# for CUDA loads with the toolkit's stub of the driver library.
set(_lmp_env)
execute_process(COMMAND sh -c "ldconfig -p | grep -q 'libcuda.so.1 '" RESULT_VARIABLE _no_driver)
if(_no_driver AND CMAKE_CUDA_COMPILER)
  get_filename_component(_cuda_bin ${CMAKE_CUDA_COMPILER} DIRECTORY)
  file(GLOB _stub ${_cuda_bin}/../lib64/stubs/libcuda.so
       ${_cuda_bin}/../targets/*/lib/stubs/libcuda.so)
  if(_stub)
    list(GET _stub 0 _stub)
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/cuda-stub)
    file(CREATE_LINK ${_stub} ${CMAKE_BINARY_DIR}/cuda-stub/libcuda.so.1 SYMBOLIC)
    get_filename_component(_cuda_lib ${_stub} DIRECTORY)
    set(_lmp_env "LD_LIBRARY_PATH=${CMAKE_BINARY_DIR}/cuda-stub:${_cuda_lib}/..:$ENV{LD_LIBRARY_PATH}")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${_lmp_env} ${LAMMPS_EXECUTABLE} -h
                OUTPUT_VARIABLE _lmp_help ERROR_QUIET TIMEOUT 120)
set(_lammps_kokkos_version "")
if(_lmp_help MATCHES "Kokkos library version: ([0-9]+)\\.([0-9]+)\\.([0-9]+)")
  set(_lammps_kokkos_version "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
endif()
set(_lammps_kokkos_api "")
if(_lmp_help MATCHES "KOKKOS package API:([A-Za-z ]*)")
  string(TOUPPER "${CMAKE_MATCH_1}" _api)
  string(REGEX MATCHALL "[A-Z]+" _lammps_kokkos_api "${_api}")
  list(SORT _lammps_kokkos_api)
endif()
if(_lmp_help MATCHES "KOKKOS package precision: ([a-z]+)" AND NOT CMAKE_MATCH_1 STREQUAL "double")
  message(FATAL_ERROR "LAMMPS's KOKKOS package is built in ${CMAKE_MATCH_1} precision; reaxff/gpu "
                      "reads its positions and forces in double: build LAMMPS with "
                      "-DKOKKOS_PREC=double (the default)")
endif()
set(_layout_define)
if(_lmp_help MATCHES "KOKKOS package view layout: ([a-z]+)")
  string(TOUPPER ${CMAKE_MATCH_1} _layout)
  set(_layout_define LMP_KOKKOS_LAYOUT_${_layout})
endif()

# The Kokkos configurations that may be LAMMPS's, in order: one named by Kokkos_DIR or
# Kokkos_ROOT, one installed beside LAMMPS, then those of the folders LAMMPS may have
# been built in (LAMMPS's bundled Kokkos is not installed): LAMMPS_BUILD_DIR,
# LAMMPS_INSTALL_DIR when it is one, the folder scripts/build_lammps.sh recorded, and
# build* folders of LAMMPS's source tree (where LAMMPS's own guide builds)
set(_lammps_build_dirs ${LAMMPS_BUILD_DIR})
if(EXISTS ${LAMMPS_INSTALL_DIR}/CMakeCache.txt)
  list(APPEND _lammps_build_dirs ${LAMMPS_INSTALL_DIR})
endif()
foreach(_lib lib lib64)
  set(_record ${LAMMPS_INSTALL_DIR}/${_lib}/cmake/reaxff-cuda/lammps-build-dir)
  if(EXISTS ${_record})
    file(STRINGS ${_record} _dir LIMIT_COUNT 1)
    list(APPEND _lammps_build_dirs ${_dir})
  endif()
endforeach()
file(GLOB _source_builds LIST_DIRECTORIES true ${LAMMPS_SOURCE_DIR}/build*)
list(APPEND _lammps_build_dirs ${_source_builds})
set(_candidates)
if(Kokkos_DIR)
  list(APPEND _candidates ${Kokkos_DIR})
endif()
foreach(_prefix ${Kokkos_ROOT} ${LAMMPS_INSTALL_DIR})
  file(GLOB _c LIST_DIRECTORIES true ${_prefix}/lib*/cmake/Kokkos)
  list(APPEND _candidates ${_c})
endforeach()
foreach(_dir IN LISTS _lammps_build_dirs)
  list(APPEND _candidates ${_dir}/lib/kokkos)
endforeach()
list(REMOVE_DUPLICATES _candidates)
# the first whose version and backends are those lmp -h names (the first found where
# lmp -h cannot run here)
set(_rejected "")
foreach(_c IN LISTS _candidates)
  if(NOT EXISTS ${_c}/KokkosConfigVersion.cmake OR NOT EXISTS ${_c}/KokkosConfigCommon.cmake)
    continue()
  endif()
  # (set or SET, as Kokkos's versions write it)
  file(STRINGS ${_c}/KokkosConfigVersion.cmake _v REGEX "^[Ss][Ee][Tt]\\(PACKAGE_VERSION \"[0-9]"
       LIMIT_COUNT 1)
  string(REGEX REPLACE ".*\"(.*)\".*" "\\1" _v "${_v}")
  string(REGEX REPLACE "\\.0*([0-9])" ".\\1" _v "${_v}")
  file(STRINGS ${_c}/KokkosConfigCommon.cmake _d REGEX "^[Ss][Ee][Tt]\\(Kokkos_DEVICES ")
  string(REGEX REPLACE "^[Ss][Ee][Tt]\\(Kokkos_DEVICES (.*)\\)$" "\\1" _d "${_d}")
  string(REGEX MATCHALL "[A-Z]+" _d "${_d}")
  list(SORT _d)
  if(_lammps_kokkos_version AND NOT (_v VERSION_EQUAL _lammps_kokkos_version
                                     AND "${_d}" STREQUAL "${_lammps_kokkos_api}"))
    list(APPEND _rejected "${_c} (Kokkos ${_v}, ${_d})")
    continue()
  endif()
  set(_kokkos_dir ${_c})
  break()
endforeach()

if(NOT _kokkos_dir)
  set(_why "LAMMPS (${LAMMPS_LIBRARY}) has the KOKKOS package")
  if(_lammps_kokkos_version)
    string(APPEND _why " (Kokkos ${_lammps_kokkos_version}, ${_lammps_kokkos_api})")
  endif()
  string(APPEND _why ", but its Kokkos was not found: no Kokkos CMake configuration beside "
                     "LAMMPS_INSTALL_DIR nor in a LAMMPS build folder")
  if(_rejected)
    list(JOIN _rejected ", " _rejected)
    string(APPEND _why " (not LAMMPS's: ${_rejected})")
  endif()
  set(_fix "Name the folder where that LAMMPS was built (-DLAMMPS_BUILD_DIR=/path/to/lammps/build, "
           "for LAMMPS's bundled Kokkos) or its installed Kokkos (-DKokkos_ROOT=/path)")
  string(JOIN "" _fix ${_fix})
  if(REAXFF_CUDA_REQUIRE_KOKKOS)
    message(FATAL_ERROR "${_why}. ${_fix}.")
  endif()
  message(WARNING "${_why}: the plugin's KOKKOS styles are NOT built, and under -k on LAMMPS will "
                  "copy the atoms to the host and back for reaxff/gpu every step. ${_fix}.")
  set(REAXFF_CUDA_KOKKOS_SUMMARY
      "KOKKOS styles (-k on): NOT BUILT: ${_why}. ${_fix}" CACHE INTERNAL "")
  return()
endif()
if(NOT _lammps_kokkos_version)
  message(WARNING "Could not run '${LAMMPS_EXECUTABLE} -h' here to check that ${_kokkos_dir} is "
                  "LAMMPS's own Kokkos; make sure it is (-DKokkos_DIR=... names another)")
endif()
