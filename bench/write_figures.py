#!/usr/bin/env python3
"""Write the speed and memory figures of README.md and doc/*.md from bench/figures.csv.

Every such figure in those files sits between two HTML comments,

    <!-- figures:NAME -->
    ...text written by this script...
    <!-- /figures:NAME -->

and the text between them is made here, from the CSV's rows, by the function
REGIONS[NAME]. A measured value is quoted as the CSV holds it (its digits);
ratios are computed from the medians with one rounding rule (times()); a ratio
within PARITY is said as parity. Each region names the date, commit, GPU and
peer version of its numbers.

    python3 bench/write_figures.py           rewrite the regions in place
    python3 bench/write_figures.py --check   exit 1 (and print a diff) when a
                                             file would change, 0 otherwise

Both also fail on: a region name without a writer, a writer whose region is in
no file, a CSV row quoted nowhere, and a figure (ms/step, MiB, GB, "x kk")
written by hand outside the regions. Python 3 standard library only; the
repository root is found from this file's path, not the working directory.
"""

import argparse
import difflib
import re
import sys
import textwrap

from figures_csv import *  # noqa: F401,F403 (the CSV's rows and number formats)
from figures_csv import CSV_PATH, ROOT, Table

# A region's markers may be indented (inside a list item); its text is then too.
REGION_RE = re.compile(r"^([ \t]*)<!-- figures:([A-Za-z0-9_-]+) -->\n(.*?)"
                       r"^\1<!-- /figures:\2 -->", re.DOTALL | re.MULTILINE)
WIDTH = 88  # the docs' line length; less the indentation of the region being written
# Figures of ours that may appear only inside a region (checked outside them).
HAND_WRITTEN = [
    re.compile(r"\d(?:[\d,]*\d)?(\.\d+)?\s*ms/step"),
    re.compile(r"\d(?:[\d,]*\d)?(\.\d+)?\s*(MiB|GiB)\b"),
    re.compile(r"\d(?:[\d,]*\d)?(\.\d+)?\s+GB\b"),  # not a GPU's name (H100 80GB)
    re.compile(r"\d(\.\d+)?x\s+(\S+/)?kk\b"),
    re.compile(r"Matom-step/s"),
]


def para(text):
    """A paragraph wrapped as the docs are, never inside a `code span`."""
    glued = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), text)
    wrapped = textwrap.fill(glued, width=WIDTH, break_long_words=False,
                            break_on_hyphens=False)
    return wrapped.replace("\0", " ") + "\n"


# ---- the regions ----------------------------------------------------------

ONE_GPU = ["h200_hns2", "h200_hns8", "h200_water3", "h200_hns16", "h200_waterqeq6",
           "h200_acks2_6"]


FAST = ["h100_fast_hns16_kokkos", "h100_fast_hns16_gpu", "h100_fast_waterqeq6_kokkos",
        "h100_fast_waterqeq6_gpu", "h100_fast_hns2_kokkos", "h100_fast_hns2_gpu"]


def readme_fast(t):
    rows = t(*FAST)
    k16, g16, kq, gq, k2, g2 = rows
    return para(
        f"On one {same(rows, 'gpu')}, {same(rows, 'date')}, commit {same(rows, 'commit')}: one "
        f"binary, LAMMPS 4Feb2025 with KOKKOS (Kokkos 4.5.01, CUDA sm_90, built by "
        f"`scripts/kokkos.sh`), our plugin and, as the reference, that binary's own "
        f"`reaxff/kk` (`-k on g 1 -sf kk -pk kokkos neigh half newton on`); the same input "
        f"files, unedited; LAMMPS loop time, {runs(rows)}:") + "\n" + table(
        ["input", "reaxff/kk", "ours, `-k on` (KOKKOS)", "ours, `-sf gpu`"],
        [[f"{short(a)} ({atoms(a)} atoms)", f"{num(a.peer_ms)} ms/step",
          f"{num(a.ours_ms)} ({times(kk_over_ours(a))}x kk)",
          f"{num(b.ours_ms)} ({times(kk_over_ours(b))}x kk)"]
         for a, b in [(k16, g16), (kq, gq), (k2, g2)]]) + "\n\n" + para(
        f"GPU memory at HNS 16^3: {num(k16.ours_mib)} MiB under `-k on`, {num(g16.ours_mib)} "
        f"with `-sf gpu`, reaxff/kk {num(k16.peer_mib)}. Every figure's row: "
        f"bench/figures.csv; the phases: bench/README, \"Issue 64\". The peer is LAMMPS's "
        f"KOKKOS ReaxFF of 4Feb2025; newer LAMMPS keeps more of its QEq on the GPU, so "
        f"margins over it are upper bounds for today's kk. Its multi-GPU figures below ran "
        f"its MPI build on an OpenMPI without CUDA support (its exchanges through the host).")


