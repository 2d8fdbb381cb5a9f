#!/usr/bin/env bash
# Everything the GPU machine has to prove, in one command, with a short table last:
#   1. library tests incl. the GPU ones (CUDA driver == host driver),
#   2. LAMMPS-level comparisons vs pair_style reaxff on 1 and 2 ranks (both on one GPU),
#   3. compute-sanitizer memcheck + racecheck on HNS 2x2x2 and Water-6540 (5 steps),
#   4. benchmarks side by side with reaxff/kk (SYSTEMS: HNS N^3, Water-6540, Water 3^3,
#      Silica-6000), ms/step, GPU memory, phase breakdown, and bench.csv for
#      bench/plot_side_by_side.py.
# On a machine with the full toolchain it builds first (scripts/configure.sh);
# with BUNDLE=dir (made by bench/make_device_bundle.sh) it runs prebuilt binaries.
# Usage: bench/device_check.sh [unit|quick|tests|kokkos|bench|scaling|failures|inject|profile|floors|sanitize|drift|soak|growth|lanes|qeqtol|qeqmatrix|predictor|qtpie|acks2|gpupkg|yaml|arch|large|all]
#        (default all; lanes: the threads-per-row sweep behind thread_mapping.h's defaults;
#        qeqtol: GPU vs host after 100 steps at two CG tolerances; qeqmatrix: the QEq
#        matrix in full, each pair once, or matrix-free (MODES); gpupkg: the examples/reaxff suite and the -sf gpu
#        tests against a LAMMPS with its own GPU package (BUNDLE made with one); none of
#        these four in all; qtpie: fix qtpie/reaxff/gpu against our QEq on LAMMPS's water
#        example replicated, and the NVE drift of QTPIE against the CPU fix qtpie/reaxff;
#        acks2: the CUDA ACKS2 tests and the ACKS2 water example replicated, side by
#        side with acks2/reaxff/kk; yaml, not in all: LAMMPS's own pair-style harness
#        on its ReaxFF reference YAML files, our styles with driver cuda; predictor, not in
#        all: CG iterations per step and ms/step for each QEq predictor, fix keyword
#        `predictor`, on HNS 2^3, HNS 8^3 and Water-6540; arch, not in all: the GPU
#        architectures of the bundle's plugin, and the error of a plugin built without
#        code for this GPU, ARCH_PLUGIN; xlmd, not in all: NVE drift of extended-Lagrangian
#        charges against converged ones; XLMD=1 with bench adds ours with `xlmd yes`;
#        scaling, not in all: HNS on 1 and 2 (or more) GPUs, one MPI rank per GPU, beside
#        the MPI peer (CASES); failures: a library call failing on one rank of two stops
#        both (CUDA driver); sanitize adds memcheck on 2 ranks where there are 2 GPUs;
#        large, not in all: HNS at SIZES^3 on one GPU, energies per atom against HNS 2^3)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
what=${1:-all}
# kokkos: the tests of our styles under -k on (KOKKOS bundles), on 1, 2 and 4 ranks
# sharing the GPU: the tests mode with that filter
if [ "$what" = kokkos ]; then
  what=tests NP=${NP:-1 2 4}
  FILTER=${FILTER:-'Systems/KokkosStyles.*:KokkosSwitch.*:RunStyles.*:*Kokkos*'}
fi
out=${OUT:-/tmp/reaxff_device_out}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

if [ -n "${BUNDLE:-}" ]; then
  B=$(cd "$BUNDLE" && pwd)
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  LMP="$B/bin/lmp"; UNIT="$B/bin/puremd_unit_tests"; LTESTS="$B/bin/lammps_tests"
  # The test binaries find examples and the plugin under the absolute source
  # and build paths they were compiled with: recreate those paths here.
  built_at=$(cat "$B/source_dir")
  if [ "$built_at" != "$root" ] && [ ! -e "$built_at" ]; then
    mkdir -p "$(dirname "$built_at")" && ln -s "$root" "$built_at"
  fi
  # and LAMMPS's examples/reaxff where the examples test was built to find them
  examples_at=$(cat "$B/examples_dir")
  if [ ! -e "$examples_at" ]; then
    mkdir -p "$(dirname "$examples_at")" && ln -s "$B/examples-reaxff" "$examples_at"
  fi
  # Copy only when changed: overwriting a mapped plugin crashes running tests.
  plugdir="$root/$(cat "$B/build_dir" 2>/dev/null || echo build)/plugins"
  mkdir -p "$plugdir"
  cmp -s "$B/plugins/reaxffgpuplugin.so" "$plugdir/reaxffgpuplugin.so" ||
    cp "$B/plugins/reaxffgpuplugin.so" "$plugdir/"
  # one path for all: a process that loads the plugin from two paths crashed (KOKKOS)
  export LAMMPS_PLUGIN_PATH="$plugdir"
else
  bash scripts/configure.sh >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  LMP="$root/build/lmp"; UNIT="$root/build/unittest/puremd_unit_tests"
  LTESTS="$root/build/unittest/lammps_tests"
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"

