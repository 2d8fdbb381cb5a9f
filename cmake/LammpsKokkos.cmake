# Whether the LAMMPS we build against has its KOKKOS package, and so which
# source gives kokkos_atoms.h its KOKKOS half (src/REAXFF_CUDA/KOKKOS/):
# sets _reaxff_cuda_kokkos_source and, with KOKKOS, the object library
# reaxff_gpu_kokkos that the plugin links.
set(_reaxff_cuda_kokkos_source ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/kokkos_atoms_none.cpp)
set(REAXFF_CUDA_KOKKOS OFF CACHE INTERNAL "")
find_package(Kokkos CONFIG QUIET PATHS ${LAMMPS_INSTALL_DIR} NO_DEFAULT_PATH)
if(NOT Kokkos_FOUND)
  return()
endif()
kokkos_check(DEVICES CUDA RETURN_VALUE _kokkos_cuda)
if(_kokkos_cuda AND NOT CMAKE_CUDA_COMPILER)
  message(WARNING "LAMMPS has KOKKOS for CUDA, but no CUDA compiler was found: reaxff/gpu runs "
                  "as a host style under -k on (LAMMPS copies the atoms to the host for it)")
  return()
endif()
set(_reaxff_cuda_kokkos_source)
set(_src ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/kokkos_atoms.cpp
         ${CMAKE_CURRENT_SOURCE_DIR}/KOKKOS/charge_fix_kokkos.cpp)
add_library(reaxff_gpu_kokkos OBJECT ${_src})
set_target_properties(reaxff_gpu_kokkos PROPERTIES POSITION_INDEPENDENT_CODE ON)
if(_kokkos_cuda)
  # liblammps then needs the CUDA driver's library (libcuda.so.1), which a
  # build machine without a GPU driver lacks: found at run time
  target_link_options(lammps_for_plugin INTERFACE -Wl,--allow-shlib-undefined)
  # as LAMMPS's own KOKKOS sources: Kokkos's CUDA headers need nvcc
  set_source_files_properties(${_src} PROPERTIES LANGUAGE CUDA)
  target_compile_options(reaxff_gpu_kokkos PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda
                                                   --expt-relaxed-constexpr>)
endif()
target_include_directories(reaxff_gpu_kokkos PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                     ${LAMMPS_SOURCE_DIR}/src/KOKKOS)
target_compile_definitions(reaxff_gpu_kokkos PRIVATE LMP_KOKKOS)
target_link_libraries(reaxff_gpu_kokkos PRIVATE Kokkos::kokkos lammps_for_plugin puremd_gpu)
set(REAXFF_CUDA_KOKKOS ON CACHE INTERNAL "")
message(STATUS "LAMMPS has KOKKOS (Kokkos ${Kokkos_VERSION}, devices ${Kokkos_DEVICES}): "
               "reaxff/gpu styles are KOKKOS styles under -k on")
