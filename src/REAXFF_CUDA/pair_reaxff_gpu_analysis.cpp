// PairReaxFFGPU's side of the analysis styles that read PairReaxFF's arrays
// (fix reaxff/bonds, fix reaxff/species, compute reaxff/atom): what of the
// last compute() each will read, copied from the engine on the steps it
// reads it and only then.
//
// The schedules, from LAMMPS's fixes:
// - fix reaxff/bonds reads the bond list at its end_of_step, every Nevery
//   steps: the compute() of the same step. fix reaxff/bonds/gpu (what `-sf
//   gpu` makes of it) asks for its compact rows itself.
// - fix reaxff/species samples the bond orders (tmpbo, through fix ave/atom)
//   and reads the partners (tmpid) at post_integrate, before the step's
//   forces: the compute() of the step before. It samples at the multiples of
//   Nevery in the Nrepeat * Nevery steps before each multiple of Nfreq, and
//   writes at its own next output step.
// - compute reaxff/atom can be invoked at any step (a dump, thermo, a
//   variable): compute reaxff/atom/gpu (what `-sf gpu` makes of it) asks for
//   the table when it is invoked; LAMMPS's own style cannot ask, so with it
//   the table is copied after every compute().
// - Set-ups (run, minimize, rerun) and every minimizer step: all that is in
//   the run, as every style may read at those.
#include <algorithm>

#include "asks_pair.h"
#include "atom.h"
#include "atom_masks.h"
#include "ave_atom_schedule.h"
#include "compute.h"
#include "error.h"
#include "fix.h"
#include "lammps_protected.h"
#include "library_call.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "pair_reaxff_gpu.h"
#include "reaxff_api.h"
#include "reaxff_defs.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {

// LAMMPS's FindBond keeps bonds of at least this order for fix reaxff/species.
constexpr double kSpeciesMinBondOrder = 0.10;

// What fix reaxff/species f does at post_integrate of step t: read the
// bonds (sample or write), whether t is the first sample of a window, and
// whether t lies inside a window after its first sample (its slots must hold).
struct SpeciesRead {
  bool reads = false, starts_window = false, inside_window = false;
};
SpeciesRead species_read_at(const Fix *fix, bigint t, Error *error) {
  // (Nevery and Nfreq are Fix's own nevery and global_freq; LAMMPS keeps
  // Nrepeat and the next output step protected: lammps_protected.h)
  reaxff_gpu::SpeciesScheduleRead read;
  if (!reaxff_gpu::species_schedule(fix, read) || fix->nevery <= 0 || fix->global_freq <= 0)
    return {true, true, false};  // unknown
  const AveAtomSchedule s{fix->nevery, read.nrepeat, fix->global_freq};
  // (a LAMMPS that keeps Nrepeat otherwise must stop here, not average wrongly)
  if (!s.valid())
    error->all(FLERR,
               "pair_style reaxff/gpu cannot read the schedule of fix {} (Nevery {}, Nrepeat {}, "
               "Nfreq {}): this LAMMPS version keeps fix reaxff/species's Nrepeat elsewhere; use "
               "fix reaxff/species/gpu instead",
               fix->id, s.nevery, s.nrepeat, s.nfreq);
  return {s.samples(t) || t == read.next_output, s.starts_window(t), s.inside_window(t)};
}

}  // namespace

void PairReaxFFGPU::export_for_analysis() {
  reaxff_gpu::host_arrays_current(lmp, TAG_MASK | MASK_MASK);  // (KOKKOS: ids and groups)
  const bigint step = update->ntimestep;
  const bool always = update->setupflag || update->whichflag == 2;
  // (a set-up reads the bonds, but starts a window only where the schedule
  // does: a run continues the averaging of the run before)
  bool table = false, spec = always, new_window = false;
  for (const Fix *f : modify->get_fix_by_style("^reaxff/bonds"))
    if (!reaxff_gpu::asks_pair(f))
      table = table || always || (f->nevery > 0 && step % f->nevery == 0);
  for (const Compute *c : modify->get_compute_by_style("^reaxff/atom"))
    table = table || !reaxff_gpu::asks_pair(c);
  bool lammps_species = false, inside_window = false;
  for (const Fix *f : modify->get_fix_by_style("^reaxff/species")) {
    if (reaxff_gpu::asks_pair(f)) continue;
    lammps_species = true;
    const SpeciesRead r = species_read_at(f, step + 1, error);
    spec = spec || r.reads;
    new_window = new_window || r.starts_window;
    inside_window = inside_window || r.inside_window;
  }
  // Several fixes share the slots: they start afresh only where a window
  // starts and no other fix is inside one.
  new_window = new_window && !inside_window;
  if (table) export_bond_table();
  if (spec && lammps_species) export_species_bonds(new_window);
}

