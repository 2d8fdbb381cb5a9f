#!/usr/bin/env bash
# Build everything, then run the HNS example with pair_style reaxff/gpu.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/configure.sh "$@"
cd examples/HNS
../../build/lmp -in in.reaxff_gpu.hns -log none
