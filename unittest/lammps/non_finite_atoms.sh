#!/usr/bin/env bash
# A NaN or inf in an atom's position or charge stops the job with a LAMMPS
# error naming the step and the atom's ID (lib/puremd_gpu/src/common/non_finite.h),
# on the rank that holds the atom, within LIMIT seconds: no rank left waiting,
# no silent NaN (pair_style reaxff runs on, with an infinite temperature).
# HNS (examples/HNS, 304 atoms), LAMMPS's style names switched by -sf gpu (or
# ARGS in its place, e.g. "-k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on"):
#   position: fix addforce gives atom ID 5 an infinite force at step 3, so
#     its position is infinite from step 4 on, between two re-neighbourings
#     (LAMMPS itself stops only when it bins atoms); the charge fix meets it
#     first, and without a charge fix the pair does;
#   charge: charges fixed (no charge fix), atom ID 5's set to inf between runs.
# Usage: [RANKS="1 2"] [ARGS=...] non_finite_atoms.sh LMP EXAMPLES_DIR
set -uo pipefail
lmp=$(realpath "$1") hns=$(realpath "$2")/HNS
limit=${LIMIT:-60}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

head() {
  cat <<EOF2
units real
atom_style charge
read_data $hns/data.hns-equil
pair_style reaxff NULL $1
pair_coeff * * $hns/ffield.reax.hns C H O N
neighbor 2.0 bin
neigh_modify every 10 delay 0 check yes
timestep 0.1
thermo 1
EOF2
}
{
  head ""
  echo "fix q all qeq/reaxff 1 0.0 10.0 1.0e-6 reaxff"
  echo 'variable fx atom "ternary(id==5 && step==3, exp(1000), 0)"'
  echo "fix bad all addforce v_fx 0.0 0.0"
  echo "fix 1 all nve"
  echo "run 8"
} >in.position_qeq
{
  head "checkqeq no"
  echo "set type 1 charge 0.1"
  echo 'variable fx atom "ternary(id==5 && step==3, exp(1000), 0)"'
  echo "fix bad all addforce v_fx 0.0 0.0"
  echo "fix 1 all nve"
  echo "run 8"
} >in.position_pair
{
  head "checkqeq no"
  echo "set type 1 charge 0.1"
  echo "fix 1 all nve"
  echo "run 2"
  echo "variable qbad atom exp(1000)"
  echo "set atom 5 charge v_qbad"
  echo "run 2"
} >in.charge

# case -> what the error must say
declare -A expect=(
  [position_qeq]="Fix qeq/reaxff/gpu[^ ]* at step 4: .*the position of atom ID 5 "
  [position_pair]="pair_style reaxff/gpu at step 4: .*the position of atom ID 5 "
  [charge]="pair_style reaxff/gpu at step 2: .*the charge of atom ID 5 "
)
fails=0
for ranks in ${RANKS:-1 2}; do
  for case in position_qeq position_pair charge; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    timeout "$limit" mpirun -np "$ranks" --bind-to none "$lmp" ${ARGS:--sf gpu} -in "in.$case" \
      -log none >"out.$case.$ranks" 2>&1
    rc=$? took=$(($(date +%s) - start))
    if [ $rc -eq 124 ]; then
      echo "FAIL $case, $ranks rank(s): still running after ${limit}s (a rank left waiting)"
      fails=$((fails + 1))
    elif ! grep -qE "^ERROR( on proc [0-9]+)?: ${expect[$case]}" "out.$case.$ranks"; then
      echo "FAIL $case, $ranks rank(s): exit $rc without the error '${expect[$case]}':"
      tail -n 8 "out.$case.$ranks"
      fails=$((fails + 1))
    else
      echo "ok   $case, $ranks rank(s): stopped in ${took}s: $(grep -m1 '^ERROR' "out.$case.$ranks")"
    fi
  done
done
exit $((fails > 0))
