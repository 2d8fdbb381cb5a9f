# How the plugin's configure finds the Kokkos LAMMPS was built with
# (cmake/LammpsKokkosFind.cmake), case by case, against the LAMMPS the build uses
# (with KOKKOS and its bundled Kokkos, as scripts/build_lammps.sh --kokkos builds it;
# skipped, with the reason, for a LAMMPS without KOKKOS):
#  - its install, which records its build folder: found there;
#  - a copy of the install without that record (a user's own install of a LAMMPS
#    with bundled Kokkos, which LAMMPS does not install): not found, a warning that
#    names -DLAMMPS_BUILD_DIR; an error with REAXFF_CUDA_REQUIRE_KOKKOS;
#  - the same with -DLAMMPS_BUILD_DIR: found;
#  - with -DLAMMPS_BUILD_DIR naming a folder of another Kokkos version: not taken,
#    and the message names it.
# cmake -DREPO=... -DINSTALL=... -DSOURCE=... -DWORK=... [-DCUDA=nvcc] -P check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(_cuda)
if(CUDA)
  set(_cuda -DCMAKE_CUDA_COMPILER=${CUDA})
endif()
function(configure name out)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${REPO}/unittest/kokkos_discovery -B ${WORK}/${name}
                          -DREPO=${REPO} -DLAMMPS_SOURCE_DIR=${SOURCE} ${_cuda} ${ARGN}
                  OUTPUT_VARIABLE _o ERROR_VARIABLE _e RESULT_VARIABLE _rc)
  set(${out} "${_rc}\n${_o}\n${_e}" PARENT_SCOPE)
endfunction()
function(expect name text regex)
  string(REGEX REPLACE "[ \n]+" " " _flat "${text}")
  if(NOT _flat MATCHES "${regex}")
    message(FATAL_ERROR "case '${name}': expected '${regex}' in the configure's output:\n${text}")
  endif()
  message(STATUS "case '${name}': ok")
endfunction()

# the install as built: its record names the build folder
configure(installed o -DLAMMPS_INSTALL_DIR=${INSTALL})
if(o MATCHES "LAMMPS has no KOKKOS package")
  message(STATUS "skipped: this LAMMPS (${INSTALL}) has no KOKKOS package")
  return()
endif()
file(STRINGS ${INSTALL}/lib/cmake/reaxff-cuda/lammps-build-dir _build LIMIT_COUNT 1)
expect(installed "${o}" "kokkos_dir=\\[${_build}/lib/kokkos\\]")

# a user's install: lmp and liblammps, no record of where LAMMPS was built
set(user ${WORK}/user-install)
file(MAKE_DIRECTORY ${user}/bin ${user}/lib)
file(CREATE_LINK ${INSTALL}/bin/lmp ${user}/bin/lmp SYMBOLIC)
file(GLOB _libs ${INSTALL}/lib/liblammps.so*)
foreach(_l ${_libs})
  get_filename_component(_n ${_l} NAME)
  file(CREATE_LINK ${_l} ${user}/lib/${_n} SYMBOLIC)
endforeach()
configure(user o -DLAMMPS_INSTALL_DIR=${user})
expect(user "${o}" "kokkos_dir=\\[\\].*KOKKOS styles \\(-k on\\): NOT BUILT.*-DLAMMPS_BUILD_DIR=")
configure(required o -DLAMMPS_INSTALL_DIR=${user} -DREAXFF_CUDA_REQUIRE_KOKKOS=ON)
expect(required "${o}" "^1.*CMake Error.*its Kokkos was not found.*-DLAMMPS_BUILD_DIR=")
configure(build_dir o -DLAMMPS_INSTALL_DIR=${user} -DLAMMPS_BUILD_DIR=${_build})
expect(build_dir "${o}" "kokkos_dir=\\[${_build}/lib/kokkos\\]")

# a build folder of another Kokkos (version 9.9.9): not LAMMPS's
set(other ${WORK}/other-build/lib/kokkos)
file(MAKE_DIRECTORY ${other})
file(WRITE ${other}/KokkosConfigVersion.cmake "set(PACKAGE_VERSION \"9.9.9\")\n")
file(READ ${_build}/lib/kokkos/KokkosConfigCommon.cmake _common)
file(WRITE ${other}/KokkosConfigCommon.cmake "${_common}")
configure(other o -DLAMMPS_INSTALL_DIR=${user} -DLAMMPS_BUILD_DIR=${WORK}/other-build)
expect(other "${o}" "kokkos_dir=\\[\\].*not LAMMPS's: ${other} \\(Kokkos 9.9.9")
