#!/usr/bin/env python3
"""Plot several-GPU scaling (bench/device_check.sh scaling writes scaling.csv):
ms/step of reaxff/gpu and LAMMPS's reaxff/kk on 1 and 2 (or more) GPUs, one MPI
rank per GPU, per input; weak scaling (HNS 16^3 per GPU) beside.
Usage: bench/plot_scaling.py scaling.csv out.png "title"
(case "16w": HNS 16^3 on one GPU from the call that ran the weak-scaling systems)"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    path, out, title = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
    rows = list(csv.DictReader(open(path)))
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    strong = [c for c in cases if len({r["gpus"] for r in rows if r["case"] == c}) > 1]
    # weak scaling's one-GPU point: "16w" (HNS 16^3 run in the same call as the
    # larger systems) where given, else "16"
    weak_one = "16w" if any(r["case"] == "16w" for r in rows) else "16"
    counts = sorted({r["gpus"] for r in rows}, key=int)
    hatches = ["", "//", "xx", ".."]
    width = 0.8 / (2 * len(counts))
    for k, c in enumerate(strong):
        for j, (who, colour) in enumerate((("ours", "tab:blue"), ("kk", "tab:orange"))):
            for n, g in enumerate(counts):
                pts = [r for r in rows if r["case"] == c and r["gpus"] == g]
                if not pts or not pts[0][who + "_ms"]:
                    continue
                x = k + (j * len(counts) + n - (len(counts) - 0.5)) * width
                label = None
                if k == 0:
                    label = ("reaxff/gpu" if who == "ours" else "reaxff/kk") + f", {g} GPU" + ("s" if g != "1" else "")
                ax1.bar(x, float(pts[0][who + "_ms"]), width, color=colour,
                        hatch=hatches[n % len(hatches)], edgecolor="black", label=label)
    ax1.set_xticks(range(len(strong)))
    ax1.set_xticklabels([f"HNS {c}" if not c.startswith("water") else f"in.water.qeq {c[5:]}^3"
                         for c in strong])
    ax1.set_ylabel("ms/step (lower is better)")
    ax1.set_yscale("log")
    ax1.set_title("strong scaling: the same system on " + ", ".join(counts) + " GPUs")
    ax1.legend(fontsize=8)
    # weak: HNS 16^3 per GPU
    weak = [(weak_one, "1"), ("32x16x16", "2"), ("32x32x16", "4")]
    for who, colour in (("ours", "tab:blue"), ("kk", "tab:orange")):
        xs, ys = [], []
        for c, g in weak:
            pts = [r for r in rows if r["case"] == c and r["gpus"] == g]
            if pts and pts[0][who + "_ms"]:
                xs.append(int(g))
                ys.append(float(pts[0][who + "_ms"]))
        ax2.plot(xs, ys, marker="o", color=colour,
                 label="reaxff/gpu" if who == "ours" else "reaxff/kk")
    ax2.set_xlabel("GPUs (HNS 16^3 = 1,245,184 atoms per GPU)")
    ax2.set_ylabel("ms/step")
    ax2.set_xticks([1, 2, 4])
    ax2.set_ylim(bottom=0)
    ax2.set_title("weak scaling")
    ax2.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
