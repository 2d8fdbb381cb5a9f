# Whether the LAMMPS we build against has its KOKKOS package, where its Kokkos
# is, and that it fits the plugin's KOKKOS half (src/REAXFF_CUDA/KOKKOS/):
# sets _reaxff_cuda_kokkos_source, REAXFF_CUDA_KOKKOS_SUMMARY (a line of the
# build summary) and, with KOKKOS, the object library reaxff_gpu_kokkos that
# the plugin links.
#
# LAMMPS has KOKKOS when liblammps defines KokkosLMP. Its Kokkos is found as
#  - installed beside LAMMPS (LAMMPS_INSTALL_DIR/lib*/cmake/Kokkos: a Kokkos
#    built on its own, EXTERNAL_KOKKOS), or Kokkos_DIR / Kokkos_ROOT if given;
#  - else in the folder where LAMMPS was built, for LAMMPS's bundled Kokkos,
#    which is linked into liblammps and not installed: LAMMPS_BUILD_DIR, or
#    LAMMPS_INSTALL_DIR itself when it is a build folder, the folder that
#    scripts/build_lammps.sh recorded in the install, or build* in LAMMPS's tree;
#    the first whose version and backends are those `lmp -h` names.
# The plugin compiles against that Kokkos's headers and never links its
# libraries: liblammps holds (or loads) the one Kokkos of the process.
# Not found: a warning, the summary says the KOKKOS half is not built and how
# to build it (an error with REAXFF_CUDA_REQUIRE_KOKKOS). LAMMPS's KOKKOS not in
# double precision, or a Kokkos for a CUDA architecture the plugin is not built
# for is a configure error; the KOKKOS half is compiled with Kokkos's C++ standard
# and LAMMPS's view layout.
set(_reaxff_cuda_kokkos_source ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/kokkos_atoms_none.cpp)
set(REAXFF_CUDA_KOKKOS OFF CACHE INTERNAL "")
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
set(_kokkos_dir "")
set(_rejected "")
foreach(_c IN LISTS _candidates)
  if(NOT EXISTS ${_c}/KokkosConfigVersion.cmake OR NOT EXISTS ${_c}/KokkosConfigCommon.cmake)
    continue()
  endif()
  file(STRINGS ${_c}/KokkosConfigVersion.cmake _v REGEX "^set\\(PACKAGE_VERSION \"[0-9]" LIMIT_COUNT 1)
  string(REGEX REPLACE ".*\"(.*)\".*" "\\1" _v "${_v}")
  string(REGEX REPLACE "\\.0*([0-9])" ".\\1" _v "${_v}")
  file(STRINGS ${_c}/KokkosConfigCommon.cmake _d REGEX "^set\\(Kokkos_DEVICES ")
  string(REGEX REPLACE "^set\\(Kokkos_DEVICES (.*)\\)$" "\\1" _d "${_d}")
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
           "for LAMMPS's bundled Kokkos) or its installed Kokkos (-DKokkos_ROOT=/path)"
           "")
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
# (the plugin needs no GNU extensions; Kokkos forbids them and warns otherwise)
set(CMAKE_CXX_EXTENSIONS OFF)
set(Kokkos_DIR ${_kokkos_dir} CACHE PATH "LAMMPS's Kokkos (its CMake configuration)" FORCE)
find_package(Kokkos CONFIG REQUIRED QUIET)

kokkos_check(DEVICES CUDA RETURN_VALUE _kokkos_cuda)
if(_kokkos_cuda AND NOT CMAKE_CUDA_COMPILER)
  message(WARNING "LAMMPS has KOKKOS for CUDA, but no CUDA compiler was found: reaxff/gpu runs "
                  "as a host style under -k on (LAMMPS copies the atoms to the host for it)")
  set(REAXFF_CUDA_KOKKOS_SUMMARY
      "KOKKOS styles (-k on): NOT BUILT: LAMMPS's Kokkos is for CUDA and no CUDA compiler was found"
      CACHE INTERNAL "")
  return()