def large_systems(t):
    h32, h40, h44 = t("h200_hns32", "h200_hns40", "h200_hns44")
    rows = [h32, h40, h44]
    alone = [h40, h44]
    return para(
        f"The largest systems on one {same(rows, 'gpu')} ({same(rows, 'date')}, "
        f"{runs(rows)}, the step times include the first solves from an empty QEq history): "
        f"HNS 32^3 ({atoms(h32)} atoms) at {num(h32.ours_ms)} ms/step in "
        f"{num(h32.ours_mib)} MiB (commit {h32.commit}; reaxff/kk {num(h32.peer_ms)} ms/step "
        f"in {num(h32.peer_mib)} MiB, the whole GPU), HNS 40^3 ({atoms(h40)} atoms) at "
        f"{num(h40.ours_ms)} ms/step in {num(h40.ours_mib)} MiB, its QEq matrix stored, and "
        f"HNS 44^3 ({atoms(h44)} atoms) for 10 steps at {num(h44.ours_ms)} ms/step in "
        f"{num(h44.ours_mib)} MiB, its QEq matrix-free as the tiles would not fit (commit "
        f"{same(alone, 'commit')}); reaxff/kk stops at HNS 44^3's set-up, out of GPU memory. "
        f"Energies per atom at step 0 equal HNS 2^3's on the host driver to the QEq "
        f"tolerance (bench/device_check.sh large).")


def readme_xlmd(t):
    rows = t("xlmd_hns16_xlmd", "xlmd_hns16_converged", "xlmd_hns8_xlmd",
             "xlmd_hns8_converged")
    x16, c16, x8, c8 = rows
    return para(
        f"The opt-in extended-Lagrangian charges (`fix qeq/reaxff/gpu ... xlmd yes`, a "
        f"different method: two CG iterations a step) took HNS 16^3 to {num(x16.ours_ms)} "
        f"ms/step against {num(c16.ours_ms)} converged and reaxff/kk's {num(x16.peer_ms)} "
        f"({speed(x16)}) and HNS 8^3 to {num(x8.ours_ms)} against {num(c8.ours_ms)} (one "
        f"{same(rows, 'gpu')}, {same(rows, 'date')}, commit {same(rows, 'commit')}, "
        f"{runs(rows)}, reaxff/kk of {peer_version(rows)} in the same call).")


FOUR_GPUS = ["x4_hns16_g1", "x4_hns16_g2", "x4_hns16_g4", "x4_hns32x16x16_g2",
             "x4_hns32x32x16_g4", "x4_waterqeq8_g1", "x4_waterqeq8_g2", "x4_waterqeq8_g4"]


def matom_steps(r):
    return f"{r.n_atoms / r.f('ours_ms') / 1000:.1f}"


def readme_several_gpus(t):
    rows = t(*FOUR_GPUS)
    g1, g2, g4, _, big, w1, _, w4 = rows
    return para(
        f"On four {same(rows, 'gpu')} of one host ({same(rows, 'date')}, "
        f"{commits(rows)}, one MPI rank per GPU, {runs(rows)}, reaxff/kk of "
        f"{peer_version(rows)} (MPI build; the machine's OpenMPI has no CUDA support) in the same call): HNS 16^3 {num(g1.ours_ms)} -> "
        f"{num(g2.ours_ms)} -> {num(g4.ours_ms)} ms/step on 1, 2 and 4 GPUs "
        f"({times(g1.f('ours_ms') / g4.f('ours_ms'))}x faster on four than on one, "
        f"{speed(g4)} there), HNS 32x32x16 ({atoms(big)} atoms) on four at "
        f"{num(big.ours_ms)} ms/step, {matom_steps(big)} Matom-step/s ({speed(big)}), and "
        f"LAMMPS's `in.water.qeq` 8^3 ({atoms(w1)} atoms; measured before 3f8195a "
        f"removed a second upload of the atoms a step under fix nvt) {speed(w1)} on one "
        f"GPU and {speed(w4)} on four (doc/pair_reaxff_gpu.md, \"Several GPUs\").")


