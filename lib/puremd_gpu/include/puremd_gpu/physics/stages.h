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

// X(Name, body): body(int i, const StepView &v) tallies the energies of owned atom i.
#define PUREMD_BONDED_STAGES(X)              \
  X(BondEnergy, bond_energy_atom)            \
  X(LonePair, lone_pair_atom)                \
  X(OverUnder, over_under_coordination_atom) \
  X(ValenceAngles, valence_angles_atom)      \
  X(Torsions, torsions_atom)