declare -a table
row() { table+=("$1"); }
ms_per_step() { awk '/^Loop time/ {printf "%.2f", 1000 * $4 / $9; exit}' "$1"; }  # LAMMPS log
# A copy of input $1 whose pair_style line (reaxff or reaxff/gpu) also has keywords $2
# (the /gpu style's: timing, lanes, skin) and whose QEq fix line has keywords $3 (the
# /gpu fix's: matrix, threads_per_row), as $out/in.keywords.
with_keywords() {
  sed -E -e "s#^(pair_style[[:space:]]+reaxff(/gpu)?[[:space:]].*)\$#\1 $2#" \
    -e "s#^(fix[[:space:]]+[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]+qeq/reax[^[:space:]]*[[:space:]].*)\$#\1 ${3:-}#" \
    "$1" >"$out/in.keywords"
  echo "$out/in.keywords"
}

if [ "$what" = all ] || [ "$what" = tests ] || [ "$what" = quick ] || [ "$what" = unit ]; then
  "$UNIT" --gtest_brief=1 >"$out/unit.log" 2>&1; rc=$?
  row "unit tests (incl. GPU)        rc=$rc  $(grep -E '^\[  (PASSED|FAILED)' "$out/unit.log" | tr '\n' ' ')"
  [ $rc -ne 0 ] && grep -B2 -A12 "Failure" "$out/unit.log" | head -80
fi
if [ "$what" = all ] || [ "$what" = tests ]; then
  # Rank counts NP (default "1 2") one after the other, each split into SHARDS gtest
  # shards run at once (default 1); FILTER picks tests (gtest filter). --bind-to none:
  # by default every mpirun of 1 or 2 ranks pins them to cores 0 and 1, and concurrent
  # shards then share two cores. The whole suite takes more than the lent machine's 10
  # minutes per command alone (the host-driver and reaxff runs of Water-6540 and
  # Silica-6000 are CPU-bound, minutes each): there, use SHARDS (e.g. 8) or run it in
  # parts, e.g. FILTER='Systems/*/HNS:Systems/*/RDX'.
  shards=${SHARDS:-1}
  # Several test processes share the GPU: with CUDA MPS they run side by side instead
  # of taking turns (a 2-rank QEq case 0.6 s instead of 4.3 s; MPS=0 leaves it off).
  mps_started=0
  if [ "${MPS:-1}" = 1 ] && command -v nvidia-cuda-mps-control >/dev/null &&
    nvidia-cuda-mps-control -d 2>/dev/null; then
    mps_started=1
  fi
  for np in ${NP:-1 2}; do
    for ((k = 0; k < shards; k++)); do
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k \
        mpirun --bind-to none -np $np "$LTESTS" --gtest_brief=1 --gtest_filter="${FILTER:-*}" \
        >"$out/lammps_np${np}_s$k.log" 2>&1 &
    done
    wait
  done
  [ $mps_started = 1 ] && echo quit | nvidia-cuda-mps-control
  for np in ${NP:-1 2}; do
    # one log per rank count: the device tool brings back only a few files
    # (without colour codes, which gtest may add under mpirun)
    cat "$out"/lammps_np${np}_s*.log | sed 's/\x1b\[[0-9;]*m//g' >"$out/lammps_np$np.log" &&
      rm -f "$out"/lammps_np${np}_s*.log
    rc=$(grep -qE '^\[  FAILED  \]' "$out/lammps_np$np.log" && echo 1 || echo 0)
    row "lammps tests np=$np              failed=$rc  $(grep -cE '^\[ (table|cuda ) \]' "$out/lammps_np$np.log") comparisons  $(grep -hE '^\[  PASSED  \]' "$out/lammps_np$np.log" | awk '{n+=$4} END{print n" passed"}')"
    grep -hE '^\[ (table|cuda ) \]' "$out/lammps_np$np.log"
    [ "$rc" != 0 ] && grep -B2 -A10 "Failure" "$out/lammps_np$np.log" | head -60
  done
  # A NaN or inf position or charge stops the job naming the step and the atom
  # (unittest/lammps/non_finite_atoms.sh), -sf gpu, and -k on where LAMMPS has KOKKOS.
  RANKS="${NP:-1 2}" bash unittest/lammps/non_finite_atoms.sh "$LMP" "$root/examples" \
    >"$out/non_finite.log" 2>&1
  row "non-finite atoms -sf gpu      rc=$? $(grep -c '^ok' "$out/non_finite.log") stopped naming the atom"
  if "$LMP" -h | grep -q KOKKOS; then
    ARGS="-k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on" RANKS="${NP:-1 2}" \
      bash unittest/lammps/non_finite_atoms.sh "$LMP" "$root/examples" >"$out/non_finite_kk.log" 2>&1
    row "non-finite atoms -k on        rc=$? $(grep -c '^ok' "$out/non_finite_kk.log") stopped naming the atom"
  fi
  grep -h '^FAIL' -A8 "$out"/non_finite*.log | head -40
fi

