#!/usr/bin/env bash
# Build and install LAMMPS (shared library + lmp) with the packages our tests
# need: REAXFF (the reference styles), PLUGIN (to load ours) and MPI.
# The build is cached outside the repository, keyed by LAMMPS version and options.
# Usage: build_lammps.sh [--gpu-package[=sm_XX]] [--kokkos=KOKKOS_SOURCE [--kokkos-arch=ARCH]]
#                        [LAMMPS_SOURCE_DIR]
# prints the install prefix last. --gpu-package adds LAMMPS's own GPU package (CUDA, for
# sm_90 unless given), to test reaxff/gpu beside it (it needs nvcc). --kokkos adds its
# KOKKOS package, built as most users build it: with LAMMPS's bundled Kokkos, here the
# given Kokkos source (lib/kokkos of LAMMPS's release tarball of that version, which
# Debian's source lacks: scripts/get_kokkos.sh) in LAMMPS's lib/kokkos. --kokkos-arch:
# `serial` (the default: Kokkos's Serial backend, host only) or a CUDA compute capability
# (90, sm_90, 9.0: CUDA for that one architecture, since Kokkos takes one, plus Serial).
# Kokkos is then linked into liblammps; the plugin's configure finds its CMake
# configuration in the build folder, whose path the install keeps in
# lib/cmake/reaxff-cuda/lammps-build-dir (cmake/LammpsKokkos.cmake).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gpu_options=""
kokkos_src=""
kokkos_arch=serial
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu-package*)
      arch="${1#--gpu-package}"; arch="${arch#=}"
      gpu_options="-DPKG_GPU=on -DGPU_API=cuda -DGPU_ARCH=${arch:-sm_90} -DGPU_PREC=mixed"
      shift ;;
    --kokkos=*)
      kokkos_src="$(cd "${1#--kokkos=}" && pwd)"
      [ -f "$kokkos_src/CMakeLists.txt" ] || { echo "build_lammps.sh: $kokkos_src is no Kokkos source" >&2; exit 1; }
      shift ;;
    --kokkos-arch=*) kokkos_arch="${1#--kokkos-arch=}"; shift ;;
    *) break ;;
  esac
done
src="${1:-}"
if [ -z "$src" ]; then
  src="$("$here/get_lammps.sh" | tail -n1)"
fi
[ -f "$src/cmake/CMakeLists.txt" ] || { echo "build_lammps.sh: $src is not a LAMMPS source tree" >&2; exit 1; }
src="$(cd "$src" && pwd)"

version=$(sed -n 's/.*LAMMPS_VERSION "\(.*\)".*/\1/p' "$src/src/version.h" | tr -d ' ')
options="-DBUILD_SHARED_LIBS=on -DPKG_REAXFF=on -DPKG_QEQ=on -DPKG_PLUGIN=on -DBUILD_MPI=on -DBUILD_OMP=off
 -DCMAKE_BUILD_TYPE=Release -DWITH_JPEG=off -DWITH_PNG=off -DWITH_FFMPEG=off -DWITH_GZIP=off
 -DWITH_CURL=off -DBUILD_TOOLS=off -DLAMMPS_INSTALL_RPATH=on${gpu_options:+ $gpu_options}"