def pair_speed(t):
    rows = t(*ONE_GPU)
    caption = (
        f"One {same(rows, 'gpu')}, 1 MPI rank, CUDA driver, {same(rows, 'date')}: ms per "
        f"step (LAMMPS loop time, {runs(rows)}) and peak GPU memory (nvidia-smi), LAMMPS's "
        f"own input files run with `-sf gpu` (ours) and `-sf kk` ({peer_version(rows)}'s "
        f"KOKKOS `reaxff/kk`; `acks2/reaxff/kk` for ACKS2) in the same calls; kk / ours is "
        f"the peer's time over ours, parity within "
        f"{round((PARITY[1] - 1) * 100)} % ({sources(rows)}; plot bench/side_by_side.png):")
    body = table(
        ["system", "atoms", "commit", "reaxff/gpu (CUDA)", "reaxff/kk (KOKKOS)", "kk / ours",
         "GPU MiB ours / kk", "KiB an atom ours / kk"],
        [[r.input, atoms(r), r.commit, num(r.ours_ms), num(r.peer_ms), kk_cell(r),
          f"{num(r.ours_mib)} / {num(r.peer_mib)}",
          f"{kib_per_atom(r, 'ours_mib')} / {kib_per_atom(r, 'peer_mib')}"] for r in rows])
    # a row's note that names another commit of the table says how the two differ
    shown = {r.commit for r in rows}
    notes = "; ".join(f"{r.commit} is {r.note}" for r in rows
                      if any(c != r.commit and c in r.note for c in shown))
    return para(caption) + "\n" + body + "\n" + ("\n" + para(f"({notes}.)") if notes else "")


def pair_memory(t):
    rows = t(*ONE_GPU)
    big = [r for r in rows if r.n_atoms >= 150000]
    ratios = [r.f("ours_mib") / r.f("peer_mib") for r in big]
    first = min(big, key=lambda r: r.n_atoms)
    smallest = min(rows, key=lambda r: r.n_atoms)
    h16 = t("h200_hns16")
    return para(
        f"GPU memory in that table: from {atoms(first)} atoms ({short(first)}) on, "
        f"reaxff/gpu used {min(ratios):.2f}-{max(ratios):.2f}x the peer's "
        f"({kib_per_atom(h16, 'ours_mib')} against {kib_per_atom(h16, 'peer_mib')} KiB an "
        f"atom at HNS 16^3), at {atoms(smallest)} atoms ({short(smallest)}) "
        f"{mem_ratio(smallest)}x.") + "\n" + memory_now(t)


def memory_now(t):
    rows = t("mem_hns8", "mem_hns16", "mem_waterqeq6")
    return para(
        f"Since then (one {same(rows, 'gpu')}, {same(rows, 'date')}, commit "
        f"{same(rows, 'commit')}, {runs(rows)}, reaxff/kk in the same calls; "
        f"{sources(rows)}), GPU memory an atom: "
        + "; ".join(f"{short(r)} {kib_per_atom(r, 'ours_mib')} KiB against "
                    f"{kib_per_atom(r, 'peer_mib')} ({num(r.ours_mib)} against "
                    f"{num(r.peer_mib)} MiB, {num(r.ours_ms)} against {num(r.peer_ms)} "
                    f"ms/step)" for r in rows) + ".")


TWO_GPUS = ["x2_hns8_g1", "x2_hns8_g2", "x2_hns16_g1", "x2_hns16_g2", "x2_hns16w_g1",
            "x2_hns32x16x16_g2", "x2_waterqeq6_g1", "x2_waterqeq6_g2"]