if [ "$what" = gpupkg ]; then
  # The same test binary against LAMMPS built with its own GPU package (same
  # version; the bundle's gpupkg/lib comes first): -sf gpu then runs that
  # package's styles beside ours, and `package gpu` is LAMMPS's. One process
  # per test: run all in one process, the examples suite crashed in LAMMPS's
  # Atom::sort (GPU-package branch) at the 13th input, which passes alone.
  if [ -z "${BUNDLE:-}" ] || [ ! -x "$B/gpupkg/bin/lmp" ]; then
    row "gpupkg: no LAMMPS with the GPU package in the bundle (make_device_bundle.sh BUILD PREFIX)"
  else
    export LD_LIBRARY_PATH="$B/gpupkg/lib:$LD_LIBRARY_PATH"
    "$LTESTS" --gtest_list_tests --gtest_filter="${FILTER:-*Examples*:SuffixGpu*}" |
      awk '/^[^ ]/{suite=$1; next} {print suite $1}' >"$out/gpupkg_tests.txt"
    : >"$out/gpupkg_np1.log"
    while read -r t; do
      "$LTESTS" --gtest_brief=1 --gtest_filter="$t" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >>"$out/gpupkg_np1.log"
    done <"$out/gpupkg_tests.txt"
    n=$(wc -l <"$out/gpupkg_tests.txt")
    rc=$(grep -qE '^\[  FAILED  \]|Segmentation' "$out/gpupkg_np1.log" && echo 1 || echo 0)
    row "GPU-package LAMMPS np=1      failed=$rc  $n tests, $(grep -c '^\[  PASSED  \]' "$out/gpupkg_np1.log") processes passed"
    grep -hE '^\[ table \]' "$out/gpupkg_np1.log"
    [ "$rc" != 0 ] && grep -B2 -A10 "Failure\|Segmentation" "$out/gpupkg_np1.log" | head -60
  fi
fi

hns_in() {  # reaxff/gpu version of LAMMPS's HNS benchmark input
  sed 's|pair_style        reaxff NULL|pair_style reaxff/gpu NULL driver cuda|; s|qeq/reax |qeq/reaxff/gpu |; s|compute           reax all pair reaxff|compute reax all pair reaxff/gpu|' \
    "$root/examples/HNS/in.reaxff.hns" >"$out/in.hns.gpu"
  echo "$out/in.hns.gpu"
}

if [ "$what" = all ] || [ "$what" = sanitize ]; then
  if command -v compute-sanitizer >/dev/null; then
    cd "$root/examples/HNS"
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$LMP" -in "$(hns_in)" -v x 2 -v y 2 -v z 2 -v t 5 \
        -log none -screen none >"$out/san_${tool}_hns.log" 2>&1
      row "sanitizer $tool HNS 2x2x2      rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_hns.log" | tail -1)"
      # the QEq matrix in tiles (matrix auto takes it only from 150,000 atoms on)
      compute-sanitizer --tool $tool --error-exitcode 9 "$LMP" -in "$(with_keywords "$(hns_in)" "" "matrix half")" \
        -v x 2 -v y 2 -v z 2 -v t 5 -log none -screen none >"$out/san_${tool}_hns_half.log" 2>&1
      row "sanitizer $tool HNS 2x2x2 half rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_hns_half.log" | tail -1)"
    done
    # several ranks, one GPU each (all the GPUs here): the halo's GPU-to-GPU path
    ng=$(nvidia-smi -L | wc -l)
    if [ "$ng" -ge 2 ]; then
      mpirun --bind-to none -np $ng compute-sanitizer --tool memcheck --error-exitcode 9 "$LMP" \
        -in "$(hns_in)" -v x 2 -v y 2 -v z 2 -v t 5 -log none -screen none >"$out/san_memcheck_np$ng.log" 2>&1
      row "sanitizer memcheck HNS 2x2x2 $ng ranks rc=$? $(grep -cE 'ERROR SUMMARY: 0 errors' "$out/san_memcheck_np$ng.log") ranks clean"
    fi
    cd "$root/examples/water6540"
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$LMP" -in in.water6540 -v steps 5 -v driver cuda \
        -log none -screen none >"$out/san_${tool}_water.log" 2>&1
      row "sanitizer $tool Water-6540     rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_water.log" | tail -1)"
    done
    cd "$root"
  else
    row "sanitizer: compute-sanitizer not found"
  fi
fi

if [ "$what" = all ] || [ "$what" = drift ]; then
  # DRIFT_STEPS (default 1000) NVE steps on HNS 2x2x2 (tol 1e-6) and, with
  # DRIFT_WATER=1, Water-6540 (tol 1e-10): total-energy drift of the GPU run
  # vs CPU reaxff (8 ranks), and with OURS_FIX of the GPU run with those fix
  # keywords too.
  ds=${DRIFT_STEPS:-1000}
  drift() {  # max |E(t) - E(0)| of the TotEng column
    awk '/^ +Step/{for(i=1;i<=NF;i++) if($i=="TotEng") c=i; on=1; next} /^Loop/{on=0} on&&c{if(!n){e0=$c;n=1} d=$c-e0; if(d<0)d=-d; if(d>m)m=d} END{printf "%.4f", m}' "$1"
  }
  cd "$root/examples/HNS"
  addE='s|thermo            .*|thermo 100|; s|custom step temp pe press|custom step temp pe etotal press|'
  sed "$addE" "$root/examples/HNS/in.reaxff.hns" >"$out/in.hns.cpu"
  hns_in >/dev/null; sed -i "$addE" "$out/in.hns.gpu"
  mpirun -np 8 "$LMP" -in "$out/in.hns.cpu" -v x 2 -v y 2 -v z 2 -v t $ds -log "$out/drift_cpu.log" -screen none
  "$LMP" -in "$out/in.hns.gpu" -v x 2 -v y 2 -v z 2 -v t $ds -log "$out/drift_gpu.log" -screen none
  fx=""
  if [ -n "${OURS_FIX:-}" ]; then
    cp "$(with_keywords "$out/in.hns.gpu" "" "$OURS_FIX")" "$out/in.hns.fix"
    "$LMP" -in "$out/in.hns.fix" -v x 2 -v y 2 -v z 2 -v t $ds -log "$out/drift_fix.log" -screen none
    fx="  GPU $OURS_FIX $(drift "$out/drift_fix.log")"
  fi
  row "HNS 2x2x2 $ds-step |dE|max   CPU reaxff $(drift "$out/drift_cpu.log")  GPU $(drift "$out/drift_gpu.log")$fx kcal/mol/atom"
  if [ "${DRIFT_WATER:-0}" = 1 ]; then
    cd "$root/examples/water6540"
    wv=(-v steps $ds -v thermo 100)
    mpirun -np 8 "$LMP" -in in.water6540.reaxff "${wv[@]}" -log "$out/drift_wcpu.log" -screen none
    "$LMP" -sf gpu -in in.water6540.reaxff "${wv[@]}" -log "$out/drift_wgpu.log" -screen none
    fx=""
    if [ -n "${OURS_FIX:-}" ]; then
      "$LMP" -sf gpu -in "$(with_keywords in.water6540.reaxff "" "$OURS_FIX")" "${wv[@]}" \
        -log "$out/drift_wfix.log" -screen none
      fx="  GPU $OURS_FIX $(drift "$out/drift_wfix.log")"
    fi
    row "Water-6540 $ds-step |dE|max   CPU reaxff $(drift "$out/drift_wcpu.log")  GPU $(drift "$out/drift_wgpu.log")$fx kcal/mol"
  fi
  cd "$root"
