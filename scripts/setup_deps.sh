#!/usr/bin/env bash
# Install the Debian packages the build and tests need. Nothing happens (and no
# sudo is asked for) when they are all present; as an ordinary user, sudo is used
# only to install the missing ones. Not on Debian/Ubuntu (no dpkg-query): says
# what the build needs and leaves it to you (SKIP_SETUP_DEPS=1 silences it).
set -euo pipefail
# libgmock-dev, libyaml-dev: LAMMPS's own pair-style harness (unittest/force_styles)
pkgs=(cmake ninja-build g++ make libopenmpi-dev openmpi-bin googletest libgtest-dev libgmock-dev
      libyaml-dev xz-utils python3 ca-certificates)
[ -z "${SKIP_SETUP_DEPS:-}" ] || exit 0
if ! command -v dpkg-query >/dev/null; then
  echo "setup_deps.sh: not a Debian-like system (no dpkg-query): not checking packages." >&2
  echo "  The build needs CMake 3.20+, Ninja, a C++17 compiler, MPI (mpicxx), GoogleTest" >&2
  echo "  and GoogleMock, libyaml, xz, python3 (or curl or wget) to download LAMMPS, and" >&2
  echo "  nvcc (CUDA 12+) for the CUDA driver (e.g. 'module load cmake gcc openmpi cuda')." >&2
  exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup_deps.sh: missing Debian packages: ${missing[*]}" >&2
help() {
  echo "setup_deps.sh: $1" >&2
  echo "  Install them as root (or ask your administrator):" >&2
  echo "    apt-get update && apt-get install -y ${missing[*]}" >&2
  echo "  or, where they come another way (e.g. environment modules on a cluster), run" >&2
  echo "  with SKIP_SETUP_DEPS=1 to skip this check." >&2
  exit 1
}
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || help "not root, and no sudo to install them with."
  echo "setup_deps.sh: installing them with sudo" >&2
  sudo=(sudo)
fi
"${sudo[@]}" apt-get update -qq || help "'${sudo[*]:+${sudo[*]} }apt-get update' failed."
# (through env: sudo drops DEBIAN_FRONTEND from the environment)
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
  help "'${sudo[*]:+${sudo[*]} }apt-get install' failed."
