#!/usr/bin/env bash
# Build and install LAMMPS (shared library + lmp) with the packages our tests
# need: REAXFF (the reference styles), PLUGIN (to load ours) and MPI.
# The build is cached outside the repository, keyed by LAMMPS version and options.
# Usage: build_lammps.sh [--gpu-package[=sm_XX]] [--kokkos=KOKKOS_SOURCE] [LAMMPS_SOURCE_DIR];
# prints the install prefix last. --gpu-package adds LAMMPS's own GPU package (CUDA, for
# sm_90 unless given), to test reaxff/gpu beside it (it needs nvcc). --kokkos adds its
# KOKKOS package on Kokkos's Serial backend (host only): Kokkos built from that source
# (the version the LAMMPS release asks for, e.g. lib/kokkos of LAMMPS's own release
# tarball, which Debian's lacks) and installed into the same prefix, where the plugin's
# CMake finds it; to test reaxff/gpu's KOKKOS styles (`-k on`) through the host driver.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gpu_options=""
kokkos_src=""
kokkos_options=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu-package*)
      arch="${1#--gpu-package}"; arch="${arch#=}"
      gpu_options="-DPKG_GPU=on -DGPU_API=cuda -DGPU_ARCH=${arch:-sm_90} -DGPU_PREC=mixed"
      shift ;;
    --kokkos=*)
      kokkos_src="$(cd "${1#--kokkos=}" && pwd)"
      [ -f "$kokkos_src/CMakeLists.txt" ] || { echo "build_lammps.sh: $kokkos_src is no Kokkos source" >&2; exit 1; }
      kokkos_options="-DPKG_KOKKOS=on -DEXTERNAL_KOKKOS=on -DCMAKE_CXX_STANDARD=17"
      shift ;;
    *) break ;;
  esac
done
src="${1:-}"
if [ -z "$src" ]; then
  src="$("$here/get_lammps.sh" | tail -n1)"
fi
[ -f "$src/cmake/CMakeLists.txt" ] || { echo "build_lammps.sh: $src is not a LAMMPS source tree" >&2; exit 1; }

version=$(sed -n 's/.*LAMMPS_VERSION "\(.*\)".*/\1/p' "$src/src/version.h" | tr -d ' ')
options="-DBUILD_SHARED_LIBS=on -DPKG_REAXFF=on -DPKG_QEQ=on -DPKG_PLUGIN=on -DBUILD_MPI=on -DBUILD_OMP=off
 -DCMAKE_BUILD_TYPE=Release -DWITH_JPEG=off -DWITH_PNG=off -DWITH_FFMPEG=off -DWITH_GZIP=off
 -DWITH_CURL=off -DBUILD_TOOLS=off -DLAMMPS_INSTALL_RPATH=on${gpu_options:+ $gpu_options}${kokkos_options:+ $kokkos_options}"
key=$(printf '%s %s %s %s' "$version" "$src" "$options" "$kokkos_src" | sha256sum | cut -c1-12)
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
prefix="$CACHE/lammps-install-$version-$key"
if [ -x "$prefix/bin/lmp" ] && [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi
build="$CACHE/lammps-build-$version-$key"
gen=""
command -v ninja >/dev/null && gen="-G Ninja"
# shellcheck disable=SC2086
# With the GPU package, liblammps needs the CUDA driver library (libcuda.so.1),
# which a machine without a GPU driver lacks: lmp is linked without resolving it.
link=""
[ -n "$gpu_options" ] && link="-DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined"
if [ -n "$kokkos_src" ]; then
  # shellcheck disable=SC2086
  cmake -S "$kokkos_src" -B "$build-kokkos" $gen -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_SERIAL=on \
    -DCMAKE_CXX_STANDARD=17 -DCMAKE_POSITION_INDEPENDENT_CODE=on -DCMAKE_INSTALL_PREFIX="$prefix" >&2
  cmake --build "$build-kokkos" --parallel "$(nproc)" >&2
  cmake --install "$build-kokkos" >&2
  options="$options -DKokkos_ROOT=$prefix"
fi
cmake -S "$src/cmake" -B "$build" $gen $options $link -DCMAKE_INSTALL_PREFIX="$prefix" >&2
cmake --build "$build" --parallel "$(nproc)" >&2
cmake --install "$build" >&2
touch "$prefix/.complete"
echo "$prefix"
