# Sourced by bench/device_check.sh (its helpers and variables: what, out, root,
# LMP, UNIT, row, side_by_side, ...): the modes that tune or analyse rather than
# prove, none of them in `all`. Run them through device_check.sh.

if [ "$what" = profile ]; then
  # Per-kernel GPU time under ncu (clocks left alone, METHOD.md) over PROFILE_STEPS
  # steps (default 10) of HNS PROFILE_N^3 (default 8), summed by kernel, ms per
  # launch and per force evaluation; then ncu's full section set for one launch of
  # each kernel whose demangled name matches a PROFILE_KERNELS regex (space-separated),
  # reports in $out/ncu_*.txt. OURS_FIX: charge-fix keywords for the runs.
  n=${PROFILE_N:-8}; steps=${PROFILE_STEPS:-10}
  cd "$root/examples/HNS"
  hin=in.reaxff.hns  # (OURS_FIX: with those charge-fix keywords)
  [ -n "${OURS_FIX:-}" ] && hin=$(with_keywords in.reaxff.hns "" "$OURS_FIX")
  H=("$hin" -v x "$n" -v y "$n" -v z "$n" -v t "$steps")
  ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    "$LMP" -sf gpu -in "${H[@]}" -screen none -log "$out/profile_lmp.log" \
    >"$out/ncu_times.csv" 2>"$out/ncu_times.err"
  python3 - "$out/ncu_times.csv" "$steps" >"$out/ncu_kernels.txt" <<'PY'
import csv, sys, collections
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
t = collections.defaultdict(float); c = collections.Counter()
for r in csv.DictReader(rows):
    if r.get("Metric Name") != "gpu__time_duration.sum": continue
    v = float(r["Metric Value"].replace(",", ""))
    v *= {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0,
          "s": 1e3, "second": 1e3}[r["Metric Unit"]]
    t[r["Kernel Name"][:110]] += v; c[r["Kernel Name"][:110]] += 1
evals = int(sys.argv[2]) + 1
print(f"{'ms per force evaluation':>10} {'launches':>8} {'ms/launch':>9}  kernel ({evals} evaluations)")
for k, v in sorted(t.items(), key=lambda kv: -kv[1]):
    print(f"{v / evals:10.3f} {c[k]:8d} {v / c[k]:9.4f}  {k}")
print(f"{sum(t.values()) / evals:10.3f} total")
PY
  head -45 "$out/ncu_kernels.txt"
  for k in ${PROFILE_KERNELS:-}; do
    ncu --clock-control none --set full --kernel-name-base demangled -k "regex:$k" \
      --launch-skip 2 --launch-count 1 "$LMP" -sf gpu -in "${H[@]}" -screen none \
      -log none >"$out/ncu_$(echo "$k" | tr -c 'A-Za-z0-9' _).txt" 2>&1
  done
  cd "$root"
fi

if [ "$what" = floors ]; then
  # The memory floor of each phase of one step, as the code stands: ncu's DRAM bytes
  # (read + written) of the phase's kernels over the bandwidth bench/floor_probe.cu
  # measures (a device-to-device copy), beside their GPU time, for the last force evaluation of
  # HNS FLOORS_N^3 (default 16) after FLOORS_STEPS steps (default 2); kernels named by
  # no rule (CUB's scans) count in the phase of the kernel before them. A floor of this
  # design's bytes, not of the work: fewer bytes is another design (bench/README).
  n=${FLOORS_N:-16}; steps=${FLOORS_STEPS:-2}
  bw=$("$B/bin/floor_probe" | tee "$out/floor_probe.txt" | sed -E 's/.*copy ([0-9.]+) TB.*/\1/')
  bw=$(awk -v t="$bw" 'BEGIN {print t * 1000}')  # GB/s
  cat "$out/floor_probe.txt"
  cd "$root/examples/HNS"
  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    --csv "$LMP" -sf gpu -in in.reaxff.hns -v x "$n" -v y "$n" -v z "$n" -v t "$steps" \
    -screen none -log "$out/floors_lmp.log" >"$out/ncu_floors.csv" 2>"$out/ncu_floors.err"
  python3 - "$out/ncu_floors.csv" "$bw" "$n" >"$out/floors.txt" <<'PY'
import csv, re, sys, collections
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
bw = float(sys.argv[2]) * 1e9
unit = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0,
        "s": 1e3, "second": 1e3, "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9,
        "KB": 1e3, "MB": 1e6, "GB": 1e9, "B": 1}
