// The bonded energy stages of a step, listed once: each a per-atom body of
// physics/ run over the owned atoms, in this order, after the bond orders
// and the three-body list and before the hydrogen bonds and nonbonded pairs.
// The host driver runs them one after the other (host/host_bonded.cpp); the
// CUDA driver runs the thread-per-atom stages one after the other in one
// kernel, then a kernel per item stage (cuda/cuda_stages.cu, AtomBondedBody;
// a per-atom body adds only to its own row's bond records, atomically to
// other atoms). A new bonded term is its body in its physics header
// and one line here (doc/design.md, "How to add an interaction term").
#pragma once

#include "puremd_gpu/physics/atom_energy.h"
#include "puremd_gpu/physics/bonds.h"
#include "puremd_gpu/physics/torsion.h"
#include "puremd_gpu/physics/valence_angle.h"

// X(Name, body, lanes): body(int i, const StepView &v) tallies the energies of
// owned atom i; the host driver runs it over the owned atoms. lanes says how
// the CUDA driver maps the stage: 1, a thread per atom; kAngleItems, a thread
// per work item of physics/angle_items.h (struct Name##Items in the stage's
// header; body is angle_items_atom over them). Angles and torsions are items:
// a thread per atom looping over them waited on latency (HNS 8^3: torsions
// 2.3 ms, valence angles 1.1 ms per step under ncu).
#define PUREMD_BONDED_STAGES(X)                      \
  X(BondEnergy, bond_energy_atom, 1)                 \
  X(LonePair, lone_pair_atom, 1)                     \
  X(OverUnder, over_under_coordination_atom, 1)      \
  X(ValenceAngles, valence_angles_atom, kAngleItems) \
  X(Torsions, torsions_atom, kAngleItems)

namespace puremd {
// Name##Items for every stage, so that a driver may name them; only the
// kAngleItems stages define theirs.
#define PUREMD_DECLARE_STAGE_ITEMS(Name, body, lanes) struct Name##Items;
PUREMD_BONDED_STAGES(PUREMD_DECLARE_STAGE_ITEMS)
#undef PUREMD_DECLARE_STAGE_ITEMS
}  // namespace puremd