def pair_two_gpus(t):
    rows = t(*TWO_GPUS)
    a1, a2, b1, b2, w1, w2, q1, q2 = rows
    caption = (
        f"Two {same(rows, 'gpu')} of one host (NVLink), {same(rows, 'date')}, "
        f"{commits(rows)}, {runs(rows)}, side by side with {peer_version(rows)}'s reaxff/kk "
        f"(MPI build, `-k on g N`) in the same calls ({sources(rows)}; bench/scaling.png), "
        f"ms/step; the `in.water.qeq` rows predate 3f8195a (fix nvt made every step upload "
        f"the atoms twice):")
    body = table(
        ["input", "atoms", "ours 1 GPU", "ours 2 GPUs", "reaxff/kk 1 GPU", "reaxff/kk 2 GPUs",
         "kk / ours, 2 GPUs"],
        [["HNS 8^3", atoms(a1), num(a1.ours_ms), num(a2.ours_ms), num(a1.peer_ms),
          num(a2.peer_ms), kk_cell(a2)],
         ["HNS 16^3", atoms(b1), num(b1.ours_ms), num(b2.ours_ms), num(b1.peer_ms),
          num(b2.peer_ms), kk_cell(b2)],
         ["HNS 32x16x16 (weak; 1 GPU: HNS 16^3 in the same call)", atoms(w2),
          f"{num(w1.ours_ms)} (16^3)", num(w2.ours_ms), f"{num(w1.peer_ms)} (16^3)",
          num(w2.peer_ms), kk_cell(w2)],
         ["`in.water.qeq` 6^3", atoms(q1), num(q1.ours_ms), num(q2.ours_ms), num(q1.peer_ms),
          num(q2.peer_ms), kk_cell(q2)]])
    return para(caption) + "\n" + body + "\n"


def pair_four_gpus(t):
    rows = t(*FOUR_GPUS)
    g1, g2, g4, w2, w4 = rows[:5]
    caption = (
        f"Four {same(rows, 'gpu')} of one host (NVLink between every pair), "
        f"{same(rows, 'date')}, {commits(rows)}, {runs(rows)}, the same way "
        f"({sources(rows)}; bench/scaling.png); the `in.water.qeq` rows predate 3f8195a:")
    body = table(
        ["input", "atoms", "GPUs", "ours ms/step", "reaxff/kk ms/step", "kk / ours"],
        [[short(r), atoms(r), r.gpus, num(r.ours_ms), num(r.peer_ms), kk_cell(r)]
         for r in rows])
    t1 = g1.f("ours_ms")
    tail = (
        f"Strong scaling at HNS 16^3: {times(t1 / g2.f('ours_ms'))}x on two GPUs, "
        f"{times(t1 / g4.f('ours_ms'))}x on four; weak scaling (HNS 16^3 a GPU): "
        f"{100 * t1 / w2.f('ours_ms'):.0f} % on two, {100 * t1 / w4.f('ours_ms'):.0f} % on "
        f"four; HNS 32x32x16 on four: {matom_steps(w4)} Matom-step/s.")
    return para(caption) + "\n" + body + "\n\n" + para(tail)


def pair_bonds(t):
    rows = t("bonds_hns16_without", "bonds_hns16_with")
    without, with_ = rows
    ours = 100 * (with_.f("ours_ms") / without.f("ours_ms") - 1)
    peer = 100 * (with_.f("peer_ms") / without.f("peer_ms") - 1)
    return para(
        f"HNS 16^3 ({atoms(with_)} atoms, 100 steps) with `fix reaxff/bonds 100` (`-sf gpu`: "
        f"`reaxff/bonds/gpu`): "
        f"{ours:+.1f} % against the run without it ({num(with_.ours_ms)} against "
        f"{num(without.ours_ms)} ms/step), where reaxff/kk with LAMMPS's fix took "
        f"{peer:+.1f} % ({num(with_.peer_ms)} against {num(without.peer_ms)}); one "
        f"{same(rows, 'gpu')}, {same(rows, 'date')}, commit {same(rows, 'commit')}, "
        f"{runs(rows)}, reaxff/kk of {peer_version(rows)} ({sources(rows)}).")


def pair_species(t):
    rows = t("species_hns8_without", "species_hns8_with")
    without, with_ = rows
    ours = 100 * (with_.f("ours_ms") / without.f("ours_ms") - 1)
    return para(
        f"HNS 8^3 ({atoms(with_)} atoms, 100 steps) with `fix reaxff/species 10 10 100` "
        f"(`-sf gpu`: `reaxff/species/gpu`): "
        f"{num(with_.ours_ms)} ms/step, {ours:+.1f} % against the run without it "
        f"({num(without.ours_ms)}), {speed(with_)} with LAMMPS's fix ({num(with_.peer_ms)}); "
        f"one {same(rows, 'gpu')}, {same(rows, 'date')}, commit {same(rows, 'commit')}, "
        f"{runs(rows)}, reaxff/kk of {peer_version(rows)} ({sources(rows)}).")


