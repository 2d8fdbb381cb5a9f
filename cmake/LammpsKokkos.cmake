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
include(${PROJECT_SOURCE_DIR}/cmake/LammpsKokkosFind.cmake)
if(NOT _kokkos_dir)
  return()
endif()

# (the plugin needs no GNU extensions; Kokkos forbids them and warns otherwise)
set(CMAKE_CXX_EXTENSIONS OFF)
# (nor Kokkos's redirection of every C++ compile to its nvcc wrapper: the KOKKOS half
# is compiled as CUDA by nvcc itself, the rest needs no Kokkos)
set(Kokkos_LAUNCH_COMPILER OFF)
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
# every file of KOKKOS/ but the stand-in: each charge fix's KOKKOS form
# registers itself in a file of its own there (charge_fix_kokkos.h)
file(GLOB _src CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/*.cpp)
list(REMOVE_ITEM _src ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/kokkos_atoms_none.cpp)
add_library(reaxff_gpu_kokkos OBJECT ${_src})
set_target_properties(reaxff_gpu_kokkos PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                   CXX_STANDARD ${Kokkos_CXX_STANDARD})
# CMake 3.25 (Debian 12) knows no CUDA20 flag for nvcc (LAMMPS 4Jul2026's Kokkos
# asks for C++20): nvcc 12 and newer take -std=c++20, given here
if(NOT DEFINED CMAKE_CUDA${Kokkos_CXX_STANDARD}_STANDARD_COMPILE_OPTION
   AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
  set(CMAKE_CUDA${Kokkos_CXX_STANDARD}_STANDARD_COMPILE_OPTION "-std=c++${Kokkos_CXX_STANDARD}")
  set(CMAKE_CUDA${Kokkos_CXX_STANDARD}_EXTENSION_COMPILE_OPTION "-std=c++${Kokkos_CXX_STANDARD}")
endif()
set_target_properties(reaxff_gpu_kokkos PROPERTIES CUDA_STANDARD ${Kokkos_CXX_STANDARD})
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
list(JOIN Kokkos_DEVICES "+" _devices)
set(REAXFF_CUDA_KOKKOS_SUMMARY
    "KOKKOS styles (-k on): built, with LAMMPS's Kokkos ${Kokkos_VERSION} (${_devices}, ${_arch}, C++${Kokkos_CXX_STANDARD}) from ${_where}"
    CACHE INTERNAL "")
message(STATUS "LAMMPS has KOKKOS (Kokkos ${Kokkos_VERSION}, devices ${Kokkos_DEVICES}, "
               "${Kokkos_DIR}): reaxff/gpu styles are KOKKOS styles under -k on")
