/* fix qeq/reaxff/gpu: charge equilibration for pair_style reaxff/gpu, with
   fix qeq/reaxff's syntax, keywords and defaults plus ours (tuning, xlmd):
   doc/fix_qeq_reaxff_gpu.md. Registered also as qeq/reax/gpu (`-sf gpu`
   maps LAMMPS's old name here). With fix efield, the field's potential
   shifts the electronegativities (QEqEfield), as in fix qeq/reaxff.

   The solve is the charge stage of pair_style reaxff/gpu's engine
   (Engine::solve_charges; fix_qeq_reaxff_gpu_solve.cpp calls it). This
   class keeps LAMMPS's side: the settings and the problem, the solver's
   communication (the halo recorded from LAMMPS's forward comm: QEqLammpsComm),
   and the per-atom history of past solutions (puremd::ChargeHistory), which
   it moves with the atoms and keeps in restart files. */
#ifndef LMP_FIX_QEQ_REAXFF_GPU_H
#define LMP_FIX_QEQ_REAXFF_GPU_H

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "charge_fix_gpu.h"
#include "fix.h"
#include "library_call.h"
#include "puremd_gpu/charge_history.h"
#include "puremd_gpu/qeq.h"
#include "qeq_lammps_comm.h"
#include "xl_schedule.h"

namespace LAMMPS_NS {

// The error of our charge fixes without pair_style reaxff/gpu (fix style
// twice): LAMMPS's fix qeq/reaxff runs beside other pair styles, ours not.
inline constexpr const char *kNeedsOurPair =
    "Fix {} requires pair_style reaxff/gpu; with another pair style use LAMMPS's fix (its name "
    "without /gpu; under -sf gpu put 'suffix off' before the fix {} line and 'suffix on' after "
    "it)";

class QEqEfield;

// A charge model's syntax (FixQEqReaxFFGPU's arguments): what follows
// params and which keywords of its own it takes.
struct ChargeModelSyntax {
  size_t positional = 8;                              // words up to the last positional argument
  std::string positional_usage;                       // those after params, for the usage line
  std::vector<std::pair<std::string, int>> keywords;  // own keywords, values each
  std::string keyword_usage;                          // own keywords, for the usage line
  bool extended_lagrangian = false;                   // xlmd, xlcg, xlk
  bool cg = true;  // solved by QEq's CG, whose preconditioner precond chooses
};

class FixQEqReaxFFGPU : public Fix, public ChargeFixGPU {
 public:
  FixQEqReaxFFGPU(class LAMMPS *, int, char **);
  ~FixQEqReaxFFGPU() override;
  int setmask() override;
  void post_constructor() override;
  void init() override;
  void setup_pre_force(int) override;
  void pre_force(int) override;
  void setup_pre_force_respa(int, int) override;
  void pre_force_respa(int, int, int) override;
  void min_pre_force(int) override;