// The whole bond list, total bond orders and lone pairs into PairReaxFF's
// arrays (what fix reaxff/bonds and compute reaxff/atom read).
void PairReaxFFGPU::export_bond_table() {
  if (bond_table_of == computes || !engine) return;
  std::vector<int> row_start;
  std::vector<puremd::BondRecord> bonds;
  call_library(lmp, "pair_style reaxff/gpu", "bond_table",
               [&] { engine->bond_table(row_start, bonds); });
  atom_table();
  const int nall = atom->nlocal + atom->nghost;

  ReaxFF::reax_list *bl = api->lists + ReaxFF::BONDS;
  const int need = std::max<int>(1, bonds.size());
  if (!bond_list_made || bl->n < nall || bl->num_intrs < need) {
    ReaxFF::Make_List(std::max(nall, 1), need, ReaxFF::TYP_BOND, bl);
    bond_list_made = true;
  }
  for (int i = 0; i < nall; ++i) {
    bl->index[i] = row_start[i];
    bl->end_index[i] = row_start[i + 1];
  }
  for (size_t p = 0; p < bonds.size(); ++p) {
    bl->select.bond_list[p].nbr = bonds[p].j;
    bl->select.bond_list[p].bo_data.BO = bonds[p].bo;
  }
  api->workspace->total_bond_order = export_total_bo.data();
  api->workspace->nlp = export_nlp.data();
  api->system->n = atom->nlocal;
  api->system->N = nall;
  update_own_list();
  bond_table_of = computes;
}

void PairReaxFFGPU::atom_table() {
  if (atom_table_of == computes || !engine) return;
  call_library(lmp, "pair_style reaxff/gpu", "atom_table",
               [&] { engine->atom_table(export_total_bo, export_nlp); });
  atom_table_of = computes;
}

const std::vector<double> &PairReaxFFGPU::total_bond_orders() {
  atom_table();
  return export_total_bo;
}

const std::vector<double> &PairReaxFFGPU::lone_pairs() {
  atom_table();
  return export_nlp;
}

// Owned atoms' rows only, the only rows the fixes read: fix reaxff/species
// at order >= 0.10 (LAMMPS's FindBond), fix reaxff/bonds above the control
// file's bond_graph_cutoff.
const puremd::BondRows &PairReaxFFGPU::bond_rows(puremd::BondRowRule rule) {
  const int k = static_cast<int>(rule);
  if (rows_of[k] != computes && engine) {
    const double cut = rule == puremd::BondRowRule::Species ? kSpeciesMinBondOrder : control.bg_cut;
    call_library(lmp, "pair_style reaxff/gpu", "bond_rows",
                 [&] { engine->bond_rows(rule, cut, rows[k]); });
    rows_of[k] = computes;
    update_own_list();  // (the fixes' list: fix reaxff/bonds's dump image reads it)
  }
  return rows[k];
}

// fix reaxff/species's tmpid / tmpbo (LAMMPS's FindBond) from the engine's
// compact rows, each partner in one slot through the window (species_window.h).
void PairReaxFFGPU::export_species_bonds(bool new_window) {
  if (species_filled_of == computes || !engine) return;
  const puremd::BondRows &species = bond_rows(puremd::BondRowRule::Species);
  if (species.widest > MAXSPECBOND)
    error->one(FLERR,
               "An atom has {} bonds of order >= {} on step {}, more than fix reaxff/species "
               "takes (MAXSPECBOND = {} in LAMMPS's src/REAXFF/reaxff_defs.h)",
               species.widest, kSpeciesMinBondOrder, update->ntimestep, MAXSPECBOND);
  const int nlocal = atom->nlocal, nall = nlocal + atom->nghost;
  if (nall > nmax || !tmpid) {
    memory->destroy(tmpid);
    memory->destroy(tmpbo);
    nmax = std::max(nall, 1);
    memory->create(tmpid, nmax, MAXSPECBOND, "pair:tmpid");
    memory->create(tmpbo, nmax, MAXSPECBOND, "pair:tmpbo");
    std::fill_n(&tmpid[0][0], static_cast<size_t>(nmax) * MAXSPECBOND, 0);
    std::fill_n(&tmpbo[0][0], static_cast<size_t>(nmax) * MAXSPECBOND, 0.0);
  }
  // (the window's rows follow the atoms by ID: LAMMPS's sorting and
  // re-neighbouring in mid-window, as a new run's set-up does, keep them)
  const tagint *tag = atom->tag;
  species_window.follow(tag, nlocal);
  if (new_window) species_window.clear(nlocal);
  std::vector<tagint> present;
  for (int i = 0; i < nlocal; ++i) {
    std::fill_n(tmpid[i], MAXSPECBOND, 0);
    std::fill_n(tmpbo[i], MAXSPECBOND, 0.0);
    const int first = species.start[i], last = species.start[i + 1];
    bool fits = true;
    for (int e = first; e < last && fits; ++e)
      fits = species_window.slot(i, tag[species.partner[e]]) >= 0;
    if (!fits) {  // the slots of partners gone this sample are given up
      present.clear();
      for (int e = first; e < last; ++e) present.push_back(tag[species.partner[e]]);
      species_window.free_absent(i, present.data(), static_cast<int>(present.size()));
    }
    for (int e = first; e < last; ++e) {
      const int j = species.partner[e], k = species_window.slot(i, tag[j]);
      tmpid[i][k] = j;
      tmpbo[i][k] = species.bo[e];
    }
  }
  species_filled_of = computes;
}

void PairReaxFFGPU::update_own_list() {
  const int nlocal = atom->nlocal;
  if (own_list->maxatom < nlocal || !own_list->ilist) {
    memory->destroy(own_list->ilist);
    own_list->maxatom = std::max(nlocal, 1);
    memory->create(own_list->ilist, own_list->maxatom, "reaxff/gpu:ilist");
  }
  own_list->inum = nlocal;
  own_list->gnum = 0;
  for (int i = 0; i < nlocal; ++i) own_list->ilist[i] = i;
}
