#!/usr/bin/env bash
# Install the Debian packages the build and tests need (no-op when present).
set -euo pipefail
# libgmock-dev, libyaml-dev: LAMMPS's own pair-style harness (unittest/force_styles)
pkgs=(cmake ninja-build g++ make libopenmpi-dev openmpi-bin googletest libgtest-dev libgmock-dev
      libyaml-dev xz-utils python3 ca-certificates)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
