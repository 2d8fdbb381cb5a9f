/* pair_style reaxff/gpu: ReaxFF computed by lib/puremd_gpu (CUDA driver on a
   GPU, host reference driver otherwise). Same syntax and results as
   pair_style reaxff.

   It derives from PairReaxFF so that the companion styles that look the pair
   up as PairReaxFF (fix reaxff/bonds, fix reaxff/species, compute
   reaxff/atom) keep working: after each step it exports the bond orders into
   the bond list, total_bond_order and nlp those styles read. */
#ifndef LMP_PAIR_REAXFF_GPU_H
#define LMP_PAIR_REAXFF_GPU_H

#include <memory>
#include <string>
#include <vector>

#include "kokkos_atoms.h"
#include "pair_reaxff.h"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/engine.h"
#include "reaxff_defs.h"
#include "species_window.h"

namespace LAMMPS_NS {

class PairReaxFFGPU : public PairReaxFF {
 public:
  PairReaxFFGPU(class LAMMPS *);
  ~PairReaxFFGPU() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  // (the KOKKOS request's list is never built: `list` stays own_list)
  void init_list(int, class NeighList *) override {}
  void *extract(const char *, int &) override;
  double memory_usage() override;
  void finish() override;

  // The reaxff/gpu style of this run: the pair style itself or a sub-style of
  // pair_style hybrid (which `-sf gpu` stores as "reaxff"); null if none.
  static PairReaxFFGPU *find(class LAMMPS *);

  // Which driver runs, for the log and for fix qeq/reaxff/gpu.
  puremd::Driver driver() const { return engine ? engine->driver() : requested_driver; }
  const puremd::Control &control_params() const { return control; }
  // pair_coeff's map from atom type (1..ntypes) to force-field element, -1
  // for NULL; ntypes + 1 entries.
  const int *type_map() const { return map; }
  // For fix qeq/reaxff/gpu: the engine whose charge stage runs on this
  // style's atoms (fill_step_input), and the step key of a call
  // (puremd::StepKey: whether the forces reuse a solve's atoms is the
  // engine's to decide from it).
  puremd::Engine &charge_engine();
  void fill_step_input(puremd::StepInput &in);
  // LAMMPS's per-atom arrays where the engine reads them: under KOKKOS
  // (kokkos_atoms.h) atomKK's views in this style's execution space, which
  // LAMMPS has synced there for the pair and for the charge fix.
  reaxff_gpu::AtomArrays atom_arrays();
  enum class StepCall { ChargeSolve, Forces };
  puremd::StepKey step_key(StepCall call) const;
  // `timing yes`: per-phase times at the end of a run (the QEq fix's too).
  bool timing() const { return engine_settings.timing; }
  // For compute reaxff/atom/gpu: the last compute()'s bond list, total bond
  // orders and lone pairs in PairReaxFF's arrays (copied once per compute()).
  void export_bond_table();
  // For fix reaxff/species/gpu and fix reaxff/bonds/gpu: the bonds each reads
  // of the last compute() (copied from the engine once per compute() and rule).
  const puremd::BondRows &bond_rows(puremd::BondRowRule rule);
  // For fix reaxff/bonds/gpu: the last compute()'s total bond order and lone
  // pairs per atom (local index; copied once per compute()).
  const std::vector<double> &total_bond_orders();
  const std::vector<double> &lone_pairs();

 protected:
  void setup() override {}

 private:
  puremd::Control control;
  puremd::ForceField ffield;
  bool have_ffield = false;
  puremd::Driver requested_driver = puremd::Driver::Auto;
  puremd::EngineSettings engine_settings;  // lanes, timing
  double list_skin = -1.0;                 // `skin`; < 0: LAMMPS's neighbor skin
  std::unique_ptr<puremd::Engine> engine;
  bool engine_stale = true;
  // the run's charge fix of this package (init_style; its u for the forces)
  class ChargeFixGPU *charge_fix = nullptr;
  // a fix after it runs at pre-force: the forces do not reuse the solve's
  // atoms and charges (step_key)
  bool pre_force_after_solve = false;
  int gpu_id = -1;  // this rank's GPU (CUDA driver)

  // Bond data exported for the analysis styles (see class comment;
  // pair_reaxff_gpu_analysis.cpp), on the steps they read it.
  bool analysis_styles = false;  // any of them in this run
  bigint computes = 0;           // compute() calls so far (also StepKey::evaluation)
  // the compute() whose bond table / species bonds were copied, and whose
  // species bonds are in tmpid / tmpbo
  bigint bond_table_of = -1, atom_table_of = -1, species_filled_of = -1;
  bigint rows_of[2] = {-1, -1};  // per BondRowRule
  bool bond_list_made = false;
  std::vector<double> export_total_bo, export_nlp;
  puremd::BondRows rows[2];                   // per BondRowRule
  SpeciesWindow species_window{MAXSPECBOND};  // (LAMMPS's tmpid / tmpbo slots)
  class NeighList *own_list = nullptr;

  void make_engine();
  puremd::GpuAssignment gpu_assignment();
  void check_gpu_code();
  bool pre_force_fix_after(const class Fix *charge_fix) const;
  void export_for_analysis();
  void export_species_bonds(bool new_window);
  void atom_table();
  void update_own_list();
};

}  // namespace LAMMPS_NS

#endif