fi

# ours side by side with reaxff/kk (bench, and side_by_side for the modes below)
source "$root/bench/device_check_bench.sh"

# Several GPUs of one host, one MPI rank per GPU, side by side with the MPI peer
# (../shared/peer/lmp-kokkos-mpi-sm90.xz, carried as .device/peer/ or named by
# PEER_MPI): CASES (default "8:1 8:2 16:1 16:2 32x16x16:2") are HNS replications
# N (N^3) or AxBxC, or waterN (LAMMPS's in.water.qeq replicated N^3), and rank counts; REPS runs each (median;
# with BASE, an older build's too, in the same runs), then one run of ours
# with `timing yes` for the phases and CG iterations. CSV: $out/scaling.csv.
if [ "$what" = scaling ]; then
  peer_mpi_xz=${PEER_MPI:-$root/.device/peer/lmp-kokkos-mpi-sm90.xz}
  KKM=/tmp/lmp-kk-mpi
  [ -x "$KKM" ] || { [ -f "$peer_mpi_xz" ] && xz -dc "$peer_mpi_xz" >"$KKM" && chmod +x "$KKM"; }
  ngpu=$(nvidia-smi -L | wc -l)
  echo "case,atoms,gpus,ours_ms,kk_ms,charges_ms,cg_s,cg_t" >"$out/scaling.csv"
  # (waterN: LAMMPS's in.water.qeq as shipped, 20 NVT steps)
  for c in ${CASES:-8:1 8:2 16:1 16:2 32x16x16:2}; do
    rep=${c%%:*}; np=${c##*:}
    [ "$np" -gt "$ngpu" ] && { row "$rep on $np GPUs: only $ngpu GPUs here"; continue; }
    if [[ $rep == water* ]]; then  # waterN: LAMMPS's in.water.qeq replicated N^3
      cd "$exr/water"; w=${rep#water}
      args=(-in in.water.qeq -v x $w -v y $w -v z $w -screen none); input=in.water.qeq
    else
      cd "$root/examples/HNS"; input=in.reaxff.hns
      if [[ $rep == *x* ]]; then IFS=x read -r rx ry rz <<<"$rep"; else rx=$rep; ry=$rep; rz=$rep; fi
      t=100; [ "$((rx * ry * rz))" -ge 1728 ] && t=20
      args=(-in in.reaxff.hns -v x $rx -v y $ry -v z $rz -v t $t -screen none)
    fi
    ours=() kk=() bs=()
    for ((r = 1; r <= reps; r++)); do
      if [ -n "$base" ]; then  # BASE (as side_by_side): the older build in the same runs
        LAMMPS_PLUGIN_PATH="$base" mpirun --bind-to none -np $np "$LMP" -sf gpu "${args[@]}" \
          -log "$out/scale_base.log"
        bs+=("$(ms_per_step "$out/scale_base.log")")
      fi
      mpirun --bind-to none -np $np "$LMP" -sf gpu "${args[@]}" -log "$out/scale_ours.log"
      ours+=("$(ms_per_step "$out/scale_ours.log")")
      if [ -x "$KKM" ]; then
        mpirun --bind-to none -np $np "$KKM" -k on g $np -sf kk -pk kokkos neigh half newton on \
          "${args[@]}" -log "$out/scale_kk.log"
        kk+=("$(ms_per_step "$out/scale_kk.log")")
      fi
    done
    mpirun --bind-to none -np $np "$LMP" -sf gpu -in "$(with_keywords $input "timing yes")" \
      "${args[@]:2}" -log "$out/scale_phases_${rep}_$np.log"
    a=$(printf '%s\n' "${ours[@]}" | median); b=$(printf '%s\n' "${kk[@]}" | median)
    atoms=$(awk '/^Loop time/ {print $(NF-1); exit}' "$out/scale_ours.log")
    ch=$(awk '/ReaxFF\/GPU phase ms\/step/ {for (i = 1; i <= NF; i++) if ($i == "charges") {print $(i + 1); exit}}' \
      "$out/scale_phases_${rep}_$np.log")
    cg=$(awk '/phase QEq/ {for (i = 1; i <= NF; i++) {if ($i == "s") s = $(i + 1); if ($i == "t") t = $(i + 1)}} END {print s "," t}' \
      "$out/scale_phases_${rep}_$np.log")
    row "$(printf '%-13s %2s GPUs atoms=%-8s ours %8s ms/step (%s)  kk %8s (%s)  kk/ours %s  charges %s ms  CG s,t %s' \
      "$rep" "$np" "$atoms" "$a" "${ours[*]}" "$b" "${kk[*]}" \
      "$(awk -v a="$a" -v b="$b" 'BEGIN{if (a > 0 && b > 0) printf "%.2f", b / a; else print "-"}')" "$ch" "$cg")"
    echo "$rep,$atoms,$np,$a,$b,$ch,$cg" >>"$out/scaling.csv"
    if [ -n "$base" ]; then
      c=$(printf '%s\n' "${bs[@]}" | median)
      row "$(printf '%-13s %2s GPUs   base %8s ms/step (%s)  ours/base %s' "$rep" "$np" "$c" "${bs[*]}" \
        "$(awk -v a="$a" -v c="$c" 'BEGIN{if (a > 0 && c > 0) printf "%.3f", a / c; else print "-"}')")"
    fi
    grep -h "rank:GPU\|QEq/GPU" "$out/scale_phases_${rep}_$np.log" | head -3
  done
  cd "$root"
fi

# A library call failing on one rank of two stops both (unittest/lammps/one_rank_failures.sh),
# here with the CUDA driver on as many GPUs as there are (two: one each).
if [ "$what" = all ] || [ "$what" = failures ]; then
  if [ -n "${BUNDLE:-}" ]; then water_dir="$B/examples-reaxff/water"
  else water_dir="$(sed -n 's/^LAMMPS_SOURCE_DIR:[A-Z]*=//p' build/CMakeCache.txt)/examples/reaxff/water"; fi
  # RANKS (default: one per GPU, at least 2)
  ranks=${RANKS:-$(nvidia-smi -L | wc -l)}; [ "$ranks" -lt 2 ] && ranks=2
  RANKS=$ranks LIMIT=60 bash unittest/lammps/one_rank_failures.sh "$LMP" "$root/examples" "$water_dir" \
    >"$out/one_rank_failures.log" 2>&1
  row "one-rank failures ($ranks ranks)   rc=$? $(grep -c '^ok' "$out/one_rank_failures.log") stopped every rank"
fi

if [ "$what" = growth ]; then
  # Issue 67: lists that grew mid-run cost no more than lists sized at the start.
  # HNS N^3 (GROWTH_N, default 8: 155,648 atoms) compressed to 1.5x its density in
  # 100 steps (fix deform), then GROWTH_STEPS (default 200) steps timed; against a
  # run started from the compressed state (write_data, read_data), the same steps.
  # ms/step of the timed run each (our -sf gpu, default settings, no capacity keywords).
  n=${GROWTH_N:-8} gs=${GROWTH_STEPS:-200} hns=$root/examples/HNS
  common="units real
atom_style charge
atom_modify map array
neighbor 2.0 bin
neigh_modify every 10 delay 0 check yes"
  styles="pair_style reaxff NULL
pair_coeff * * $hns/ffield.reax.hns C H O N
fix q all qeq/reaxff 1 0.0 10.0 1.0e-6 reaxff
timestep 0.1
fix 1 all nve
thermo 50"
  printf '%s\nread_data %s\nreplicate %s %s %s\n%s\nvelocity all create 300 4928459 loop geom\nfix d all deform 1 x scale 0.87358 y scale 0.87358 z scale 0.87358 remap x\nrun 100\nunfix d\nwrite_data %s/grown.data\nrun %s\n' \
    "$common" "$hns/data.hns-equil" "$n" "$n" "$n" "$styles" "$out" "$gs" >"$out/in.grown"
  printf '%s\nread_data %s/grown.data\n%s\nrun %s\n' "$common" "$out" "$styles" "$gs" >"$out/in.fresh"
  "$LMP" -sf gpu -in "$out/in.grown" -log "$out/growth_grown.log" -screen none
  rc1=$?
  "$LMP" -sf gpu -in "$out/in.fresh" -log "$out/growth_fresh.log" -screen none
  rc2=$?
  # the last Loop time of each log: the timed run
  last_ms() { awk '/^Loop time/ {v = 1000 * $4 / $9} END {printf "%.2f", v}' "$1"; }
  a=$(last_ms "$out/growth_grown.log") b=$(last_ms "$out/growth_fresh.log")
  row "growth HNS $n^3 compressed 1.5x mid-run rc=$rc1/$rc2  after growth $a ms/step, started grown $b ms/step ($(awk -v a="$a" -v b="$b" 'BEGIN{if (b > 0) printf "%+.1f %%", 100 * (a - b) / b}'))"
fi

if [ "$what" = soak ]; then
  # Issue 67's memory soak: SOAK_RUNS (default 20) runs in one LAMMPS process,
  # `clear` between them, each HNS 2x2x2 with QEq (20 steps, then delete_atoms of
  # a corner and 10 more, then create_atoms of new ones and 10 more); after each
  # run the GPU's memory in use and the process's resident set. Flat: no run
  # after the second holds more than the second's (GPU within 2 MiB), -sf gpu
  # and, where LAMMPS has KOKKOS, -k on.
  runs=${SOAK_RUNS:-20}
  cat >"$out/soak_probe.sh" <<'EOF2'
#!/bin/sh
# $1: the run; the LAMMPS process is the parent of the shell that runs this
lmp_pid=$(ps -o ppid= -p $PPID | tr -d ' ')
gpu=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
rss=$(awk '/VmRSS/{print $2}' /proc/$lmp_pid/status)
echo "$1 $gpu $rss"
EOF2
  hns=$root/examples/HNS
  {
    echo "variable i loop $runs"
    echo "label top"
    echo "clear"
    echo "units real"
    echo "atom_style charge"
    echo "read_data $hns/data.hns-equil"
    echo "replicate 2 2 2"
    echo "pair_style reaxff NULL"
    echo "pair_coeff * * $hns/ffield.reax.hns C H O N"
    echo "fix q all qeq/reaxff 1 0.0 10.0 1.0e-6 reaxff"
    echo "timestep 0.1"
    echo "fix 1 all nve"
    echo "thermo 10"
    echo "run 20"
    echo "region corner block 0 6 0 6 0 6 units box"
    echo "delete_atoms region corner"
    echo "run 10"
    echo "create_atoms 4 random 40 \${i}4928 corner overlap 1.2 maxtry 100"
    echo "run 10"
    echo "shell sh $out/soak_probe.sh \${i} >> $out/soak_\${mode}.txt"
    echo "next i"
    echo "jump SELF top"
  } >"$out/in.soak"
  soak() {  # $1: mode name, rest: the switch
    local mode=$1
    shift
    rm -f "$out/soak_$mode.txt"
    "$LMP" "$@" -in "$out/in.soak" -var mode "$mode" -log "$out/soak_$mode.log" -screen none
    local rc=$?
    row "soak $mode ($runs runs, clear between) rc=$rc  $(awk 'NR==2{g=$2; r=$3} NR>2{if($2-g>gm) gm=$2-g; if($3-r>rm) rm=$3-r} END{printf "GPU after run 2 %d MiB, most above it %d MiB; RSS after run 2 %d MiB, most above it %.1f MiB", g, gm, r/1024, rm/1024}' "$out/soak_$mode.txt")"
  }
  soak sfgpu -sf gpu
  if "$LMP" -h | grep -q KOKKOS; then
    soak kokkos -k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on
  fi
  cat "$out"/soak_*.txt
fi

if [ "$what" = xlmd ]; then
  # Extended-Lagrangian charges (fix qeq/reaxff/gpu xlmd yes, opt-in) against the
  # converged solve at 1e-10, NVE: HNS 2x2x2 5000 x 0.1 fs and Water-6540 2000 x 0.25 fs
  # (issue 27's criterion: max |E(t) - E(0)| no more than twice the converged solve's;
  # the slope of a least-squares line through E(t)), xlcg 2 (default) and 1; then the
  # charges of the xlcg 2 run against converged ones at the same positions (its dump,
  # rerun with the converged fix), RMS over atoms and frames.
  xl_drift() {  # label, folder, input, timestep, steps, qeq-fix regex, extra -v args...
    local label=$1 dir=$2 in=$3 dt=$4 steps=$5; shift 5
    cd "$dir"
    # variants kKcN: xlk K, xlcg N (XL_VARIANTS; the first is compared with
    # converged charges at the same positions below)
    local variants="conv ${XL_VARIANTS:-k5c2 k5c1}" res="" first
    first=$(echo ${XL_VARIANTS:-k5c2} | awk '{print $1}')
    for v in $variants; do
      local kw=""
      [ "$v" != conv ] && kw="xlmd yes xlk $(echo "$v" | sed -E 's/k([0-9]+)c([0-9]+)/\1 xlcg \2/')"
      sed -E -e "s/^(timestep[[:space:]]+).*/\1$dt/" \
        -e "s/^(thermo_style[[:space:]]+).*/\1custom step etotal pe/" \
        -e "s/^thermo_modify.*/thermo_modify norm no/" -e "s/^(thermo[[:space:]]+).*/\1 20/" \
        -e "s/^(fix[[:space:]]+[^[:space:]]+[[:space:]]+all[[:space:]]+qeq\/reax[^[:space:]]*[[:space:]]+1[[:space:]]+0.0[[:space:]]+10.0[[:space:]]+)[^[:space:]]+([[:space:]]+reaxff).*/\11.0e-10\2 maxiter 400 $kw/" \
        -e "s/^(run[[:space:]]+).*/dump xd all custom 500 $v.dump id x y z q\ndump_modify xd sort id format float %.16g\n\1$steps/" \
        "$in" >"$out/in.$v"
      "$LMP" -sf gpu -in "$out/in.$v" "$@" -log "$out/xl_$v.log" -screen none
      awk -v dtfs="$dt" '/^ *Step/ {p = 1; next} /^Loop time/ {p = 0} p && NF == 3 {t = $1 * dtfs / 1000;
        if (n == 0) e0 = $2; d = $2 - e0; if (d < 0) d = -d; if (d > m) m = d;
        n++; st += t; se += $2; stt += t * t; ste += t * $2}
        END {slope = (n * ste - st * se) / (n * stt - st * st);
        printf "max|E(t)-E(0)| %.4f kcal/mol  slope %.4f kcal/mol/ps", m, slope}' \
        "$out/xl_$v.log" >"$out/xl_$v.txt"
    done
    for v in $variants; do
      res="$res | $([ "$v" = conv ] && echo converged || echo "$v" | sed -E 's/k([0-9]+)c([0-9]+)/xlk \1 xlcg \2/') $(cat "$out/xl_$v.txt")"
    done
    row "$(printf 'xlmd %-11s %s steps x %s fs%s' "$label" "$steps" "$dt" "$res")"
    # the first variant's frames, rerun with the converged fix: its charges at the same positions
    sed -E -e "/^dump/d" -e "s/^(run[[:space:]]+).*/dump rd all custom 1 rerun.dump id q\ndump_modify rd sort id format float %.16g\nrerun $first.dump dump x y z/" \
      "$out/in.conv" >"$out/in.rerun"
    "$LMP" -sf gpu -in "$out/in.rerun" "$@" -log "$out/xl_rerun.log" -screen none
    awk 'FNR == 1 {f++} /^ITEM: ATOMS/ {a = 1; fr[f]++; next} /^ITEM/ {a = 0} a && f == 1 {q[fr[1], $1] = $5}
      a && f == 2 {d = $2 - q[fr[2], $1]; s += d * d; n++} END {printf "%.2e over %d values", sqrt(s / n), n}' \
      $first.dump rerun.dump >"$out/xl_rms.txt"
    row "$(printf 'xlmd %-11s RMS q(%s) - q(converged, same positions): %s' "$label" "$first" "$(cat "$out/xl_rms.txt")")"
    rm -f ./*.dump
    cd "$root"
  }
  # XL_SYSTEMS (default "hns water"), XL_VARIANTS the xlk/xlcg pairs (default "k5c2 k5c1")
  for sys in ${XL_SYSTEMS:-hns water}; do
    case $sys in
      hns) xl_drift "HNS 2^3" "$root/examples/HNS" in.reaxff.hns 0.1 5000 -v x 2 -v y 2 -v z 2 ;;
      water) xl_drift "Water-6540" "$root/examples/water6540" in.water6540.reaxff 0.25 2000 ;;
    esac
  done
fi

if [ "$what" = qtpie ]; then
  # QTPIE vs our QEq on examples/reaxff/water replicated REP^3 (default 3, 50 steps, ours
  # only), then 1000 NVE steps of 0.5 fs with QTPIE: CPU fix qtpie/reaxff (8 ranks) vs ours.
  # LAMMPS's examples/reaxff/water (the bundle's copy, or the source the build used)
  if [ -n "${BUNDLE:-}" ]; then exdir=$(cat "$B/examples_dir"); else
    exdir=$(grep -E '^LAMMPS_SOURCE_DIR' "$root/build/CMakeCache.txt" | cut -d= -f2)/examples/reaxff; fi
  cd "$exdir/water"
  rep=${REP:-3}
  for f in in.water.qeq in.water.qtpie; do
    sed 's/^run .*/run 50/' "$f" >"$out/$f"
    "$LMP" -sf gpu -in "$out/$f" -v x $rep -v y $rep -v z $rep -log "$out/$f.log" -screen none
    row "$(printf '%-16s water %s^3  ours %s ms/step' "$f" "$rep" "$(ms_per_step "$out/$f.log")")"
  done
  drift() { awk '/^ +Step/{for(i=1;i<=NF;i++) if($i=="TotEng") c=i; on=1; next} /^Loop/{on=0} on&&c{if(!n){e0=$c;n=1} d=$c-e0; if(d<0)d=-d; if(d>m)m=d} END{printf "%.2f", m}' "$1"; }
  for f in in.water.qtpie in.water.qtpie.field; do
    sed -e 's/^fix             2 all nvt.*/fix             2 all nve/' -e 's/^run .*/run 1000/' \
      -e 's/^thermo_style .*/thermo_style custom step temp pe etotal/' -e 's/^thermo .*/thermo 50/' "$f" >"$out/nve.$f"
    mpirun --bind-to none -np 8 "$LMP" -in "$out/nve.$f" -log "$out/nve_cpu.log" -screen none
    "$LMP" -sf gpu -in "$out/nve.$f" -log "$out/nve_gpu.log" -screen none
    row "$f 1000 NVE steps max |E(t)-E(0)| kcal/mol: CPU qtpie/reaxff $(drift "$out/nve_cpu.log")  ours $(drift "$out/nve_gpu.log")"
  done
  cd "$root"
fi

if [ "$what" = acks2 ]; then
  # ACKS2: the CUDA driver against the host driver (library tests), compute-sanitizer on
  # LAMMPS's examples/reaxff/water in.water.acks2 with -sf gpu (5 steps; SANITIZE=0 skips),
  # then that input replicated REP^3 (default 3: 81,000 atoms; tol 1e-6, maxiter 1000 as
  # shipped), 20 steps, side by side with the peer's acks2/reaxff/kk on the same file
  # (side_by_side: median of REPS runs, peak GPU memory, our phases), and our QEq and
  # kk's on the same water (in.water.qeq) for scale.
  "$UNIT" --gtest_brief=1 --gtest_filter='CudaAcks2*:Acks2*' >"$out/acks2_unit.log" 2>&1
  row "ACKS2 library tests rc=$?  $(grep -E '^\[  (PASSED|FAILED)' "$out/acks2_unit.log" | tr '\n' ' ')"
  grep -h '^\[ acks2 \]' "$out/acks2_unit.log"
  grep -B2 -A12 "Failure" "$out/acks2_unit.log" | head -60
  if [ -n "${BUNDLE:-}" ]; then exdir=$(cat "$B/examples_dir"); else
    exdir=$(grep -E '^LAMMPS_SOURCE_DIR' "$root/build/CMakeCache.txt" | cut -d= -f2)/examples/reaxff; fi
  cd "$exdir/water"
  if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
    sed 's/^run .*/run 5/' in.water.acks2 >"$out/in.water.acks2.san"
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$LMP" -sf gpu -in "$out/in.water.acks2.san" \
        -log none -screen none >"$out/san_${tool}_acks2.log" 2>&1
      row "sanitizer $tool in.water.acks2  rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_acks2.log" | tail -1)"
    done
  fi
  rep=${REP:-3}
  for f in in.water.acks2 in.water.qeq; do
    sed 's/^run .*/run 20/' "$exdir/water/$f" >"$out/$f.20"
    side_by_side "$f $rep^3" "$exdir/water" "$out/$f.20" -v x $rep -v y $rep -v z $rep
  done
  cd "$root"
fi

if [ "$what" = arch ]; then
  # The GPUs a build has code for. The bundle's plugin (the default
  # CMAKE_CUDA_ARCHITECTURES) runs HNS with -sf gpu; a plugin built without code for
  # this GPU (ARCH_PLUGIN: its folder, e.g. a build with -DCMAKE_CUDA_ARCHITECTURES=80-real,
  # machine code for sm_80 and no PTX) must stop at pair_style, naming the GPU, its
  # architecture and CMAKE_CUDA_ARCHITECTURES, on every rank count.
  arch_plugin=${ARCH_PLUGIN:+$(cd "$ARCH_PLUGIN" && pwd)}
  cd "$root/examples/HNS"
  if command -v cuobjdump >/dev/null; then
    row "bundle plugin holds: $(cuobjdump --list-elf "${LAMMPS_PLUGIN_PATH:-$root/build/plugins}/reaxffgpuplugin.so" 2>/dev/null |
      grep -oE 'sm_[0-9]+' | sort -u | tr '\n' ' ')PTX: $(cuobjdump --list-ptx \
      "${LAMMPS_PLUGIN_PATH:-$root/build/plugins}/reaxffgpuplugin.so" 2>/dev/null | grep -oE 'sm_[0-9]+' | sort -u | tr '\n' ' ')"
  fi
  "$LMP" -in in.reaxff.hns -sf gpu -v t 10 -log none >"$out/arch_default.log" 2>&1; rc=$?
  row "default architectures: HNS -sf gpu rc=$rc  $(grep -m1 'ReaxFF/GPU: using' "$out/arch_default.log")"
  if [ -n "$arch_plugin" ]; then
    for np in 1 2; do
      LAMMPS_PLUGIN_PATH="$arch_plugin" timeout 120 mpirun --bind-to none -np $np \
        "$LMP" -in in.reaxff.hns -sf gpu -v t 10 -log none >"$out/arch_missing_np$np.log" 2>&1
      rc=$?
      ok=no
      if [ $rc != 0 ] && [ $rc != 124 ] && grep -q 'no GPU code for GPU' "$out/arch_missing_np$np.log" &&
        grep -q 'CMAKE_CUDA_ARCHITECTURES' "$out/arch_missing_np$np.log" &&
        grep -q 'Last input line: pair_style' "$out/arch_missing_np$np.log"; then ok=yes; fi
      row "missing architecture np=$np: rc=$rc  stopped at pair_style with the message: $ok"
      grep -m1 'ERROR' "$out/arch_missing_np$np.log"
    done
  fi
  cd "$root"