  // Scalar: CG iterations of the last solve, (iterations s + iterations t) / 2,
  // as fix qeq/reaxff reports it. Vector: [iterations s, iterations t].
  void post_run() override;
  double compute_scalar() override;
  double compute_vector(int) override;

  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  // restart files carry the history (with xlmd: its auxiliary vectors, and
  // the schedule's values)
  void write_restart(FILE *) override;
  void restart(char *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int maxsize_restart() override;
  int size_restart(int) override;
  void set_arrays(int) override;
  double memory_usage() override;

  // QEq has no effective potentials (ChargeFixGPU).
  const double *effective_potentials() const override { return nullptr; }

 protected:
  // Arguments (fix_qeq_reaxff_gpu_args.cpp). A charge model states its
  // syntax (ChargeModelSyntax); the constructor parses what every model has
  // (Nevery cutlo cuthi tol params, the common keywords, QEq's
  // extended-Lagrangian ones where the model has them) and sets the model's
  // own keywords aside, which the model parses at post_constructor
  // (own_keyword); its positional arguments after params, its constructor.
  // (Everything that may fail comes before the constructor's Atom callbacks:
  // LAMMPS takes those only while it constructs the fix.)
  FixQEqReaxFFGPU(class LAMMPS *, int, char **, ChargeModelSyntax);
  // The model's own keyword at words[k] (QEq's and ACKS2's: matfree).
  virtual void own_keyword(size_t k);
  const ChargeModelSyntax syntax;
  std::vector<std::string> words;    // the fix command's words
  std::vector<size_t> own_keywords;  // where the model's own keywords are
  std::string usage() const;         // the fix's whole syntax, for errors
  // The value after keyword words[k] (an error if there is none).
  const std::string &keyword_value(size_t k) const;
  void parse_keywords();
  void take_command_line_settings();  // -var reaxff_gpu's (command_line_settings.h)
  void check_settings();
  // The run's fix efield, checked as this charge model takes it.
  virtual std::unique_ptr<QEqEfield> find_efield();
  // What the charge model adds to the solve's input (here: fix efield's
  // potential as a shift of chi).
  virtual void charge_model(puremd::QEqProblem &in);

  int nevery;
  double swa, swb;  // taper inner / outer radius
  double tolerance;
  int imax;     // maxiter
  int maxwarn;  // 0 with 'nowarn'
  int nlevels_respa;
  int iter_s, iter_t;
  int threads_per_row = 0;                             // QEqSettings::threads_per_row
  puremd::QEqMatrix matrix = puremd::QEqMatrix::Auto;  // QEqSettings::matrix
  bool told_matrix_free = false;  // the log says once that auto went matrix-free
  const char *method = "CG";      // the solver, as the warnings name it
  // QEqSettings::predictor
  puremd::QEqPredictor predictor = puremd::QEqPredictor::Lammps;
  // QEqSettings::preconditioner and fsai_radius (keywords precond,
  // fsai_radius); not given, the library's defaults ("" and 0:
  // puremd::qeq_preconditioner, FSAI, and puremd::fsai_pattern_radius)
  std::string precond;
  double fsai_radius = 0.0;
  bool matrix_from_command_line = false;  // -var reaxff_gpu's matrix wins over matfree
  // Extended-Lagrangian charges (keywords xlmd, xlcg, xlk; QEqSettings::xl):
  // the mode of each solve is xl's (xl_schedule.h), from what the fix tells
  // it; xl_created: atoms were created here since the last solve (set_arrays)
  bool xlmd = false, xlcg_given = false, xlk_given = false, predictor_given = false;
  bool xl_created = false;
  int xlcg = 2, xlk = puremd::kQEqXlDefaultOrder;
  XlSchedule xl;
  XlSchedule::Print position_print();
  // Per-run QEq timing, reported by post_run() with the pair's `timing yes`.
  double solve_seconds = 0.0, halo_seconds = 0.0;  // (halo: QEqLammpsComm::update_halo)
  long halo_recordings = 0;
  long solves = 0, iter_s_sum = 0, iter_t_sum = 0;
  std::string pertype_option;  // params
  int reaxflag;                // parameters from the pair style (1) or from a file (0)

  // Per-type QEq parameters, index 1..ntypes (entry 0 unused).
  std::vector<double> chi, eta, gamma;

  class PairReaxFFGPU *reaxff;        // found in init()
  std::unique_ptr<QEqEfield> efield;  // the run's fix efield, if any
  puremd::ChargeHistory history;      // past solutions, per atom: moves with the atoms
  bool solver_is_cuda = false;        // the engine runs the CUDA driver
  bool solver_logged;                 // the log line naming the solver was written
  // the solver's communication over LAMMPS's comm and MPI, with the halo
  std::unique_ptr<QEqLammpsComm> qcomm;
  QEqLammpsComm::CudaAware cuda_aware = QEqLammpsComm::CudaAware::Auto;  // keyword cuda_aware
  bool halo_peer_copies = true;  // keyword halo (auto: true, mpi: false)
  bool halo_logged = false;      // the log said how the halo travels
  void log_halo(const puremd::QEqResult &res);
  void forward_per_atom(double *v);

  // params: "reaxff" (extract_pair_parameters) or a file (read_parameter_file),
  // each as the charge model takes it
  void pertype_parameters(const char *);
  virtual void extract_pair_parameters();
  virtual void read_parameter_file(const char *);
  void check_parameters();
  void warn_taper();
  puremd::QEqSettings qeq_settings() const;
  // the log (fix_qeq_reaxff_gpu_log.cpp): the solver, the halo, the timing
  void log_solver();
  std::string preconditioner_text() const;  // the log's words for the preconditioner
  void log_timing();                        // a run's, with `timing yes`
  // "Fix STYLE", how the library's errors begin (library_call.h)
  std::string context() const;
  // A call of the history's API (`entry` as library_call.h names it); the
  // history may copy its values home from the GPU for it.
  template <class Call>
  decltype(auto) history_call(const char *entry, Call &&call) {
    return call_library(lmp, context().c_str(), entry, std::forward<Call>(call));
  }
};

}  // namespace LAMMPS_NS

#endif