k = collections.OrderedDict()
for r in csv.DictReader(rows):
    e = k.setdefault(int(r["ID"]), {"name": r["Kernel Name"]})
    e[r["Metric Name"]] = float(r["Metric Value"].replace(",", "")) * unit[r["Metric Unit"]]
rules = [("transfer", r"map_atoms|to_caller|virial_partials|k_finalize"),
         ("neighbours", r"cell_|skin_|near_rows|max_displacement|box_|copy_build_atoms"),
         ("lists", r"pair_lists|three_body"),
         ("bond orders", r"BondOrderPrime|CorrectedBo"),
         ("bonded", r"AtomBonded|angle_items|BondEnergy|LonePair|OverUnder|ValenceAngles|Torsions"),
         ("hbonds", r"HydrogenBond"), ("nonbonded", r"Nonbonded"),
         ("chain rule", r"k_bond_entry|DeltapChainRule"),
         # every kernel is k_name: the charge stage's are the ones no rule above names
         ("charges", r"(^|::| )k_[a-z]")]
evals, phase = [], "transfer"
for e in k.values():
    name = e["name"]
    for p, rx in rules:
        if re.search(rx, name):
            phase = p
            break
    if "map_atoms" in name: evals.append([])
    if evals: evals[-1].append((phase, e))
last = evals[-1]
t = collections.defaultdict(float); by = collections.defaultdict(float)
for p, e in last:
    t[p] += e.get("gpu__time_duration.sum", 0.0)
    by[p] += e.get("dram__bytes_read.sum", 0.0) + e.get("dram__bytes_write.sum", 0.0)
print(f"HNS {sys.argv[3]}^3, force evaluation {len(evals)} of {len(evals)}, {bw / 1e9:.0f} GB/s (copy)")
print(f"{'phase':12} {'GPU ms':>8} {'DRAM GB':>8} {'floor ms':>9} {'time/floor':>10}")
order = [p for p, _ in rules]
for p in order:
    if p in t:
        f = by[p] / bw * 1e3
        print(f"{p:12} {t[p]:8.3f} {by[p] / 1e9:8.3f} {f:9.3f} {t[p] / f if f else 0:10.1f}")
T = sum(t[p] for p in order if p not in ("charges",)); Y = sum(by[p] for p in order if p != "charges")
print(f"{'force half':12} {T:8.3f} {Y / 1e9:8.3f} {Y / bw * 1e3:9.3f} {T / (Y / bw * 1e3):10.1f}")
print()
print("kernels of that evaluation (ms, GB, GB/s):")
agg = collections.OrderedDict()
for p, e in last:
    nm = re.sub(r"\(anonymous namespace\)::|puremd::cuda::|puremd::|void ", "", e["name"])[:70]
    a = agg.setdefault((p, nm), [0.0, 0.0])
    a[0] += e.get("gpu__time_duration.sum", 0.0)
    a[1] += e.get("dram__bytes_read.sum", 0.0) + e.get("dram__bytes_write.sum", 0.0)
for (p, nm), (ms, b) in agg.items():
    if ms > 0.005: print(f"  {p:11} {ms:8.3f} {b / 1e9:7.3f} {b / 1e9 / (ms * 1e-3) if ms else 0:7.0f}  {nm}")
PY
  cat "$out/floors.txt"
  cd "$root"
fi

if [ "$what" = qeqtol ]; then
  # How far the CG tolerance moves the GPU-vs-host comparison after 100 NVE steps: for
  # RDX and CHO at QEq tolerance 1e-12 and 1e-14, one host run and GPU_RUNS GPU runs
  # (default 6); the worst relative eqeq difference after 100 steps, and on how many
  # steps the GPU's iteration counts differ from the host's. Behind the LAMMPS-level
  # comparisons' tolerance (unittest/lammps/comparison.cpp).
  runs=${GPU_RUNS:-6}
  for spec in "RDX data.RDX ffield.reax.rdx H_C_O_N" "CHO data.CHO ffield.reax.cho H_C_O"; do
    set -- $spec
    for tol in 1e-12 1e-14; do
      for ((r = 0; r <= runs; r++)); do
        drv=cuda; [ $r = 0 ] && drv=host
        "$LMP" -in "$root/bench/in.qeq_tolerance" -v dir "$root/examples/$1" -v data "$2" -v ff "$3" \
          -v el "${4//_/ }" -v drv $drv -v tol $tol -log "$out/qeqtol.log" -screen none
        awk '/^ *Step/{f=1;next} /^Loop/{f=0} f{print $2, $3, $4}' "$out/qeqtol.log" >"$out/qeqtol_$r.txt"
      done
      row "$(for ((r = 1; r <= runs; r++)); do paste "$out/qeqtol_0.txt" "$out/qeqtol_$r.txt"; done |
        awk -v n=$1 -v t=$tol -v m=$((runs * 101)) '{if ($1 != $4 || $2 != $5) it++}
          NR % 101 == 0 {d = ($6 - $3) / $3; if (d < 0) d = -d; if (d > w) w = d; if (!lo || d < lo) lo = d}
          END {printf "%-4s QEq tol %s  eqeq GPU vs host after 100 steps %.1e .. %.1e  iterations differ on %d of %d steps", n, t, lo, w, it, m}')"
    done
  done