endif()
# Kokkos takes one CUDA architecture: the plugin's CUDA driver must have code for it
set(_kokkos_sm "")
if(_kokkos_cuda)
  list(GET Kokkos_CUDA_ARCHITECTURES 0 _kokkos_sm)
  set(_ours "")
  foreach(_a IN LISTS CMAKE_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "-(real|virtual)$" "" _a "${_a}")
    list(APPEND _ours ${_a})
  endforeach()
  if(NOT _kokkos_sm IN_LIST _ours)
    message(FATAL_ERROR "LAMMPS's Kokkos is built for sm_${_kokkos_sm} (${Kokkos_ARCH}), which "
                        "CMAKE_CUDA_ARCHITECTURES (${CMAKE_CUDA_ARCHITECTURES}) lacks: add "
                        "${_kokkos_sm} to it (e.g. -DCMAKE_CUDA_ARCHITECTURES=${_kokkos_sm}) in a "
                        "fresh build folder")
  endif()
endif()

set(_reaxff_cuda_kokkos_source)
set(_src ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/kokkos_atoms.cpp
         ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/charge_fix_kokkos.cpp)
add_library(reaxff_gpu_kokkos OBJECT ${_src})
set_target_properties(reaxff_gpu_kokkos PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                   CXX_STANDARD ${Kokkos_CXX_STANDARD}
                                                   CUDA_STANDARD ${Kokkos_CXX_STANDARD})
if(_kokkos_cuda)
  # liblammps then needs the CUDA driver's library (libcuda.so.1), which a
  # build machine without a GPU driver lacks: found at run time
  target_link_options(lammps_for_plugin INTERFACE -Wl,--allow-shlib-undefined)
  # as LAMMPS's own KOKKOS sources: Kokkos's CUDA headers need nvcc, for
  # Kokkos's architecture
  set_source_files_properties(${_src} PROPERTIES LANGUAGE CUDA)
  set_target_properties(reaxff_gpu_kokkos PROPERTIES CUDA_ARCHITECTURES ${_kokkos_sm}-real)
  target_compile_options(reaxff_gpu_kokkos PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda
                                                   --expt-relaxed-constexpr>)
endif()
# Kokkos's headers and settings only, gathered from its targets: its libraries
# are liblammps's (bundled Kokkos is linked into it; a second copy in the
# plugin would be a second, uninitialised Kokkos)
set(_pending Kokkos::kokkos)
set(_seen)
while(_pending)
  list(POP_FRONT _pending _t)
  if(_t IN_LIST _seen OR NOT TARGET ${_t})
    continue()
  endif()
  list(APPEND _seen ${_t})
  foreach(_p INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS)
    get_target_property(_v ${_t} INTERFACE_${_p})
    if(_v)
      set_property(TARGET reaxff_gpu_kokkos APPEND PROPERTY ${_p} ${_v})
    endif()
  endforeach()
  get_target_property(_links ${_t} INTERFACE_LINK_LIBRARIES)
  if(_links)
    list(APPEND _pending ${_links})
  endif()
endwhile()
target_include_directories(reaxff_gpu_kokkos PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                     ${LAMMPS_SOURCE_DIR}/src/KOKKOS)
target_compile_definitions(reaxff_gpu_kokkos PRIVATE LMP_KOKKOS ${_layout_define})
target_link_libraries(reaxff_gpu_kokkos PRIVATE lammps_for_plugin puremd_gpu)
set(REAXFF_CUDA_KOKKOS ON CACHE INTERNAL "")
set(_where "${Kokkos_DIR}")
set(_arch "Serial")
if(_kokkos_cuda)
  set(_arch "CUDA sm_${_kokkos_sm}")
endif()
set(REAXFF_CUDA_KOKKOS_SUMMARY
    "KOKKOS styles (-k on): built, with LAMMPS's Kokkos ${Kokkos_VERSION} (${Kokkos_DEVICES}, ${_arch}, C++${Kokkos_CXX_STANDARD}) from ${_where}"
    CACHE INTERNAL "")
message(STATUS "LAMMPS has KOKKOS (Kokkos ${Kokkos_VERSION}, devices ${Kokkos_DEVICES}, "
               "${Kokkos_DIR}): reaxff/gpu styles are KOKKOS styles under -k on")
