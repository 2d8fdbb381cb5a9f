#!/usr/bin/env python3
"""Turn a PuReMD benchmark structure (.pdb or .geo) into a LAMMPS data file.

The output is for `atom_style charge` (columns: id type q x y z), with every
charge set to 0 (QEq assigns them), one atom type per element and a Masses
section filled from a small table of standard atomic weights.

Input formats
  .pdb  CRYST1 record   a b c alpha beta gamma (lengths in Angstrom, angles in
                        degrees); ATOM / HETATM records, coordinates from
                        columns 31-54, element from columns 77-78, or, when
                        those are blank, from the atom name (columns 13-16).
                        CONECT and all other records are ignored.
                        (From an atom name, two letters are taken when they
                        spell an element of the mass table: 'SI' -> Si, but
                        also 'CA' -> Ca; fill in the element columns when
                        that guess is wrong.)
  .geo  PuReMD's own    line 1: BOXGEO a b c alpha beta gamma
                        line 2: number of atoms
                        then:   serial element name x y z   (one per atom)

Box: the cell vectors follow the usual PDB convention (a along x, b in the
xy plane), so the Cartesian coordinates of the file can be used as they are.
Right angles give an orthogonal LAMMPS box 0..a x 0..b x 0..c; other angles
give a triclinic box with tilt factors xy xz yz. Atoms outside the cell (the
PuReMD files have some; PuReMD folds them back in) are wrapped into it here,
so that the data file has all atoms inside the box and zero image flags.

Usage
  pdb_to_lammps.py INPUT OUTPUT [-e El1 El2 ...] [--mass El=value ...]

  -e/--elements  order of the atom types (type 1 = El1, ...); every element
                 of the input must be listed; extra ones get a type with no
                 atoms. Default: order of first appearance in the input.
  --mass El=m    use mass m for element El instead of the table value.

The element order is written into the data file's header line and printed,
ready for `pair_coeff * * ffield El1 El2 ...`.
"""

import argparse
import math
import os
import sys

# Standard atomic weights (g/mol) of the elements found in ReaxFF force fields
# we ship; extend as needed or use --mass.
MASSES = {
    "H": 1.008, "He": 4.0026, "Li": 6.94, "B": 10.81, "C": 12.011, "N": 14.007,
    "O": 15.999, "F": 18.998, "Na": 22.990, "Mg": 24.305, "Al": 26.982,
    "Si": 28.085, "P": 30.974, "S": 32.06, "Cl": 35.45, "K": 39.098,
    "Ca": 40.078, "Ti": 47.867, "V": 50.942, "Fe": 55.845, "Ni": 58.693,
    "Cu": 63.546, "Zn": 65.38, "Zr": 91.224, "Ag": 107.87, "Pt": 195.08,
    "Au": 196.97,
}


def element_symbol(raw):
    """Normalise an element label: 'SI' or 'si' -> 'Si', 'O1' -> 'O'."""
    letters = "".join(ch for ch in raw.strip() if ch.isalpha())
    if not letters:
        raise ValueError("no element in '%s'" % raw)
    # Atom names such as 'OW' or 'HW1' carry more than the element; keep a
    # second letter only when it makes a known element (e.g. 'SI', 'CL').
    two = letters[:2].capitalize()
    if len(letters) >= 2 and two in MASSES:
        return two
    return letters[0].upper()


def read_pdb(path):
    """Return (cell, [(element, x, y, z), ...]) from a PDB file."""
    cell, atoms = None, []
    with open(path) as f:
        for line in f:
            if line.startswith("CRYST1"):
                # fixed columns: a 7-15, b 16-24, c 25-33, angles 34-54
                cell = [float(line[6:15]), float(line[15:24]), float(line[24:33]),
                        float(line[33:40]), float(line[40:47]), float(line[47:54])]
            elif line.startswith(("ATOM  ", "HETATM")):
                label = line[76:78] if len(line) > 76 and line[76:78].strip() else line[12:16]
                atoms.append((element_symbol(label), float(line[30:38]),
                              float(line[38:46]), float(line[46:54])))
    if cell is None:
        sys.exit("%s: no CRYST1 record, cannot build a periodic box" % path)
    return cell, atoms


def read_geo(path):
    """Return (cell, atoms) from a PuReMD .geo file."""
    with open(path) as f:
        words = f.readline().split()
        if not words or words[0] != "BOXGEO" or len(words) < 7:
            sys.exit("%s: first line must be 'BOXGEO a b c alpha beta gamma'" % path)
        cell = [float(w) for w in words[1:7]]
        n = int(f.readline().split()[0])
        atoms = []
        for _ in range(n):
            w = f.readline().split()
            atoms.append((element_symbol(w[1]), float(w[3]), float(w[4]), float(w[5])))
    return cell, atoms