kokkos_options=""
if [ -n "$kokkos_src" ]; then
  # LAMMPS 4Jul2026's KOKKOS package asks for C++20 (Kokkos 5), 4Feb2025's for C++17
  std=17
  grep -q 'CMAKE_CXX_STANDARD LESS 20' "$src/cmake/Modules/Packages/KOKKOS.cmake" && std=20
  kokkos_options="-DPKG_KOKKOS=on -DEXTERNAL_KOKKOS=off -DKokkos_ENABLE_SERIAL=on -DCMAKE_CXX_STANDARD=$std"
  case "$kokkos_arch" in
    serial | none | "") kokkos_arch=serial ;;
    *)
      cc=${kokkos_arch#sm_}; cc=${cc/./}
      case "$cc" in
        70) karch=VOLTA70 ;; 72) karch=VOLTA72 ;; 75) karch=TURING75 ;; 80) karch=AMPERE80 ;;
        86) karch=AMPERE86 ;; 87) karch=AMPERE87 ;; 89) karch=ADA89 ;; 90) karch=HOPPER90 ;;
        100) karch=BLACKWELL100 ;; 120) karch=BLACKWELL120 ;;
        *) echo "build_lammps.sh: --kokkos-arch=$kokkos_arch: no Kokkos architecture for compute capability $cc" >&2; exit 1 ;;
      esac
      grep -q "kokkos_arch_option($karch " "$kokkos_src/cmake/kokkos_arch.cmake" ||
        { echo "build_lammps.sh: this Kokkos ($kokkos_src) has no architecture $karch (sm_$cc)" >&2; exit 1; }
      kokkos_arch=$cc
      kokkos_options="$kokkos_options -DKokkos_ENABLE_CUDA=on -DKokkos_ARCH_$karch=on" ;;
  esac
fi
key=$(printf '%s %s %s %s %s' "$version" "$src" "$options" "$kokkos_src" "$kokkos_options" | sha256sum | cut -c1-12)
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
prefix="$CACHE/lammps-install-$version-$key"
if [ -x "$prefix/bin/lmp" ] && [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi
build="$CACHE/lammps-build-$version-$key"
gen=""
command -v ninja >/dev/null && gen="-G Ninja"
# With the GPU package or KOKKOS for CUDA, liblammps needs the CUDA driver library
# (libcuda.so.1), which a machine without a GPU driver lacks: lmp is linked without
# resolving it.
link=""
if [ -n "$gpu_options" ] || [ "$kokkos_arch" != serial ]; then
  link="-DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined"
fi
compiler=""
if [ -n "$kokkos_src" ]; then
  # LAMMPS's tree with the Kokkos source as its lib/kokkos (Debian's has none): cmake/
  # copied (LAMMPS takes its tree from cmake/'s parent), the rest linked
  tree="$CACHE/lammps-tree-$version-$(printf '%s %s' "$src" "$kokkos_src" | sha256sum | cut -c1-12)"
  if [ ! -f "$tree/.complete" ]; then
    rm -rf "$tree" && mkdir -p "$tree/lib"
    for e in "$src"/*; do
      case "$(basename "$e")" in
        cmake) cp -r "$e" "$tree/cmake" ;;
        lib) for l in "$e"/*; do ln -s "$l" "$tree/lib/"; done ;;
        *) ln -s "$e" "$tree/" ;;
      esac
    done
    rm -f "$tree/lib/kokkos" && ln -s "$kokkos_src" "$tree/lib/kokkos"
    touch "$tree/.complete"
  fi
  src=$tree
  # for CUDA, every LAMMPS source goes through Kokkos's compiler wrapper (nvcc)
  if [ "$kokkos_arch" != serial ]; then
    command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
      { echo "build_lammps.sh: --kokkos-arch=$kokkos_arch needs nvcc (the CUDA Toolkit)" >&2; exit 1; }
    command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
    compiler="-DCMAKE_CXX_COMPILER=$kokkos_src/bin/nvcc_wrapper"
  fi
fi
# ccache, where installed (not in front of Kokkos's nvcc wrapper, which it does not know)
launch=""
command -v ccache >/dev/null && [ -z "$compiler" ] && launch="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
# shellcheck disable=SC2086
cmake -S "$src/cmake" -B "$build" $gen $options $kokkos_options $compiler $link $launch \
  -DCMAKE_INSTALL_PREFIX="$prefix" >&2
cmake --build "$build" --parallel "${BUILD_JOBS:-$(nproc)}" >&2
cmake --install "$build" >&2
if [ -n "$kokkos_src" ]; then
  # where the plugin's configure finds this LAMMPS's Kokkos (built in, not installed)
  mkdir -p "$prefix/lib/cmake/reaxff-cuda"
  echo "$build" >"$prefix/lib/cmake/reaxff-cuda/lammps-build-dir"
fi
touch "$prefix/.complete"
echo "$prefix"
