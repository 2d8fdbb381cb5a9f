#!/usr/bin/env bash
# Configure and build everything into build/ ($BUILD_DIR if set; LAMMPS itself
# is fetched and built once into ~/.cache/reaxff-cuda, see cmake/LAMMPS.cmake).
# Extra arguments go to cmake, e.g. -DLAMMPS_VERSION=4Feb2025 or
# -DLAMMPS_SOURCE_DIR=/path/to/lammps; BUILD_TARGETS (space-separated) builds
# those targets only.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_deps.sh
cuda=()
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  cuda=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
# ccache, where installed, compiles what an earlier build compiled the same way
# at no cost (scripts/test.sh's second build folder builds the same library)
launch=()
if command -v ccache >/dev/null; then
  launch=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" "${launch[@]}" "$@"
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
