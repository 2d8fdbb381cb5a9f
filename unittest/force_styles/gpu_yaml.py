#!/usr/bin/env python3
"""Write a copy of one of LAMMPS's force-style YAML files (unittest/force-styles/
tests/atomic-pair-reaxff*.yaml) that runs our styles instead of LAMMPS's:

  pair_style reaxff ARGS          -> reaxff/gpu ARGS driver DRIVER
  fix ... qeq/reaxff|qeq/reax     -> qeq/reaxff/gpu
  fix ... acks2/reaxff|acks2/reax -> acks2/reaxff/gpu
  fix ... qtpie/reaxff            -> qtpie/reaxff/gpu

in every command block and in `prerequisites`, all keywords and the reference
data kept. --epsilon-factor scales the file's tolerance (the CUDA driver's
copies: see CMakeLists.txt). Plain line edits, so no YAML module is needed; a
file without a reaxff pair style is an error, so a changed reference file is
noticed rather than silently run with LAMMPS's own styles.

usage: gpu_yaml.py IN.yaml OUT.yaml --driver host|cuda [--epsilon-factor F]
"""
import argparse
import re
import sys

# The QEq-family fixes and their /gpu names (qeq/reax and acks2/reax are
# LAMMPS's older aliases).
FIXES = {
    "qeq/reaxff": "qeq/reaxff/gpu",
    "qeq/reax": "qeq/reaxff/gpu",
    "acks2/reaxff": "acks2/reaxff/gpu",
    "acks2/reax": "acks2/reaxff/gpu",
    "qtpie/reaxff": "qtpie/reaxff/gpu",
}
# A style word is one whitespace-separated token, so "qeq/reaxff/gpu" (already
# ours) and "reaxff/species" are left alone.
FIX_WORD = re.compile(r"(?<=\s)(" + "|".join(map(re.escape, FIXES)) + r")(?=\s|$)")
PAIR_STYLE = re.compile(r"^pair_style:\s+reaxff(\s.*)?$")
PAIR_PREREQ = re.compile(r"^(\s+pair\s+)reaxff\s*$")
EPSILON = re.compile(r"^epsilon:\s+(\S+)\s*$")


def convert(lines, driver, factor):
    out, pair_styles = [], 0
    for line in lines:
        body = line.rstrip("\n")
        m = PAIR_STYLE.match(body)
        if m:
            body = f"pair_style: reaxff/gpu{m.group(1) or ''} driver {driver}"
            pair_styles += 1
        elif PAIR_PREREQ.match(body):
            body = PAIR_PREREQ.sub(r"\1reaxff/gpu", body)
        elif EPSILON.match(body) and factor != 1.0:
            body = f"epsilon: {float(EPSILON.match(body).group(1)) * factor:.6g}"
        else:
            body = FIX_WORD.sub(lambda w: FIXES[w.group(1)], body)
        out.append(body + "\n")
    if pair_styles != 1:
        raise ValueError(f"expected one 'pair_style: reaxff ...' line, found {pair_styles}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("infile")
    ap.add_argument("outfile")
    ap.add_argument("--driver", choices=["host", "cuda", "auto"], required=True)
    ap.add_argument("--epsilon-factor", type=float, default=1.0)
    a = ap.parse_args()
    with open(a.infile) as f:
        lines = f.readlines()
    try:
        out = convert(lines, a.driver, a.epsilon_factor)
    except ValueError as e:
        sys.exit(f"{a.infile}: {e}")
    with open(a.outfile, "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
