/* fix qeq/reaxff/gpu: its arguments, and the parts every charge model of
   this package shares (see fix_qeq_reaxff_gpu.h). */
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "comm.h"
#include "command_line_settings.h"
#include "error.h"
#include "fix_qeq_reaxff_gpu.h"
#include "library_call.h"
#include "puremd_gpu/physics/qeq_history.h"
#include "puremd_gpu/qeq.h"
#include "qeq_lammps_comm.h"
#include "utils.h"

using namespace LAMMPS_NS;

namespace {
// A keyword's choices as the usage line shows them (a|b|c) and as an error
// lists them ('a', 'b' or 'c').
std::string alternatives(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names) s += (s.empty() ? "" : "|") + n;
  return s;
}
std::string choices(const std::vector<std::string> &names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k)
    s += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + ("'" + names[k] + "'");
  return s;
}
}  // namespace

std::string FixQEqReaxFFGPU::usage() const {
  return fmt::format(
      "fix ID group {} Nevery cutlo cuthi tol params{} [nowarn] [maxiter N]{}{} "
      "[threads_per_row N] [matrix {}] [predictor {}] [precond {}] [fsai_radius R] [halo "
      "auto|mpi] [cuda_aware auto|yes|no]",
      style, syntax.positional_usage, syntax.keyword_usage,
      syntax.extended_lagrangian ? " [xlmd yes|no] [xlcg N] [xlk K]" : "",
      alternatives(puremd::qeq_matrix_names()), alternatives(puremd::qeq_predictor_names()),
      alternatives(puremd::qeq_preconditioner_names()));
}

const std::string &FixQEqReaxFFGPU::keyword_value(size_t k) const {
  if (k + 1 >= words.size())
    error->all(FLERR, "Fix {}: keyword '{}' needs a value", style, words[k]);
  return words[k + 1];
}

// The keywords every charge model takes, and QEq's extended-Lagrangian
// ones where the model has them; the model's own are set aside for it.
void FixQEqReaxFFGPU::parse_keywords() {
  for (size_t k = syntax.positional; k < words.size(); ++k) {
    const std::string &kw = words[k];
    const bool xl_keyword = kw == "xlmd" || kw == "xlcg" || kw == "xlk";
    auto own = syntax.keywords.begin();
    while (own != syntax.keywords.end() && own->first != kw) ++own;
    if (kw == "nowarn") {
      maxwarn = 0;
    } else if (kw == "dual") {
      // as fix qeq/reaxff, whose post_constructor refuses it
      error->all(FLERR, "Dual keyword only supported with fix qeq/reaxff/omp (fix {})", style);
    } else if (kw == "maxiter") {
      imax = utils::inumeric(FLERR, keyword_value(k++), false, lmp);
    } else if (kw == "threads_per_row") {
      threads_per_row = utils::inumeric(FLERR, keyword_value(k++), false, lmp);
    } else if (kw == "matrix") {
      const std::string &v = keyword_value(k++);
      const auto m = puremd::qeq_matrix_from_name(v);
      if (!m)
        error->all(FLERR, "Fix {}: matrix must be {}, got '{}'", style,
                   choices(puremd::qeq_matrix_names()), v);
      matrix = *m;
    } else if (kw == "predictor") {
      const std::string &v = keyword_value(k++);
      const auto p = puremd::qeq_predictor_from_name(v);
      if (!p)
        error->all(FLERR, "Fix {}: predictor must be {}, got '{}'", style,
                   choices(puremd::qeq_predictor_names()), v);
      predictor = *p;
      predictor_given = true;
    } else if (kw == "precond") {
      const std::string &v = keyword_value(k++);
      if (!syntax.cg && v != puremd::kQEqJacobi)
        error->all(FLERR,
                   "Fix {}: precond {} is for QEq's conjugate gradients; this fix's solver keeps "
                   "its own diagonal preconditioner (leave precond out)",
                   style, v);
      const std::vector<std::string> names = puremd::qeq_preconditioner_names();
      if (std::find(names.begin(), names.end(), v) == names.end())
        error->all(FLERR, "Fix {}: precond must be {}, got '{}'", style, choices(names), v);
      precond = v;
    } else if (kw == "fsai_radius") {
      fsai_radius = utils::numeric(FLERR, keyword_value(k++), false, lmp);
      // (0 would be the library's default: refused here, as any radius <= 0)
      if (!(fsai_radius > 0.0))
        error->all(FLERR, "Fix {}: fsai_radius (FSAI's pattern radius, A) must be positive, got {}",
                   style, words[k]);
    } else if (kw == "halo") {
      const std::string &v = keyword_value(k++);
      if (v != "auto" && v != "mpi")
        error->all(FLERR, "Fix {}: halo must be 'auto' or 'mpi', got '{}'", style, v);
      halo_peer_copies = v == "auto";
    } else if (kw == "cuda_aware") {
      const std::string &v = keyword_value(k++);
      if (v != "auto" && v != "yes" && v != "no")
        error->all(FLERR, "Fix {}: cuda_aware must be 'auto', 'yes' or 'no', got '{}'", style, v);
      cuda_aware =
          v == "yes" ? QEqLammpsComm::CudaAware::Yes
                     : (v == "no" ? QEqLammpsComm::CudaAware::No : QEqLammpsComm::CudaAware::Auto);
    } else if (xl_keyword && !syntax.extended_lagrangian) {
      error->all(FLERR,
                 "Fix {}: keyword '{}' (extended-Lagrangian charges) is defined for fix "
                 "qeq/reaxff/gpu only",
                 style, kw);
    } else if (kw == "xlmd") {
      xlmd = utils::logical(FLERR, keyword_value(k++), false, lmp) != 0;
    } else if (kw == "xlk") {
      xlk = utils::inumeric(FLERR, keyword_value(k++), false, lmp);
      xlk_given = true;
    } else if (kw == "xlcg") {
      xlcg = utils::inumeric(FLERR, keyword_value(k++), false, lmp);
      xlcg_given = true;
    } else if (own != syntax.keywords.end()) {
      if (own->second > 0) keyword_value(k);
      own_keywords.push_back(k);
      k += own->second;
    } else {
      error->all(FLERR, "Unknown fix {} keyword: {} (expected '{}')", style, kw, usage());
    }
  }
}

