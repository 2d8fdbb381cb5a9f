#include "fix_reaxff_species_gpu.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix_ave_atom.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "pair_reaxff_gpu.h"
#include "reaxff_defs.h"
#include "style_registry.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {
int root_of(std::vector<int> &parent, int a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}
}  // namespace

FixReaxFFSpeciesGPU::FixReaxFFSpeciesGPU(LAMMPS *lmp, int narg, char **arg)
    : FixReaxFFSpecies(lmp, narg, arg), window(MAXSPECBOND) {
  fast = !posflag && !delflag;
  if (fast) {
    FixReaxFFSpeciesGPU::grow_arrays(atom->nmax);
    atom->add_callback(Atom::GROW);
    maxexchange = window.width();
  }
}

FixReaxFFSpeciesGPU::~FixReaxFFSpeciesGPU() {
  if (fast && atom) atom->delete_callback(id, Atom::GROW);
}

void FixReaxFFSpeciesGPU::init() {
  FixReaxFFSpecies::init();
  if (!fast) return;
  ours = dynamic_cast<PairReaxFFGPU *>(reaxff);
  if (!ours)
    error->all(FLERR,
               "Fix reaxff/species/gpu needs pair_style reaxff/gpu; with pair_style {} use fix "
               "reaxff/species",
               force->pair_style);
  // LAMMPS's fix made its averaging fix (SPECBOND_ID, fix ave/atom of the
  // pair's tmpid / tmpbo through compute SPECATOM_ID); this one averages
  // itself, and the pair leaves tmpid / tmpbo unfilled for it. That fix still
  // samples at its own set-up whenever the run starts on one of its sample
  // steps (every run with Nrepeat 1 starting on a multiple of Nfreq, a later
  // run starting where its schedule stopped), and would read the pair's
  // arrays there. So it is replaced, once, by one of the same ID and schedule
  // that averages only x: LAMMPS's fix still finds (and deletes) its fix and
  // compute by ID, and nothing reads the pair's arrays.
  if (!specbond_replaced) {
    const std::string cmd =
        fmt::format("SPECBOND_{} all ave/atom {} {} {} x", id, nevery, nrepeat, nfreq);
    f_SPECBOND = dynamic_cast<FixAveAtom *>(modify->add_fix(cmd));
    if (!f_SPECBOND) error->all(FLERR, "Fix reaxff/species/gpu could not replace fix {}", cmd);
    specbond_replaced = true;
  }
  // and it is never called to sample: Modify calls an end_of_step fix on the
  // multiples of its nevery.
  f_SPECBOND->nevery = MAXSMALLINT;
}

// A run continues the window of the run before, as fix ave/atom does: its
// schedule starts afresh only where the next sample is already behind
// (the first run; after a minimize or a reset_timestep).
void FixReaxFFSpeciesGPU::setup(int vflag) {
  if (fast && next_sample < update->ntimestep) {
    irepeat = 0;
    next_sample = schedule().first_sample(update->ntimestep);
  }
  FixReaxFFSpecies::setup(vflag);  // writes the set-up step's species (post_integrate)
}

