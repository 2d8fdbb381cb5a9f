# The `yaml` mode of bench/device_check.sh (sourced by it, with its helpers).
if [ "$what" = yaml ]; then
  # LAMMPS's pair-style harness (its unittest/force-styles/test_pair_style.cpp) on its
  # ReaxFF reference data (tests/atomic-pair-reaxff*.yaml), our copies with `driver cuda`
  # (unittest/force_styles: made at build time, epsilon widened by 7.5, the factor
  # LAMMPS's harness gives its own GPU package in double precision). The harness tests
  # that apply (plain, extract: see unittest/force_styles/CMakeLists.txt), one row per
  # file with the largest relative error it printed (-s) and the file's epsilon.
  if [ -n "${BUNDLE:-}" ]; then
    harness="$B/bin/test_pair_style"; yamls="$B/force-styles"; inputs="$B/force-styles/tests"
    export LAMMPS_POTENTIALS="$B/force-styles/potentials"
  else
    src=$(grep -E '^LAMMPS_SOURCE_DIR' "$root/build/CMakeCache.txt" | cut -d= -f2)
    harness="$root/build/unittest/force_styles/test_pair_style"
    yamls="$root/build/unittest/force_styles/cuda"; inputs="$src/unittest/force-styles/tests"
    export LAMMPS_POTENTIALS="$src/potentials" LAMMPS_PLUGIN_PATH="$root/build/plugins"
  fi
  # the harness writes restart and data files, the tabulate inputs a control file, here;
  # one log for all files in $out (the device tool brings back only a few files)
  work=${TMPDIR:-/tmp}/reaxff_yaml_run
  mkdir -p "$work" && cd "$work" && : >"$out/yaml.log"
  for y in "$yamls"/atomic-pair-reaxff*.yaml; do
    n=$(basename "$y" .yaml); n=${n#atomic-pair-}
    "$harness" "$y" -d "$inputs" -s --gtest_filter=PairStyle.plain:PairStyle.extract \
      >"$work/$n.log" 2>&1; rc=$?
    # a missing style (plugin not loaded) is a skip with exit code 0
    grep -qE 'SKIPPED|prerequisite styles are not available' "$work/$n.log" && rc=skipped
    # (run forces are held to 5 x epsilon, the rest to epsilon)
    worst=$(grep -oE 'MaxErr: +[0-9.e+-]+' "$work/$n.log" | awk '{print $2}' | sort -g | tail -1)
    row "$(printf 'yaml %-22s rc=%s  worst relative error %s  epsilon %s' "$n" "$rc" \
      "${worst:--}" "$(awk '/^epsilon:/ {print $2}' "$y")")"
    { echo "=== $y"; cat "$work/$n.log"; } >>"$out/yaml.log"
    [ "$rc" != 0 ] && grep -B2 -A8 'Failure\|rror' "$work/$n.log" | head -40
  done
  cd "$root"
fi