// The tuning keywords of -var reaxff_gpu follow the input's among the words
// (command_line_settings.h): they win, and parse_keywords checks them as the
// input's. A model whose solver keeps its own preconditioner (ACKS2) leaves
// precond and fsai_radius aside, and says so.
void FixQEqReaxFFGPU::take_command_line_settings() {
  const std::string who = fmt::format("fix {} {}", id, style);
  std::string aside;
  const bool matfree =
      std::find(words.begin() + syntax.positional, words.end(), "matfree") != words.end();
  for (const reaxff_gpu::CommandLineSetting &c :
       reaxff_gpu::command_line_settings(lmp, reaxff_gpu::SettingsTaker::ChargeFix)) {
    if (!syntax.cg && (c.keyword == "precond" || c.keyword == "fsai_radius")) {
      aside += (aside.empty() ? "" : ", ") + c.keyword + " " + c.value;
      continue;
    }
    std::string said = reaxff_gpu::input_value(words, syntax.positional, c.keyword);
    if (c.keyword == "matrix" && matfree)
      said += (said.empty() ? "" : " and ") + std::string("matfree");
    reaxff_gpu::log_command_line_setting(lmp, who, c, said);
    words.insert(words.end(), {c.keyword, c.value});
    matrix_from_command_line = matrix_from_command_line || c.keyword == "matrix";
  }
  if (!aside.empty() && comm->me == 0)
    utils::logmesg(lmp,
                   "ReaxFF/GPU: {} leaves {} of -var {} aside: its BiCGStab keeps its own "
                   "diagonal preconditioner\n",
                   who, aside, reaxff_gpu::kSettingsVariable);
}

// QEq's and ACKS2's matfree (fix qeq/reaxff's and acks2/reaxff's keyword
// from LAMMPS 4Jul2026 on, acted on by their KOKKOS versions): H evaluated
// in every product, unless -var reaxff_gpu says otherwise.
void FixQEqReaxFFGPU::own_keyword(size_t k) {
  if (words[k] == "matfree" && !matrix_from_command_line) matrix = puremd::QEqMatrix::Free;
}

/* ----------------------------------------------------------------------
   the settings together: the solver's (taper, tolerance, maxiter,
   threads_per_row, predictor, xlcg, xlk) by the library's one check
   (puremd::check_qeq_settings, whose messages name the arguments); here
   only what it cannot see (xlcg or xlk without xlmd) and the warnings
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::check_settings() {
  if (xlcg_given && !xlmd)
    error->all(FLERR, "Fix {}: keyword 'xlcg' sets the CG iterations of 'xlmd yes'; add 'xlmd yes'",
               style);
  if (xlk_given && !xlmd)
    error->all(FLERR, "Fix {}: keyword 'xlk' sets the order of 'xlmd yes'; add 'xlmd yes'", style);
  call_library_all(lmp, context().c_str(), "check_qeq_settings",
                   [&] { puremd::check_qeq_settings(qeq_settings()); });
  if (comm->me != 0) return;
  warn_taper();
  if (xlmd && nevery > 1)
    error->warning(FLERR,
                   "Fix {} xlmd with Nevery {}: the auxiliary vectors advance once a solve, "
                   "every {} steps",
                   style, nevery, nevery);
  if (xlmd && predictor_given)
    error->warning(FLERR,
                   "Fix {}: with xlmd the predictor starts the converged solves only; each "
                   "step starts from the auxiliary vectors",
                   style);
}

void FixQEqReaxFFGPU::warn_taper() {
  if (std::fabs(swa) > 0.01)
    error->warning(FLERR, "Fix {} has non-zero lower Taper radius cutoff", style);
  if (swb < 5.0) error->warning(FLERR, "Fix {} has very low Taper radius cutoff", style);
}