fi

if [ "$what" = qeqmatrix ]; then
  # The CUDA QEq solver with the matrix stored in full, each pair once, or matrix-free
  # (fix keyword `matrix`; MODES, default "full half free"):
  # ours only, one run each with the phase table, peak GPU memory from nvidia-smi.
  # SYSTEMS as for bench (default "8 16 water").
  qm_run() {  # label, fix keywords, lmp arguments (the input first)...
    local label=$1 kw=$2 in=$3 m; shift 3
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 >"$out/mem.txt" & m=$!
    "$LMP" -sf gpu -in "$(with_keywords "$in" "timing yes" "$kw")" "$@" -log "$out/qm.log" -screen none
    kill $m; wait $m 2>/dev/null
    row "$(printf '%-24s %7s ms/step  GPU MiB %s  %s' "$label" "$(ms_per_step "$out/qm.log")" \
      "$(sort -n "$out/mem.txt" | tail -1)" "$(grep -h 'ReaxFF/GPU phase ms' "$out/qm.log" | sed 's/.*steps: //')")"
    grep -h 'ReaxFF/GPU phase QEq' "$out/qm.log"
  }
  for sys in ${SYSTEMS:-8 16 water}; do
    for mode in ${MODES:-full half free}; do
      case $sys in
        water) cd "$root/examples/water6540"
          qm_run "Water-6540 matrix $mode" "matrix $mode" in.water6540.reaxff -v steps 100 ;;
        water3) cd "$root/examples/water6540"
          qm_run "Water 3^3 matrix $mode" "matrix $mode" in.water6540.reaxff -v steps 20 -v rep 3 ;;
        *) cd "$root/examples/HNS"; t=100; [ "$sys" -ge 16 ] && t=20; [ "$sys" -ge 24 ] && t=10
          qm_run "HNS $sys^3 matrix $mode" "matrix $mode" in.reaxff.hns -v x $sys -v y $sys -v z $sys -v t $t ;;
      esac
    done
  done
  cd "$root"
fi

