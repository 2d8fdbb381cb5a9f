"""bench/figures.csv for bench/write_figures.py: its rows (Row, Table, check_row)
and one formatting rule for each kind of number a region quotes."""

import csv
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
CSV_PATH = ROOT / "bench" / "figures.csv"
COLUMNS = ["key", "date", "commit", "gpu", "gpus", "peer", "input", "atoms", "metric",
           "ours_ms", "peer_ms", "ours_mib", "peer_mib", "ours_gb", "runs", "source", "note"]
PARITY = (0.97, 1.03)  # a time ratio within this range is said as parity


class Row:
    def __init__(self, d):
        self.d = d

    def __getattr__(self, name):
        try:
            return self.d[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def n_atoms(self):
        return int(self.atoms)

    def f(self, name):
        return float(self.d[name])


class Table:
    """The CSV's rows by key; remembers which rows a region quoted."""

    def __init__(self, path):
        with open(path, newline="") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames != COLUMNS:
                raise SystemExit(f"{path}: columns must be {','.join(COLUMNS)}")
            self.rows = {}
            for n, d in enumerate(reader, start=2):
                check_row(path, n, d)
                if d["key"] in self.rows:
                    raise SystemExit(f"{path}:{n}: key {d['key']} appears twice")
                self.rows[d["key"]] = Row(d)
        self.used = set()

    def __call__(self, *keys, metric="loop"):
        """The rows named, which must time what the region's text says they time."""
        for k in keys:
            if k not in self.rows:
                raise SystemExit(f"{CSV_PATH}: no row {k}")
            if self.rows[k].metric != metric:
                raise SystemExit(f"{CSV_PATH}: row {k} times '{self.rows[k].metric}', "
                                 f"its region quotes '{metric}'")
            self.used.add(k)
        rows = [self.rows[k] for k in keys]
        return rows[0] if len(rows) == 1 else rows


def check_row(path, n, d):
    where = f"{path}:{n}"
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["date"]):
        raise SystemExit(f"{where}: date {d['date']!r} is not YYYY-MM-DD")
    if not re.fullmatch(r"[0-9a-f]{7,40}", d["commit"]):
        raise SystemExit(f"{where}: commit {d['commit']!r} is not a hash")
    for col in ["gpus", "atoms"]:
        if not d[col].isdigit():
            raise SystemExit(f"{where}: {col} {d[col]!r} is not a count")
    if d["runs"] and not d["runs"].isdigit():
        raise SystemExit(f"{where}: runs {d['runs']!r} is neither a count nor empty")
    for col in ["ours_ms", "peer_ms", "ours_mib", "peer_mib", "ours_gb"]:
        if d[col] and not re.fullmatch(r"\d+(\.\d+)?", d[col]):
            raise SystemExit(f"{where}: {col} {d[col]!r} is not a number")
    if d["metric"] not in ("loop", "charges"):
        raise SystemExit(f"{where}: metric is 'loop' (LAMMPS loop time) or 'charges' "
                         "(the charge phase of timing yes)")
    if d["peer"] == "none" and d["peer_ms"]:
        raise SystemExit(f"{where}: a peer time without a peer")


# ---- formatting: one rule for each kind of number -------------------------

def num(s):
    """A measured value as the CSV holds it, with thousands separators."""
    whole, dot, frac = s.partition(".")
    return f"{int(whole):,}" + dot + frac


def atoms(r):
    return f"{r.n_atoms:,}"


def millions(r):
    return f"{r.n_atoms / 1e6:.3g}M"


def times(x):
    """A ratio: two decimals below 10, one from 10 on."""
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def at_parity(x):
    return PARITY[0] <= x <= PARITY[1]


def peer_style(r):
    return r.peer.split(" LAMMPS ")[0]


def kk_over_ours(r):
    return r.f("peer_ms") / r.f("ours_ms")


def speed(r):
    """Our speed against the row's peer, in words: 'at 1.40x reaxff/kk's speed'."""
    x = kk_over_ours(r)
    if at_parity(x):
        return f"at parity with {peer_style(r)} (kk/ours {x:.2f})"
    return f"at {times(x)}x {peer_style(r)}'s speed"


def factor(r):
    """The same after a first speed() of the sentence: '1.40x'."""
    x = kk_over_ours(r)
    return f"at parity (kk/ours {x:.2f})" if at_parity(x) else f"{times(x)}x"




def kk_cell(r):
    x = kk_over_ours(r)
    return f"{x:.2f}, parity" if at_parity(x) else times(x)


def mem_ratio(r):
    return f"{r.f('ours_mib') / r.f('peer_mib'):.2f}"


def kib_per_atom(r, col):
    return f"{r.f(col) * 1024 / r.n_atoms:.1f}"


def same(rows, col):
    values = {getattr(r, col) for r in rows}
    if len(values) != 1:
        keys = ", ".join(r.key for r in rows)
        raise SystemExit(f"{CSV_PATH}: rows {keys} must share one {col}, have {sorted(values)}")
    return values.pop()


def peer_version(rows):
    versions = {r.peer.split(" LAMMPS ")[1].split(" ")[0] for r in rows}
    if len(versions) != 1:
        raise SystemExit(f"{CSV_PATH}: one peer version expected, have {sorted(versions)}")
    return "LAMMPS " + versions.pop()


def runs(rows):
    counts = {r.runs for r in rows}
    if counts == {"1"}:
        return "one run each" if len(rows) > 1 else "one run"
    if len(counts) == 1 and "" not in counts:
        return f"medians of {counts.pop()}"
    return "; ".join(f"{short(r)}: " + (f"median of {r.runs}" if r.runs not in ("", "1")
                                        else "one run" if r.runs == "1" else "runs not recorded")
                     for r in rows)


def short(r):
    """The input's name without its parenthesised settings."""
    return re.sub(r" \(.*\)$", "", r.input)


def commits(rows):
    """'c1 (input, input), c2 (input)' in order of first appearance."""
    groups = {}
    for r in rows:
        groups.setdefault(r.commit, []).append(short(r))
    if len(groups) == 1:
        return f"commit {next(iter(groups))}"
    return "commits " + ", ".join(f"{c} ({', '.join(names)})" for c, names in groups.items())


def sources(rows):
    """The rows' sources: 'bench/README, "Section", "Section"; bench/file.csv'."""
    sections, files = [], []
    for r in rows:
        for part in r.source.split("; "):
            m = re.fullmatch(r"bench/README '([^']*)'(.*)", part)
            item, into = (f'"{m.group(1)}"{m.group(2)}', sections) if m else (
                f"bench/{part}", files)
            if item not in into:
                into.append(item)
    return "; ".join(([f"bench/README, {', '.join(sections)}"] if sections else []) + files)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)
