#!/usr/bin/env bash
# A library call that fails on one rank of two must stop the whole job
# within seconds with the library's message, never leave the other rank
# waiting in a collective (src/REAXFF_CUDA/library_call.h). Each entry named
# there is made to fail on rank 1 (REAXFF_GPU_FAIL_AT=ENTRY@1) in a LAMMPS run
# that reaches it; the job must end within LIMIT seconds with a LAMMPS error
# (error->one or error->all) that carries "failure injected at ENTRY".
# Usage: [RANKS=n] one_rank_failures.sh LMP EXAMPLES_DIR LAMMPS_WATER_DIR (default 2 ranks)
set -uo pipefail
lmp=$(realpath "$1") examples=$(realpath "$2") water=$(realpath "$3")
limit=${LIMIT:-60}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

rdx=$examples/RDX
# RDX on two ranks with a control file, QEq, fix reaxff/bonds (LAMMPS's and /gpu) and
# reaxff/species (LAMMPS's, on the pair's tmpid / tmpbo), a sort at
# set-up (copy_history) and atoms moved across the ranks (pack/unpack_history).
cat >in.qeq <<EOF
units real
atom_style charge
atom_modify map array sort 1 0.0
read_data $rdx/data.RDX
pair_style reaxff/gpu $rdx/lmp_control lanes nonbonded=4
pair_coeff * * $rdx/ffield.reax.rdx H C O N
fix q all qeq/reaxff/gpu 1 0.0 10.0 1.0e-6 $rdx/param.qeq
fix b all reaxff/bonds 1 $work/bonds.txt
fix bg all reaxff/bonds/gpu 1 $work/bonds_gpu.txt
fix s all reaxff/species 1 1 2 $work/species.txt
neighbor 2.5 bin
run 2
variable hx equal lx/2
variable hy equal ly/2
variable hz equal lz/2
displace_atoms all move \${hx} \${hy} \${hz}
run 2
EOF
# ACKS2 every 2 steps: between solves u comes from the history (t_history).
cat >in.acks2 <<EOF
units real
atom_style charge
read_data $water/data.water
region keep block 0 12 0 12 0 12
group gone region keep
group gone subtract all gone
delete_atoms group gone
pair_style reaxff/gpu NULL safezone 3.0 mincap 150
pair_coeff * * $water/acks2_ff.water O H
fix q all acks2/reaxff/gpu 2 0.0 10.0 1.0e-6 reaxff maxiter 1000
run 3
EOF

declare -A input=(
  [control_file]=in.qeq [lanes]=in.qeq [force_field]=in.qeq [make_engine]=in.qeq
  [check_qeq_settings]=in.qeq [grow_history]=in.qeq
  [clear_history]=in.qeq [copy_history]=in.qeq [pack_history]=in.qeq
  [unpack_history]=in.qeq [solve_charges]=in.qeq [compute]=in.qeq [bond_table]=in.qeq [atom_table]=in.qeq [bond_rows]=in.qeq
  [t_history]=in.acks2
)
fails=0
for entry in "${!input[@]}"; do
  start=$(date +%s)
  REAXFF_GPU_FAIL_AT="$entry@1" timeout "$limit" mpirun -np "${RANKS:-2}" --bind-to none \
    -x REAXFF_GPU_FAIL_AT "$lmp" -in "${input[$entry]}" -log none >"out.$entry" 2>&1
  rc=$? took=$(($(date +%s) - start))
  if [ $rc -eq 124 ]; then
    echo "FAIL $entry: still running after ${limit}s (a rank left waiting)"
    fails=$((fails + 1))
  elif [ $rc -eq 0 ]; then
    echo "FAIL $entry: the run ended normally (the entry was never reached?)"
    fails=$((fails + 1))
  elif ! grep -qE "^ERROR( on proc 1)?: .*: failure injected at $entry " "out.$entry"; then
    # "Exception: ..." is an exception that escaped into LAMMPS's main(): under
    # the library interface (Python) that rank returns and the other waits
    echo "FAIL $entry: exit $rc without a LAMMPS error carrying the library's message:"
    tail -5 "out.$entry"
    fails=$((fails + 1))
  else
    echo "ok   $entry: stopped in ${took}s (exit $rc): $(grep -m1 'failure injected' "out.$entry")"
  fi
done
exit $((fails > 0))