fi

# inject, not in all: a CUDA failure on this GPU machine must fail the GPU tests, not
# skip them. Every GPU is hidden (CUDA_VISIBLE_DEVICES=""), so CUDA cannot start
# although the machine has a GPU (unittest/support/gpu_machine.h): the library's GPU
# tests and the LAMMPS-level CUDA-vs-host tests must report failures.
if [ "$what" = inject ]; then
  CUDA_VISIBLE_DEVICES="" "$UNIT" --gtest_brief=1 --gtest_filter='CudaQEq.*:CudaEngine*' \
    >"$out/inject_unit.log" 2>&1
  n_unit=$(grep -cE '^\[  FAILED  \] ' "$out/inject_unit.log")
  CUDA_VISIBLE_DEVICES="" mpirun --bind-to none -np 1 "$LTESTS" --gtest_brief=1 \
    --gtest_filter='Systems/CudaVsHost.*/HNS:CudaVsHostRuns.*:SettingsKeywords.SettingsChange*' \
    >"$out/inject_lammps.log" 2>&1
  sed -i 's/\x1b\[[0-9;]*m//g' "$out/inject_lammps.log"  # (gtest's colours under mpirun)
  n_lammps=$(grep -cE '^\[  FAILED  \] ' "$out/inject_lammps.log")
  skipped=$(cat "$out"/inject_*.log | grep -cE '^\[  SKIPPED \] ')
  row "injected CUDA failure (no visible GPU): unit failed lines $n_unit, lammps failed lines $n_lammps, skipped $skipped (want failures, 0 skipped)"
  grep -hE -m3 'CUDA cannot use it|no usable GPU' "$out"/inject_*.log
fi

# The tuning and analysis modes (profile, floors, qeqtol, qeqmatrix, predictor,
# lanes): bench/device_check_tuning.sh; yaml: bench/device_check_yaml.sh; large:
# bench/device_check_large.sh; each with the helpers above.
source "$root/bench/device_check_tuning.sh"
source "$root/bench/device_check_yaml.sh"
source "$root/bench/device_check_large.sh"

echo
echo "=== reaxff-cuda device check: $(cat "$out/gpu.txt") ==="
for r in "${table[@]}"; do echo "  $r"; done | tee "$out/table.txt"