def lammps_box(a, b, c, alpha, beta, gamma):
    """Cell lengths and angles -> LAMMPS (lx, ly, lz, xy, xz, yz)."""
    ca, cb, cg = (math.cos(math.radians(t)) for t in (alpha, beta, gamma))
    # angles of exactly 90 degrees must give zero tilts, not 1e-15
    ca, cb, cg = (0.0 if abs(v) < 1e-12 else v for v in (ca, cb, cg))
    lx = a
    xy = b * cg
    ly = math.sqrt(b * b - xy * xy)
    xz = c * cb
    yz = (b * c * ca - xy * xz) / ly
    lz = math.sqrt(c * c - xz * xz - yz * yz)
    return lx, ly, lz, xy, xz, yz


def wrap(x, y, z, box):
    """Fold a point into the cell [0,1)^3 in fractional coordinates."""
    lx, ly, lz, xy, xz, yz = box
    # the cell matrix is upper triangular: solve from the bottom row up
    s3 = z / lz
    s2 = (y - yz * s3) / ly
    s1 = (x - xy * s2 - xz * s3) / lx
    s = [v - math.floor(v) for v in (s1, s2, s3)]
    s = [0.0 if v >= 1.0 else v for v in s]  # floor rounding at the upper edge
    return (lx * s[0] + xy * s[1] + xz * s[2], ly * s[1] + yz * s[2], lz * s[2])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("input", help="PuReMD .pdb or .geo file")
    p.add_argument("output", help="LAMMPS data file to write")
    p.add_argument("-e", "--elements", nargs="+", help="atom type order, e.g. O H")
    p.add_argument("--mass", action="append", default=[], metavar="El=m",
                   help="override a mass from the table")
    args = p.parse_args()

    reader = read_geo if args.input.lower().endswith(".geo") else read_pdb
    cell, atoms = reader(args.input)
    if not atoms:
        sys.exit("%s: no atoms found" % args.input)

    found = []
    for el, *_ in atoms:
        if el not in found:
            found.append(el)
    order = [element_symbol(e) for e in args.elements] if args.elements else found
    missing = [el for el in found if el not in order]
    if missing:
        sys.exit("elements %s are in the input but not in --elements" % " ".join(missing))
    type_of = {el: i + 1 for i, el in enumerate(order)}

    masses = dict(MASSES)
    for item in args.mass:
        el, _, m = item.partition("=")
        masses[element_symbol(el)] = float(m)
    for el in order:
        if el not in masses:
            sys.exit("no mass for element %s: give --mass %s=value" % (el, el))

    box = lammps_box(*cell)
    lx, ly, lz, xy, xz, yz = box
    triclinic = any(abs(t) > 1e-12 for t in (xy, xz, yz))

    with open(args.output, "w") as out:
        out.write("LAMMPS data file from %s by pdb_to_lammps.py (atom_style charge), "
                  "types: %s\n\n" % (os.path.basename(args.input), " ".join(order)))
        out.write("%d atoms\n%d atom types\n\n" % (len(atoms), len(order)))
        out.write("0.0 %.6f xlo xhi\n0.0 %.6f ylo yhi\n0.0 %.6f zlo zhi\n" % (lx, ly, lz))
        if triclinic:
            out.write("%.6f %.6f %.6f xy xz yz\n" % (xy, xz, yz))
        out.write("\nMasses\n\n")
        for el in order:
            out.write("%d %g # %s\n" % (type_of[el], masses[el], el))
        out.write("\nAtoms # charge\n\n")
        for i, (el, x, y, z) in enumerate(atoms, start=1):
            x, y, z = wrap(x, y, z, box)
            out.write("%d %d 0.0 %.5f %.5f %.5f\n" % (i, type_of[el], x, y, z))

    counts = {el: sum(1 for a in atoms if a[0] == el) for el in order}
    print("%s: %d atoms (%s), %s box %.3f x %.3f x %.3f%s" % (
        args.output, len(atoms), ", ".join("%s %d" % (el, counts[el]) for el in order),
        "triclinic" if triclinic else "orthogonal", lx, ly, lz,
        " tilt %.3f %.3f %.3f" % (xy, xz, yz) if triclinic else ""))
    print("pair_coeff * * <ffield> %s" % " ".join(order))


if __name__ == "__main__":
    main()
