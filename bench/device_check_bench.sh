# The bench mode of bench/device_check.sh (sourced by it, where the mode runs, with its
# helpers): ours side by side with reaxff/kk, and side_by_side for the modes after it.
# Side by side with reaxff/kk on the SAME input file: ours with -sf gpu (and -k on,
# below), reaxff/kk with -sf kk. REPS runs each (default 3), the
# median ms/step (LAMMPS loop time) and the highest GPU memory nvidia-smi saw
# (polled every 100 ms); one more run of ours with `timing yes` prints the phases.
reps=${REPS:-3}
peer_xz=${PEER:-$root/.device/peer/lmp-kokkos-sm90.xz}
# Our two paths, measured in the same runs where the bundle's LAMMPS has KOKKOS for a
# GPU (bench/make_device_bundle.sh of a build against scripts/kokkos.sh's LAMMPS):
# `-sf gpu` (what a user gets by one word) and `-k on` (the atoms in Kokkos's arrays);
# PATHS picks (default both there, else gpu). reaxff/kk is then that same binary's
# (KK_BIN overrides; else the peer, ../shared/peer/lmp-kokkos-sm90.xz).
declare -A path_args=([gpu]="-sf gpu" [kokkos]="-k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on")
if "$LMP" -h 2>/dev/null | grep -q '^KOKKOS package API:.*CUDA'; then
  paths=(${PATHS:-gpu kokkos}); KK=${KK_BIN:-$LMP}
else
  paths=(${PATHS:-gpu}); KK=${KK_BIN:-/tmp/lmp-kk}
fi
# OURS_ARGS: one path of our own switches instead
[ -n "${OURS_ARGS:-}" ] && path_args[custom]=$OURS_ARGS && paths=(custom)

