#!/usr/bin/env python3
"""Plot a side-by-side benchmark (bench/device_check.sh bench writes bench.csv):
atoms vs million atom-steps per second, and peak GPU memory per atom, for
reaxff/gpu and LAMMPS's reaxff/kk on the benchmark systems (HNS N^3,
Water-6540 and Water 3^3, Silica-6000); and kk's time over ours on users'
inputs (every other row: LAMMPS's water inputs, HNS with the species or
bonds fix, TATB), when the CSV has them. A memory column left empty is not
plotted.
Usage: bench/plot_side_by_side.py results.csv out.png "title" """
import csv
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = (("HNS", re.compile(r"^HNS \d+\^3$"), "o"),
            ("Water", re.compile(r"^Water(-6540| \d+\^3)$"), "s"),
            ("Silica", re.compile(r"^Silica-\d+$"), "^"))


def family_of(system):
    for name, pattern, _ in FAMILIES:
        if pattern.match(system):
            return name
    return None


def number(row, key):
    value = (row.get(key) or "").strip()
    return float(value) if value else None


def main():
    path, out, title = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
    rows = list(csv.DictReader(open(path)))
    users = [r for r in rows if family_of(r["system"]) is None]
    panels = 3 if users else 2
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4.8))
    ax1, ax2 = axes[0], axes[1]
    for who, colour in (("ours", "tab:blue"), ("kk", "tab:orange")):
        label = "reaxff/gpu (ours)" if who == "ours" else "reaxff/kk (KOKKOS)"
        for family, _, marker in FAMILIES:
            pts = [r for r in rows if family_of(r["system"]) == family]
            pts.sort(key=lambda r: int(r["atoms"]))
            if not pts:
                continue
            kw = dict(color=colour, marker=marker, linestyle="-" if family == "HNS" else "none")
            n = [int(r["atoms"]) for r in pts]
            rate = [int(r["atoms"]) / float(r[who + "_ms"]) / 1e3 for r in pts]  # Matom-step/s
            ax1.plot(n, rate, label=f"{label}, {family}", **kw)
            mem = [(int(r["atoms"]), number(r, who + "_mib")) for r in pts]
            mem = [(a, m * 1024.0 / a) for a, m in mem if m is not None]
            if mem:
                ax2.plot([a for a, _ in mem], [kb for _, kb in mem], label=f"{label}, {family}", **kw)
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
    if users:
        ax3 = axes[2]
        names = [f"{r['system']} ({int(r['atoms']):,})" for r in users]
        speedup = [float(r["kk_ms"]) / float(r["ours_ms"]) for r in users]
        bars = ax3.barh(range(len(users)), speedup, color="tab:blue")
        for bar, s in zip(bars, speedup):
            ax3.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {s:.2f}x",
                     va="center", fontsize=8)
        ax3.axvline(1.0, color="tab:orange", linestyle="--", label="reaxff/kk")
        ax3.set_yticks(range(len(users)))
        ax3.set_yticklabels(names, fontsize=8)
        ax3.invert_yaxis()
        ax3.set_xscale("log")
        ax3.set_xlabel("reaxff/kk ms/step over ours (users' inputs)")
        ax3.grid(True, axis="x", which="both", alpha=0.3)
        ax3.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
