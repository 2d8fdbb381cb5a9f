// The bonded energy stages of a step, listed once: each a per-atom body of
// physics/ run over the owned atoms, in this order, after the bond orders
// and the three-body list and before the hydrogen bonds and nonbonded pairs.
// The host driver runs them one after the other (host/host_bonded.cpp); the
// CUDA driver launches one kernel each (cuda/cuda_stages.cu, named after the
// stage in a profiler). A new bonded term is its body in its physics header
// and one line here (doc/design.md, "How to add an interaction term").
#pragma once

#include "puremd_gpu/physics/atom_energy.h"
#include "puremd_gpu/physics/bonds.h"
#include "puremd_gpu/physics/torsion.h"
#include "puremd_gpu/physics/valence_angle.h"

// X(Name, body, lanes): body(int i, const StepView &v) tallies the energies of
// owned atom i. With lanes > 1 the CUDA driver splits an atom's bond entries
// over that many lanes, body(i, v, part, lanes) taking entries part, part +
// lanes, ... of i's bond row (every sum a part adds is an accumulation, so
// the parts add up to the whole); these loop over angles of each bond and
// left a thread per atom waiting on latency (HNS 8^3: valence angles 1.1 ms
// per step). lanes = kTorsionWorkItems: the CUDA driver runs one thread per
// (central bond, angle) work item of torsion.h instead of one per atom
// (torsions 2.3 -> ... ms at HNS 8^3).
namespace puremd {
constexpr int kTorsionWorkItems = 0;
}
#define PUREMD_BONDED_STAGES(X)                 \
  X(BondEnergy, bond_energy_atom, 1)            \
  X(LonePair, lone_pair_atom, 1)                \
  X(OverUnder, over_under_coordination_atom, 1) \
  X(ValenceAngles, valence_angles_atom, 8)      \
  X(Torsions, torsions_atom, puremd::kTorsionWorkItems)
