# The `large` mode of bench/device_check.sh (sourced by it, with its helpers):
# the largest systems on one GPU (issue 57). For each N in SIZES (default 32:
# 9.96M atoms, 2.56e9 skin-list entries, past the old 32-bit list index),
# LAMMPS's HNS input at N^3 with our styles (driver cuda), STEPS steps
# (default 2): every energy term per atom at step 0 against HNS 2^3 on the
# host driver (replicas of one crystal cell: the per-atom energies of any
# replication agree, up to the QEq tolerance: QEQ_TOL, default the input's
# 1e-6), the step time, the highest GPU memory nvidia-smi saw, and our memory
# table (`timing yes`). KK_LARGE=1 runs the peer's reaxff/kk on the same
# input too (it stops at HNS 44^3's set-up, out of GPU memory, on an H200).
if [ "$what" = large ]; then
  cd "$root/examples/HNS"
  terms="pe evdwl ecoul$(for k in $(seq 1 14); do printf ' c_reax[%d]' "$k"; done)"
  # QEQ_TOL: the charge fix's tolerance (default the input's 1e-6; the comparison
  # at step 0 is then limited by it, not by the code: 1e-10 takes it below 1e-9)
  sed -e "s|^thermo_style .*|thermo_style custom step $terms|" \
    -e "s|^thermo_modify .*|thermo_modify norm yes format float %.12g|" \
    -e "s|qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff|qeq/reaxff/gpu 1 0.0 10.0 ${QEQ_TOL:-1e-6} reaxff maxiter 1000|" \
    "$(hns_in)" >"$out/in.large"
  with_keywords "$out/in.large" "timing yes" >/dev/null && cp "$out/in.keywords" "$out/in.large.gpu"
  sed 's|driver cuda|driver host|' "$out/in.large" >"$out/in.large.host"
  "$LMP" -in "$out/in.large.host" -v x 2 -v y 2 -v z 2 -v t 0 -log "$out/large_ref.log" -screen none
  step0() { awk '/^ +Step/ {on = 1; next} on {print; exit}' "$1"; }
  for n in ${SIZES:-32}; do
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$out/mem.txt" & m=$!
    "$LMP" -in "$out/in.large.gpu" -v x $n -v y $n -v z $n -v t "${STEPS:-2}" \
      -log "$out/large_$n.log" -screen none >"$out/large_$n.out" 2>&1
    rc=$?
    kill $m; wait $m 2>/dev/null
    worst=$(paste <(step0 "$out/large_ref.log" | tr -s ' ' '\n' | sed '/^$/d') \
      <(step0 "$out/large_$n.log" | tr -s ' ' '\n' | sed '/^$/d') | awk 'NR > 1 {
        d = $1 - $2; if (d < 0) d = -d; s = ($1 < 0 ? -$1 : $1); r = d / (s > 1e-3 ? s : 1e-3)
        if (r > w) w = r} END {printf "%.2e", w}')
    row "$(printf 'HNS %s^3 rc=%s atoms=%s  %s ms/step  GPU %s MiB  step-0 terms/atom vs HNS 2^3 host: worst relative %s' \
      "$n" "$rc" "$(awk '/^Loop time/ {print $(NF-1); exit}' "$out/large_$n.log")" \
      "$(ms_per_step "$out/large_$n.log")" "$(peak_mib "$out/mem.txt")" "$worst")"
    [ $rc != 0 ] && grep -m2 -E 'ERROR|rror' "$out/large_$n.log" "$out/large_$n.out"
    awk '/ReaxFF\/GPU (phase|peak)/ {p = 1; print; next} p && /^  / {print; next} {p = 0}' \
      "$out/large_$n.log"
    [ "${KK_LARGE:-0}" = 1 ] && [ ! -x "$KK" ] && [ -f "$peer_xz" ] && xz -dc "$peer_xz" >"$KK" && chmod +x "$KK"
    if [ "${KK_LARGE:-0}" = 1 ] && [ -x "$KK" ]; then
      nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$out/mem.txt" & m=$!
      "$KK" -k on g 1 -sf kk -pk kokkos neigh half newton on -in "$root/examples/HNS/in.reaxff.hns" \
        -v x $n -v y $n -v z $n -v t "${STEPS:-2}" -log "$out/large_kk_$n.log" -screen none \
        >"$out/large_kk_$n.out" 2>&1
      rc=$?
      kill $m; wait $m 2>/dev/null
      row "$(printf 'HNS %s^3 reaxff/kk rc=%s  %s ms/step  GPU %s MiB' "$n" "$rc" \
        "$(ms_per_step "$out/large_kk_$n.log")" "$(peak_mib "$out/mem.txt")")"
    fi
  done
  cd "$root"
fi