if [ "$what" = predictor ]; then
  # How the QEq fix's starting point (fix keyword `predictor`) changes the CG work: for
  # each of PREDICTORS (default "lammps aspc quadratic linear") on each of PSYSTEMS
  # (default "hns2 hns8 water": HNS 2^3 1000 steps, HNS 8^3 200, Water-6540 1000; STEPS
  # overrides the step counts), one run with -sf gpu, `predictor NAME` on the QEq fix and
  # thermo every step printing only the step and the fix's vector (f_ID[1], f_ID[2]: the
  # s and t iterations of that step's solve; no energy, so no extra energy tally). One row
  # per (system, predictor): the mean s and t iterations per step, the mean of max(s, t)
  # (the products of a solver that iterates s and t together), and ms/step (the loop
  # time; one thermo line a step included). Step 0 (a solve from an empty history) is
  # left out of the means. DRIVER=host|cuda adds `driver DRIVER` to the pair style (e.g.
  # a short sanity run on a machine without a GPU: DRIVER=host PSYSTEMS=hns2 STEPS=200).
  pred_run() {  # label, predictor, lmp arguments (the input first)...
    local label=$1 p=$2 in=$3 fix; shift 3
    with_keywords "$in" "${DRIVER:+driver $DRIVER}" "predictor $p" >/dev/null
    fix=$(awk '$1 == "fix" && $4 ~ /^qeq\/reax/ {print $2; exit}' "$out/in.keywords")
    # (after the fix is defined: just before the run)
    sed -E -e '/^thermo(_style)?[[:space:]]/d' \
      -e "/^run[[:space:]]/i thermo_style custom step f_$fix[1] f_$fix[2]" \
      -e '/^run[[:space:]]/i thermo 1' "$out/in.keywords" >"$out/in.predictor"
    "$LMP" -sf gpu -in "$out/in.predictor" "$@" -log "$out/pred_$p.log" -screen none
    row "$(printf '%-12s %-10s %s  %7s ms/step' "$label" "$p" "$(awk -v f="f_$fix[1]" '
      $1 == "Step" && $2 == f {on = 1; next} /^Loop time/ {on = 0}
      on && $1 ~ /^[0-9]+$/ && $1 > 0 {n++; s += $2; t += $3; m += ($2 > $3 ? $2 : $3)}
      END {if (n) printf "mean iterations s %6.2f  t %6.2f  max(s,t) %6.2f  (%d steps)", s / n, t / n, m / n, n;
           else printf "no iteration counts in the log"}' "$out/pred_$p.log")" \
      "$(ms_per_step "$out/pred_$p.log")")"
  }
  for sys in ${PSYSTEMS:-hns2 hns8 water}; do
    for p in ${PREDICTORS:-lammps aspc quadratic linear}; do
      case $sys in
        water) cd "$root/examples/water6540"
          pred_run "Water-6540" "$p" in.water6540.reaxff -v steps "${STEPS:-1000}" ;;
        hns*) n=${sys#hns}; t=1000; [ "$n" -ge 8 ] && t=200
          cd "$root/examples/HNS"
          pred_run "HNS $n^3" "$p" in.reaxff.hns -v x "$n" -v y "$n" -v z "$n" -v t "${STEPS:-$t}" ;;
      esac
    done
  done
  cd "$root"
fi

if [ "$what" = lanes ]; then
  # Threads per row of the long-row stages (lib/puremd_gpu/src/cuda/thread_mapping.h):
  # one stage varied at a time (pair_style keyword `lanes`), the others at their
  # defaults; HNS 8x8x8 (40 steps) and Water-6540 (hbonds). The neighbour search is
  # timed with `skin 0` (a fresh list every step), the compaction with LAMMPS's skin.
  lane_run() {  # label, pair_style keywords, lmp arguments (the input first)...
    local label=$1 kw=$2 in=$3; shift 3
    "$LMP" -sf gpu -in "$(with_keywords "$in" "timing yes $kw")" "$@" -log "$out/lanes.log" -screen none
    row "$(printf '%-28s %7s ms/step  %s' "$label" "$(ms_per_step "$out/lanes.log")" \
      "$(grep -h 'ReaxFF/GPU phase ms' "$out/lanes.log" | sed 's/.*steps: //')")"
  }
  cd "$root/examples/HNS"
  H=(in.reaxff.hns -v x 8 -v y 8 -v z 8 -v t 40)
  lane_run "HNS8 defaults" "" "${H[@]}"
  lane_run "HNS8 skin 0 (no reuse)" "skin 0" "${H[@]}"
  for L in 1 4 8 16 32; do lane_run "HNS8 nonbonded=$L" "lanes nonbonded=$L" "${H[@]}"; done
  for L in 1 4 8 32; do lane_run "HNS8 hbonds=$L" "lanes hbonds=$L" "${H[@]}"; done
  for L in 1 4 8 16 32; do lane_run "HNS8 skin0 neighbors=$L" "skin 0 lanes neighbors=$L" "${H[@]}"; done
  for L in 1 4 8 16 32; do lane_run "HNS8 compaction=$L" "lanes compaction=$L" "${H[@]}"; done
  for L in 1 4 8 16 32; do lane_run "HNS8 lists=$L" "lanes lists=$L" "${H[@]}"; done
  cd "$root/examples/water6540"
  W=(in.water6540.reaxff -v steps 50)
  lane_run "water defaults" "" "${W[@]}"
  lane_run "water skin 0 (no reuse)" "skin 0" "${W[@]}"
  for L in 1 4 8 32; do lane_run "water hbonds=$L" "lanes hbonds=$L" "${W[@]}"; done
  for L in 1 4 8 32; do lane_run "water nonbonded=$L" "lanes nonbonded=$L" "${W[@]}"; done
  for L in 1 4 8 32; do lane_run "water lists=$L" "lanes lists=$L" "${W[@]}"; done
  cd "$root"
fi
