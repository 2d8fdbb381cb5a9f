#!/usr/bin/env bash
# Configure and build everything into build/ (LAMMPS itself is fetched and
# built once into ~/.cache/reaxff-cuda, see cmake/LAMMPS.cmake).
# Extra arguments go to cmake, e.g. -DLAMMPS_SOURCE_DIR=/path/to/lammps.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_deps.sh
cuda=()
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  cuda=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" "$@"
cmake --build build --parallel "$(nproc)"