def qeq_matrix(t):
    rows = t("matrix_hns2", "matrix_hns4", "matrix_hns6", "matrix_hns8", "matrix_water3",
             "matrix_hns16", metric="charges")
    caption = (
        f"`matrix half` against `matrix full`, ours alone, one binary in one call: the "
        f"charge phase (`timing yes`, ms/step) and peak GPU memory (nvidia-smi); one "
        f"{same(rows, 'gpu')}, {same(rows, 'date')}, commit {same(rows, 'commit')}, "
        f"{runs(rows)} ({sources(rows)}). `matrix auto`'s choice of `half` from 40,000 atoms "
        f"comes from these:")
    body = table(
        ["system", "atoms", "`half`", "`full`", "half / full", "GPU MiB half / full"],
        [[r.input, atoms(r), num(r.ours_ms), num(r.peer_ms),
          (lambda x: f"{x:.2f}, parity" if at_parity(x) else times(x))(
              r.f("ours_ms") / r.f("peer_ms")),
          f"{num(r.ours_mib)} / {num(r.peer_mib)}"] for r in rows])
    return para(caption) + "\n" + body + "\n"


def qeq_precond(t):
    keys = ["hns2", "hns8", "hns16", "hns24", "waterqeq6"]
    pairs = [t(f"fsai_{k}", f"jacobi_{k}") for k in keys]
    rows = [r for p in pairs for r in p]
    caption = (
        f"`precond fsai` (the default) against `precond jacobi`, one plugin in one call, beside "
        f"{peer_version(rows)}'s reaxff/kk on the same input file; one {same(rows, 'gpu')}, "
        f"{same(rows, 'date')}, {commits(rows)}, {runs([f for f, _ in pairs])}, LAMMPS's loop time "
        f"({sources(rows)}), ms/step:")
    body = table(
        ["input", "atoms", "`fsai`", "`jacobi`", "reaxff/kk", "kk / `fsai`", "`fsai` / `jacobi`",
         "GPU MiB `fsai` / kk"],
        [[f.input, atoms(f), num(f.ours_ms), num(j.ours_ms), num(f.peer_ms),
          kk_cell(f), times(f.f("ours_ms") / j.f("ours_ms")),
          f"{num(f.ours_mib)} / {num(f.peer_mib)}"] for f, j in pairs])
    return para(caption) + "\n" + body + "\n"


def qeq_xlmd(t):
    keys = ["hns2", "hns8", "water3", "hns16"]
    pairs = [t(f"xlmd_{k}_converged", f"xlmd_{k}_xlmd") for k in keys]
    rows = [r for p in pairs for r in p]
    caption = (
        f"Speed, one {same(rows, 'gpu')}, {same(rows, 'date')}, commit "
        f"{same(rows, 'commit')}, {runs(rows)}, side by side with {peer_version(rows)}'s "
        f"reaxff/kk (converged solves, its only method) in the same call, LAMMPS's inputs at "
        f"their tolerance; `xlmd yes` ran three times the steps, so that its K converged "
        f"solves after the start weigh little ({sources(rows)}), ms/step:")
    body = table(
        ["system", "atoms", "ours converged", "ours `xlmd yes` (xlk 5, xlcg 2)", "reaxff/kk",
         "kk / ours `xlmd yes`"],
        [[c.input, atoms(c), num(c.ours_ms), num(x.ours_ms), num(x.peer_ms), kk_cell(x)]
         for c, x in pairs])
    return para(caption) + "\n" + body + "\n"


def qeq_qtpie(t):
    r = t("qtpie_water3")
    return para(
        f"On that water replicated 3x3x3 ({atoms(r)} atoms, 50 steps; one {r.gpu}, {r.date}, "
        f"commit {r.commit}, {runs([r])} of each) QTPIE took {num(r.ours_ms)} ms/step against "
        f"{num(r.peer_ms)} with `fix qeq/reaxff/gpu` "
        f"({times(r.f('ours_ms') / r.f('peer_ms'))}x its time).")


