// Which atoms of a QEqInput take part and where their parameters are: the
// rules both charge solvers read (the CUDA solver's kernels apply the same
// ones on the GPU: cuda/charges/qeq_cuda_rows.cuh).
#pragma once

#include <vector>

#include "puremd_gpu/qeq.h"

namespace puremd {

inline bool qeq_is_active(const QEqInput &in, int i) {
  return qeq_takes_part(in.active, in.active_bits, in.type, in.type_map, in.num_mapped, i);
}
// Whether some atom may not take part, so that per-atom flags are needed.
inline bool qeq_has_exclusions(const QEqInput &in) { return in.active || (in.type && in.type_map); }
inline int qeq_param_index(const QEqInput &in, int i) { return in.type ? in.type[i] : i; }

// The InputError for atom i of the group, which qeq_row_parameters_ok rejects.
[[noreturn]] void qeq_reject_row(const QEqInput &in, int i);
// The owned atoms of the group, in index order: the rows of H. Throws
// InputError for an atom without QEq parameters or with eta <= 0.
void qeq_select_rows(const QEqInput &in, std::vector<int> &rows);

// Extended-Lagrangian charges (QEqSettings::xl) are QEq's: an InputError for
// ACKS2 or QTPIE/QEqR electronegativities with xl other than Off, or for a
// history of fewer past values than the scheme's order needs.
void check_xl_input(const QEqInput &in, int history_depth);
// InputError where the model keeps its own preconditioner
// (ChargeModelInput::own_preconditioner) and another than Jacobi is asked.
void check_model_preconditioner(const QEqInput &in);

}  // namespace puremd
