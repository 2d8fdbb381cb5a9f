#!/usr/bin/env python3
"""Plot a side-by-side benchmark (bench/device_check.sh bench writes bench.csv):
atoms vs million atom-steps per second, and peak GPU memory per atom, for
reaxff/gpu and LAMMPS's reaxff/kk on the same inputs.
Usage: bench/plot_side_by_side.py results.csv out.png "title" """
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    path, out, title = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
    rows = list(csv.DictReader(open(path)))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    for who, colour in (("ours", "tab:blue"), ("kk", "tab:orange")):
        label = "reaxff/gpu (ours)" if who == "ours" else "reaxff/kk (KOKKOS)"
        for family, marker in (("HNS", "o"), ("Water", "s"), ("Silica", "^")):
            pts = [r for r in rows if r["system"].startswith(family)]
            pts.sort(key=lambda r: int(r["atoms"]))
            if not pts:
                continue
            n = [int(r["atoms"]) for r in pts]
            rate = [int(r["atoms"]) / float(r[who + "_ms"]) / 1e3 for r in pts]  # Matom-step/s
            kb = [float(r[who + "_mib"]) * 1024.0 / int(r["atoms"]) for r in pts]
            kw = dict(color=colour, marker=marker, linestyle="-" if family == "HNS" else "none")
            ax1.plot(n, rate, label=f"{label}, {family}", **kw)
            ax2.plot(n, kb, label=f"{label}, {family}", **kw)
    ax1.set_xscale("log")
    ax1.set_xlabel("atoms (one GPU)")
    ax1.set_ylabel("million atom-steps per second")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=7)
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("atoms (one GPU)")
    ax2.set_ylabel("peak GPU memory per atom (KB, nvidia-smi)")
    ax2.grid(True, which="both", alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
