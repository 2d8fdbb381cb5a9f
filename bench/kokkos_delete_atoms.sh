#!/usr/bin/env bash
# delete_atoms between runs under -k on (RunStyles.DeleteAtomsBetweenRuns failed on
# 2 ranks with LAMMPS 4Jul2026's KOKKOS for CUDA): LAMMPS's CHO example, 20 steps,
# atoms 95-105 deleted, 20 more; the last thermo line of CPU reaxff, reaxff/kk, ours
# under -k on (jacobi, fsai) and under -sf gpu, on 1 and 2 ranks.
# usage: BUNDLE=.device/kk26 bash bench/kokkos_delete_atoms.sh OUTDIR
set -u
B=$(cd "$BUNDLE" && pwd); out=$1; mkdir -p "$out"
export LD_LIBRARY_PATH="$B/lib" LAMMPS_PLUGIN_PATH="$B/plugins"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
LMP=$B/bin/lmp EX=$B/examples-reaxff/CHO
cat >"$out/in.del" <<EOF
units real
atom_style charge
atom_modify map array
read_data $EX/data.CHO
pair_style reaxff $EX/lmp_control
pair_coeff * * $EX/ffield.reax.cho H C O
neighbor 2 bin
neigh_modify every 1 delay 0 check yes
fix nve all nve
fix qeq all qeq/reaxff 1 0.0 10.0 1e-14 $EX/param.qeq
velocity all create 3000.0 4928459 mom yes rot no loop geom
thermo_style custom step atoms pe press
thermo_modify format float %22.15g
thermo 10
run 20
group gone id 95:105
delete_atoms group gone
run 20
EOF
kk=(-k on g 1 -sf kk -pk kokkos neigh half newton on)
ours=(-k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on)
for np in 1 2; do
  r() { mpirun --bind-to none -np $np "$LMP" "${@:2}" -in "$out/in.del" -log "$out/$1_np$np.log" -screen none; }
  r cpu
  r kk "${kk[@]}"
  r ours_jacobi "${ours[@]}" -var reaxff_gpu "precond jacobi"
  r ours_fsai "${ours[@]}"
  r sfgpu -sf gpu -var reaxff_gpu "precond jacobi"
done
for f in "$out"/*.log; do
  printf '%-22s %s\n' "$(basename "$f" .log)" \
    "$(awk '/^ +Step/{on=1;next} /^Loop/{on=0} on{l=$0} END{print l}' "$f") $(grep -c ERROR "$f")"
done
