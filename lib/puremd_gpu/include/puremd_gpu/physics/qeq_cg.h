// The stopping rule of fix qeq/reaxff's conjugate gradients, shared by the
// host solver, the CUDA solver's host loop and its device-side loop: a
// system keeps iterating while its iteration count (1 after the initial
// residual) is below max_iter and sqrt(r . diag(H)^-1 r) / |b| is above the
// tolerance (r . M^-1 r with fix qeq/reaxff's Jacobi M; the same measure
// with any other M, so a tolerance means what it means to fix qeq/reaxff).
// The same IEEE operations everywhere, so every driver stops after the same
// iteration.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

PMD_HD PMD_INLINE bool qeq_cg_continues(int it, int max_iter, double r_stop, double b_norm,
                                        double tol) {
  return it < max_iter && sqrt(r_stop) / b_norm > tol;
}

// One row's term of r_stop = r . diag(H)^-1 r, in the operations of
// Jacobi's r . p (p = r * diag_inv), so that with Jacobi the two sums agree
// to the bit.
PMD_HD PMD_INLINE double qeq_stop_term(double r, double diag_inv) { return r * (r * diag_inv); }

}  // namespace puremd