void FixReaxFFSpeciesGPU::post_integrate() {
  if (!fast) {
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

  const bigint step = update->ntimestep;
  if (step == next_sample) sample();
  if (step == nvalid || nvalid == -1) write_output();
  if (comm->me == 0) fflush(fp);
}

// One sample of the window: each owned atom's bonds of the last compute()
// (the pair's, as LAMMPS's FindBond gives them) added to their partners'
// sums; the window's last sample turns sums into averages (fix ave/atom's
// schedule and arithmetic).
void FixReaxFFSpeciesGPU::sample() {
  const puremd::BondRows &sb = ours->bond_rows(puremd::BondRowRule::Species);
  const int *mask = atom->mask;
  const tagint *tag = atom->tag;
  nlocal = atom->nlocal;
  if (irepeat == 0) window.clear(nlocal);
  int dropped = 0;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    for (int e = sb.start[i]; e < sb.start[i + 1]; ++e) {
      const int k = window.slot(i, tag[sb.partner[e]]);
      if (k < 0) {
        ++dropped;
        continue;
      }
      window.value(i, k) += sb.bo[e];
    }
  }
  if (dropped)
    error->one(FLERR,
               "Fix reaxff/species/gpu: an atom bonded to more than {} partners within one "
               "averaging window (MAXSPECBOND of LAMMPS's reaxff_defs.h); use a shorter window",
               MAXSPECBOND);
  if (++irepeat < nrepeat) {
    next_sample += nevery;
    return;
  }
  for (int i = 0; i < nlocal; ++i)
    for (int k = 0; k < MAXSPECBOND; ++k) window.value(i, k) /= nrepeat;
  irepeat = 0;
  next_sample = schedule().next_window(update->ntimestep);
}

void FixReaxFFSpeciesGPU::write_output() {
  const bigint step = update->ntimestep;
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

// Molecules: atoms joined by a bond above the cut-off (the fix's rule: owned
// atom i and partner j >= i of the last compute(), both in the group, whose
// average over the window is above the cut-off for their types). Each owned
// atom gets the smallest atom ID of its molecule, across ranks: local
// components, then ghosts' labels from their owners, until no rank changes
// one.
void FixReaxFFSpeciesGPU::find_molecules() {
  const int nall = atom->nlocal + atom->nghost;
  const int *mask = atom->mask, *type = atom->type;
  const puremd::BondRows &sb = ours->bond_rows(puremd::BondRowRule::Species);
  for (int i = 0; i < nlocal; ++i) clusterID[i] = (mask[i] & groupbit) ? atom->tag[i] : 0.0;

  edges.clear();
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    for (int e = sb.start[i]; e < sb.start[i + 1]; ++e) {
      const int j = sb.partner[e];
      if (!(mask[j] & groupbit)) continue;
      const int k = window.find(i, atom->tag[j]);
      if (k >= 0 && window.value(i, k) > BOCut[type[i]][type[j]]) edges.emplace_back(i, j);
    }
  }
  parent.resize(nall);
  label.resize(nall);
  for (int round = 0; round < 400 * comm->nprocs; ++round) {
    comm->forward_comm(this);
    std::iota(parent.begin(), parent.end(), 0);
    for (const auto &[i, j] : edges) {
      const int a = root_of(parent, i), b = root_of(parent, j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::fill(label.begin(), label.end(), HUGE_VAL);
    for (int k = 0; k < nall; ++k)
      if (mask[k] & groupbit) {
        double &l = label[root_of(parent, k)];
        l = std::min(l, clusterID[k]);
      }
    int change = 0, any = 0;
    for (int i = 0; i < nlocal; ++i) {
      if (!(mask[i] & groupbit)) continue;
      const double l = label[root_of(parent, i)];
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

// New rows start free: an atom that has not been sampled has no partners
// yet, as in fix ave/atom's zeroed array (the set-up output of a run reads
// them before any sample).
void FixReaxFFSpeciesGPU::grow_arrays(int n) { window.grow(n); }

void FixReaxFFSpeciesGPU::copy_arrays(int i, int j, int /*delflag*/) { window.copy(i, j); }

int FixReaxFFSpeciesGPU::pack_exchange(int i, double *buf) { return window.pack(i, buf); }

int FixReaxFFSpeciesGPU::unpack_exchange(int n, double *buf) { return window.unpack(n, buf); }

double FixReaxFFSpeciesGPU::memory_usage() {
  return FixReaxFFSpecies::memory_usage() + (fast ? window.bytes() : 0.0);
}

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::fix_style(
    {"reaxff/species/gpu"},
    "fix reaxff/species for pair_style reaxff/gpu (molecules found in linear time)",
    &reaxff_gpu::new_fix<FixReaxFFSpeciesGPU>)};
}  // namespace
