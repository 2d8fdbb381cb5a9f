#include "fix_reaxff_species_gpu.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "atom.h"
#include "comm.h"
#include "fix_ave_atom.h"
#include "memory.h"
#include "pair_reaxff.h"
#include "reaxff_defs.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {
int root_of(std::vector<int> &parent, int a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}
}  // namespace

void FixReaxFFSpeciesGPU::post_integrate() {
  if (posflag || delflag) {  // their outputs read LAMMPS's own search's anchors
    FixReaxFFSpecies::post_integrate();
    return;
  }
  // the fix's per-atom cluster IDs (a property/atom it made; LAMMPS versions
  // name it differently), where the atom arrays have them now
  int flag = 0, cols = 0;
  int index = atom->find_custom(("clusterID_propname_" + std::string(id)).c_str(), flag, cols);
  if (index < 0) index = atom->find_custom("clusterID", flag, cols);
  clusterID = atom->dvector[index];
  vector_atom = clusterID;

  f_SPECBOND->end_of_step();  // a sample of the averages, on their steps
  const bigint step = update->ntimestep;
  if (step == nvalid || nvalid == -1) {
    nlocal = atom->nlocal;
    if (atom->nmax > nmax) {  // the forward communication packs x0 too
      nmax = atom->nmax;
      memory->destroy(x0);
      memory->create(x0, nmax, "reaxff/species:x0");
    }
    std::fill_n(x0, nmax, AtomCoord{0.0, 0.0, 0.0});
    int nmole = 0, nspec = 0;
    find_molecules();
    SortMolecule(nmole);
    count_species(nmole, nspec);
    vector_nmole = nmole;
    vector_nspec = nspec;
    if (comm->me == 0 && step >= 0) WriteFormulas(nmole, nspec);
    nvalid = step + nfreq;
  }
  if (comm->me == 0) fflush(fp);
}

// Molecules: atoms joined by a bond whose averaged order is above the cut-off
// (the fix's rule: owned atom i, partner j in the pair's slot jj with j >= i,
// both in the group). Each owned atom gets the smallest atom ID of its
// molecule, across ranks: local components, then ghosts' labels from their
// owners, until no rank changes one.
void FixReaxFFSpeciesGPU::find_molecules() {
  const int nall = atom->nlocal + atom->nghost;
  const int *mask = atom->mask, *type = atom->type;
  double **avg = f_SPECBOND->array_atom;
  for (int i = 0; i < nlocal; ++i) clusterID[i] = (mask[i] & groupbit) ? atom->tag[i] : 0.0;

  edges_.clear();
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    for (int jj = 0; jj < MAXSPECBOND; ++jj) {
      const int j = reaxff->tmpid[i][jj];
      if (j == 0 || j < i || !(mask[j] & groupbit)) continue;
      if (avg[i][jj + 7] > BOCut[type[i]][type[j]]) edges_.emplace_back(i, j);
    }
  }
  parent_.resize(nall);
  label_.resize(nall);
  for (int round = 0; round < 400 * comm->nprocs; ++round) {
    comm->forward_comm(this);
    std::iota(parent_.begin(), parent_.end(), 0);
    for (const auto &[i, j] : edges_) {
      const int a = root_of(parent_, i), b = root_of(parent_, j);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
    std::fill(label_.begin(), label_.end(), HUGE_VAL);
    for (int k = 0; k < nall; ++k)
      if (mask[k] & groupbit) {
        double &l = label_[root_of(parent_, k)];
        l = std::min(l, clusterID[k]);
      }
    int change = 0, any = 0;
    for (int i = 0; i < nlocal; ++i) {
      if (!(mask[i] & groupbit)) continue;
      const double l = label_[root_of(parent_, i)];
      if (l != clusterID[i]) clusterID[i] = l, change = 1;
    }
    MPI_Allreduce(&change, &any, 1, MPI_INT, MPI_MAX, world);
    if (!any) break;
  }
}

// After SortMolecule (IDs 1..nmole): each molecule's element counts, summed
// over the ranks at once; species numbered in order of their first molecule,
// as LAMMPS's FindSpecies numbers them, in the arrays WriteFormulas reads.
void FixReaxFFSpeciesGPU::count_species(int nmole, int &nspec) {
  const size_t width = nutypes;
  std::vector<int> mine(static_cast<size_t>(nmole) * width, 0), all(mine.size(), 0);
  for (int n = 0; n < nlocal; ++n) {
    if (!(atom->mask[n] & groupbit)) continue;
    const long m = std::lround(clusterID[n]) - 1;
    mine[m * width + ele2uele[atom->type[n] - 1]]++;
  }
  MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()), MPI_INT, MPI_SUM, world);

  memory->destroy(MolName);
  memory->create(MolName, nmole * (nutypes + 1), "reaxff/species:MolName");
  memory->destroy(NMol);
  memory->create(NMol, nmole, "reaxff/species:NMol");
  memory->destroy(Mol2Spec);
  memory->create(Mol2Spec, nmole, "reaxff/species:Mol2Spec");
  std::fill_n(NMol, nmole, 1);
  std::fill_n(Mol2Spec, nmole, -1);
  std::map<std::vector<int>, int> species;
  nspec = 0;
  for (int m = 0; m < nmole; ++m) {
    std::vector<int> formula(all.begin() + m * width, all.begin() + (m + 1) * width);
    if (std::all_of(formula.begin(), formula.end(), [](int c) { return c == 0; })) continue;
    const auto [it, added] = species.emplace(formula, nspec);
    if (added) {
      std::copy(formula.begin(), formula.end(), MolName + width * nspec);
      ++nspec;
    } else {
      NMol[it->second]++;
    }
    Mol2Spec[m] = it->second;
  }
  memory->destroy(nd);
  memory->create(nd, std::max(nspec, 1), "reaxff/species:nd");
  memory->destroy(MolType);
  memory->create(MolType, std::max(nspec, 1) * (nutypes + 2), "reaxff/species:MolType");
}