def qeq_acks2(t):
    rows = t("acks2_water3", "h200_acks2_6")
    qeq = t("qeq_water3")
    caption = (
        f"LAMMPS's `in.water.acks2` as shipped (tol 1e-6, maxiter 1000), replicated, 20 "
        f"steps, side by side with {peer_version(rows)}'s `fix acks2/reaxff/kk` on the same "
        f"file in the same call, {runs(rows)} ({sources(rows)}):")
    body = table(
        ["water", "atoms", "measured", "ours ms/step", "acks2/reaxff/kk ms/step", "kk / ours",
         "GPU MiB ours / kk"],
        [[short(r).split(" ")[-1], atoms(r), f"{r.date}, {r.commit}, {r.gpu}", num(r.ours_ms),
          num(r.peer_ms), kk_cell(r), f"{num(r.ours_mib)} / {num(r.peer_mib)}"]
         for r in rows])
    a3 = rows[0]
    same([a3, qeq], "commit")
    tail = (
        f"In the 3^3 call our `fix qeq/reaxff/gpu` on LAMMPS's `in.water.qeq` 3^3 took "
        f"{num(qeq.ours_ms)} ms/step (reaxff/kk {num(qeq.peer_ms)}): ACKS2 costs "
        f"{times(a3.f('ours_ms') / qeq.f('ours_ms'))}x our QEq on the same water.")
    return para(caption) + "\n" + body + "\n\n" + para(tail)


REGIONS = {
    "readme-fast": readme_fast,
    "readme-large": large_systems,
    "readme-xlmd": readme_xlmd,
    "readme-several-gpus": readme_several_gpus,
    "pair-speed": pair_speed,
    "pair-memory": pair_memory,
    "pair-large": large_systems,
    "pair-two-gpus": pair_two_gpus,
    "pair-four-gpus": pair_four_gpus,
    "pair-bonds": pair_bonds,
    "pair-species": pair_species,
    "qeq-matrix": qeq_matrix,
    "qeq-precond": qeq_precond,
    "qeq-xlmd": qeq_xlmd,
    "qeq-qtpie": qeq_qtpie,
    "qeq-acks2": qeq_acks2,
}


# ---- the files ------------------------------------------------------------

def doc_files():
    return [ROOT / "README.md"] + sorted((ROOT / "doc").glob("*.md"))


def rewrite(text, t, found, path, errors):
    def fill(m):
        global WIDTH
        indent, name = m.group(1), m.group(2)
        if name not in REGIONS:
            errors.append(f"{path.relative_to(ROOT)}: region {name} has no writer in "
                          f"bench/write_figures.py")
            return m.group(0)
        found.add(name)
        WIDTH = 88 - len(indent)
        body = REGIONS[name](t)
        WIDTH = 88
        body = "".join(indent + line if line.strip() else line
                       for line in body.splitlines(keepends=True))
        return f"{indent}<!-- figures:{name} -->\n{body}{indent}<!-- /figures:{name} -->"
    return REGION_RE.sub(fill, text)


def hand_written(path, text, errors):
    outside = REGION_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    for n, line in enumerate(outside.split("\n"), start=1):
        for pattern in HAND_WRITTEN:
            m = pattern.search(line)
            if m:
                errors.append(f"{path.relative_to(ROOT)}:{n}: '{m.group(0)}' outside a "
                              f"figures region (put it in bench/figures.csv and a region)")
                break


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 and print a diff if a file would change")
    args = parser.parse_args()

    t = Table(CSV_PATH)
    found, errors, changed = set(), [], []
    for path in doc_files():
        old = path.read_text()
        new = rewrite(old, t, found, path, errors)
        hand_written(path, new, errors)
        if new != old:
            changed.append(path)
            if args.check:
                rel = str(path.relative_to(ROOT))
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(keepends=True), new.splitlines(keepends=True),
                    fromfile=f"a/{rel}", tofile=f"b/{rel}"))
            else:
                path.write_text(new)
    for name in sorted(set(REGIONS) - found):
        errors.append(f"region {name} is in none of README.md, doc/*.md")
    for key in sorted(set(t.rows) - t.used):
        errors.append(f"bench/figures.csv: row {key} is quoted nowhere")
    for e in errors:
        print(f"write_figures: {e}", file=sys.stderr)
    if args.check and changed:
        names = ", ".join(str(p.relative_to(ROOT)) for p in changed)
        print(f"write_figures: out of date with bench/figures.csv: {names} "
              f"(run python3 bench/write_figures.py)", file=sys.stderr)
    elif changed:
        print("write_figures: rewrote " + ", ".join(str(p.relative_to(ROOT)) for p in changed))
    return 1 if errors or (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