median() { sort -n | awk '{v[NR] = $1} END {if (NR) printf "%.2f", v[int((NR + 1) / 2)]; else print "-"}'; }
peak_mib() { sort -n "$1" | tail -1; }
ratio() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN{if (a > 0 && b > 0) printf f, a / b; else print "-"}'; }
# BASE=folder holding another build's reaxffgpuplugin.so (an older commit's): its
# ms/step too on each path, in the same runs (ours, base, kk in turn), for "no slower
# than" checks; BASE_FIX_gpu / BASE_FIX_kokkos: keywords for its charge fix on that path.
base=${BASE:-}
# OURS_FIX="keywords": appended to the charge fix's line in our runs only (not
# base's or kk's), e.g. OURS_FIX="precond jacobi" BASE=$B/plugins compares
# preconditioners in one plugin, beside kk.
side_by_side() {  # label, folder, input, steps-args...
  local label=$1 dir=$2 in=$3 in_base=$3; shift 3
  # the peer, unpacked by the first side-by-side run
  [ -x "$KK" ] || { [ -f "$peer_xz" ] && xz -dc "$peer_xz" >"$KK" && chmod +x "$KK"; }
  cd "$dir"
  local kk=() xl=() mk=0 m p r
  local -A ms=() bms=() mib=()
  [ -n "${OURS_FIX:-}" ] && in=$(with_keywords "$in" "" "$OURS_FIX") && cp "$in" "$out/in.ours" && in=$out/in.ours
  # xlmd runs three times the steps (-v t / -v steps), so that its K converged
  # solves after the start weigh as little as in a production run
  local xl_args=() prev="" a
  for a in "$@"; do
    { [ "$prev" = t ] || [ "$prev" = steps ]; } && a=$((a * 3))
    xl_args+=("$a"); prev=$a
  done
  for ((r = 1; r <= reps; r++)); do
    if [ "${XLMD:-0}" = 1 ]; then  # ours with extended-Lagrangian charges (opt-in)
      "$LMP" -sf gpu -in "$(with_keywords "$in" "" "xlmd yes")" "${xl_args[@]}" -log "$out/bench_xl.log" \
        -screen none
      xl+=("$(ms_per_step "$out/bench_xl.log")")
    fi
    for p in "${paths[@]}"; do
      read -r -a pa <<<"${path_args[$p]}"
      if [ -n "$base" ]; then
        # BASE_FIX_<path>="keywords": appended to base's charge fix on that path
        local bf=BASE_FIX_$p bin=$in_base
        [ -n "${!bf:-}" ] && bin=$(with_keywords "$in_base" "" "${!bf}") && cp "$bin" "$out/in.base" && bin=$out/in.base
        LAMMPS_PLUGIN_PATH="$base" "$LMP" "${pa[@]}" -in "$bin" "$@" -log "$out/bench_base.log" -screen none
        bms[$p]+=" $(ms_per_step "$out/bench_base.log")"
      fi
      nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 >"$out/mem.txt" & m=$!
      "$LMP" "${pa[@]}" -in "$in" "$@" -log "$out/bench_ours_$p.log" -screen none
      kill $m; wait $m 2>/dev/null
      ms[$p]+=" $(ms_per_step "$out/bench_ours_$p.log")"
      mib[$p]=$(printf '%s\n' "${mib[$p]:-0}" "$(peak_mib "$out/mem.txt")" | sort -n | tail -1)
    done
    if [ -x "$KK" ]; then
      nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 >"$out/mem.txt" & m=$!
      "$KK" -k on g 1 -sf kk -pk kokkos neigh half newton on -in "$in_base" "$@" -log "$out/bench_kk.log" -screen none
      kill $m; wait $m 2>/dev/null
      kk+=("$(ms_per_step "$out/bench_kk.log")"); mk=$(printf '%s\n' "$mk" "$(peak_mib "$out/mem.txt")" | sort -n | tail -1)
    fi
  done
  local atoms b c tag=${label//[^A-Za-z0-9+.]/_}
  [ -f "$out/bench_kk.log" ] && cp "$out/bench_kk.log" "$out/log_kk_$tag.log"
  b=$(printf '%s\n' "${kk[@]}" | median)
  row "$(printf '%-14s reaxff/kk %8s ms/step (%s)  GPU MiB %s' "$label" "$b" "${kk[*]}" "$mk")"
  [ -s "$out/bench.csv" ] || echo "system,atoms,ours_ms,kk_ms,ours_mib,kk_mib,path,runs,kk_runs" >"$out/bench.csv"
  for p in "${paths[@]}"; do
    cp "$out/bench_ours_$p.log" "$out/log_ours_${p}_$tag.log"
    atoms=$(awk '/^Loop time/ {print $(NF-1); exit}' "$out/bench_ours_$p.log")
    a=$(printf '%s\n' ${ms[$p]} | median)
    row "$(printf '%-14s   ours %-6s %8s ms/step (%s)  kk/ours %s  GPU MiB %s  atoms %s' "$label" "$p" "$a" \
      "${ms[$p]# }" "$(ratio "$b" "$a")" "${mib[$p]}" "$atoms")"
    if [ -n "$base" ]; then
      c=$(printf '%s\n' ${bms[$p]} | median)
      row "$(printf '%-14s   base %-6s %8s ms/step (%s)  ours/base %s  kk/base %s' "$label" "$p" "$c" \
        "${bms[$p]# }" "$(ratio "$a" "$c" %.3f)" "$(ratio "$b" "$c")")"
    fi
    # one CSV row per system and path for bench/plot_side_by_side.py and figures.csv
    echo "$label,$atoms,$a,$b,${mib[$p]},$mk,$p,${ms[$p]# },${kk[*]}" >>"$out/bench.csv"
  done
  if [ "${XLMD:-0}" = 1 ]; then
    local x; x=$(printf '%s\n' "${xl[@]}" | median)
    row "$(printf '%-14s   ours xlmd yes %8s ms/step (%s)  kk/ours-xlmd %s' "$label" "$x" "${xl[*]}" "$(ratio "$b" "$x")")"
  fi
  # the phases, from one more run of ours on each path with the timing table on
  for p in "${paths[@]}"; do
    read -r -a pa <<<"${path_args[$p]}"
    echo "phases, ours $p ($label):"
    "$LMP" "${pa[@]}" -in "$(with_keywords "$in" "timing yes")" "$@" -log "$out/phases.log" -screen none
    awk '/ReaxFF\/GPU (phase|peak)/ {p = 1; print; next} p && /^  / {print; next} {p = 0}' \
      "$out/phases.log"
    grep -E '^(Pair|Bond|Neigh|Comm|Output|Modify|Other) +\|' "$out/phases.log"
  done
  if [ "${XLMD:-0}" = 1 ]; then
    echo "phases with xlmd yes ($label):"
    "$LMP" -sf gpu -in "$(with_keywords "$in" "timing yes" "xlmd yes")" "${xl_args[@]}" \
      -log "$out/phases.log" -screen none
    awk '/ReaxFF\/GPU phase/ {p = 1; print; next} p && /^  / {print; next} {p = 0}' "$out/phases.log"
  fi
  cd "$root"
}

# LAMMPS's examples/reaxff (the bundle's copy, or the source the build used)
if [ -n "${BUNDLE:-}" ]; then exr="$B/examples-reaxff"
else exr="$(sed -n 's/^LAMMPS_SOURCE_DIR:[A-Z]*=//p' build/CMakeCache.txt)/examples/reaxff"; fi
hns_with() {  # LAMMPS's HNS input with line $2 before its run, as $out/in.hns.$1
  sed "s|^run |$2\nrun |" "$root/examples/HNS/in.reaxff.hns" >"$out/in.hns.$1"
  echo "$out/in.hns.$1"
}

if [ "$what" = all ] || [ "$what" = bench ] || [ "$what" = quick ]; then
  # SYSTEMS picks (default 2 4 8 16 water): HNS replications N (100 steps up to 8^3,
  # 20 from 12^3, 10 from 24^3; HNS_STEPS sets them), water (Water-6540), water3 (Water 3^3, 176,580
  # atoms, 20 steps), silica (Silica-6000). Users' inputs: species8 (HNS 8^3, 100
  # steps, with fix reaxff/species 10 10 100), bonds16 (HNS 16^3, 100 steps, without
  # and with fix reaxff/bonds 100, REPS runs each), qeq6 and acks2_6 (LAMMPS's
  # in.water.qeq and in.water.acks2 as shipped, 20 NVT steps, replicated 6^3; acks2_N
  # replicated N^3, ACKS2_REPS runs each, default 1: reaxff/kk takes seconds per
  # step), tatb11 (LAMMPS's in.reaxff.tatb
  # as shipped, 25 steps with fix reaxff/bonds, compute reaxff/atom and its two dumps
  # every 5 steps and fix reaxff/species 1 5 5, replicated 11^3: 511,104 atoms).
  for sys in ${SYSTEMS:-2 4 8 16 water}; do
    case $sys in
      water) side_by_side "Water-6540" "$root/examples/water6540" in.water6540.reaxff -v steps 100 ;;
      water3) side_by_side "Water 3^3" "$root/examples/water6540" in.water6540.reaxff -v steps 20 -v rep 3 ;;
      silica) side_by_side "Silica-6000" "$root/examples/silica6000" in.silica6000.reaxff -v steps 100 ;;
      species8) side_by_side "HNS8+species" "$root/examples/HNS" \
        "$(hns_with species 'fix 3 all reaxff/species 10 10 100 species.out element C H O N')" \
        -v x 8 -v y 8 -v z 8 -v t 100 ;;
      bonds16) side_by_side "HNS16 t100" "$root/examples/HNS" in.reaxff.hns -v x 16 -v y 16 -v z 16 -v t 100
        side_by_side "HNS16+bonds" "$root/examples/HNS" "$(hns_with bonds 'fix 4 all reaxff/bonds 100 bonds.out')" \
          -v x 16 -v y 16 -v z 16 -v t 100 ;;
      qeq6) side_by_side "water.qeq 6^3" "$exr/water" in.water.qeq -v x 6 -v y 6 -v z 6 ;;
      tatb11) sed 's|^read_data .*|&\nreplicate 11 11 11|' "$exr/in.reaxff.tatb" >"$out/in.tatb11"
        side_by_side "TATB 11^3" "$exr" "$out/in.tatb11" ;;
      acks2_*) n=${sys#acks2_}  # acks2_N: in.water.acks2 replicated N^3
        reps=${ACKS2_REPS:-1} side_by_side "water.acks2 $n^3" "$exr/water" in.water.acks2 -v x $n -v y $n -v z $n ;;
      *) t=100; [ "$sys" -ge 12 ] && t=20; [ "$sys" -ge 24 ] && t=10; t=${HNS_STEPS:-$t}
        side_by_side "HNS $sys^3" "$root/examples/HNS" in.reaxff.hns -v x $sys -v y $sys -v z $sys -v t $t ;;
    esac
  done
fi

