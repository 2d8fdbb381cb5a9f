// Jacobi, M = diag(H) (fix qeq/reaxff's): the host solver's default
// preconditioner (kQEqJacobi), registered for the host driver.
#include <vector>

#include "host/charges/host_preconditioner.h"
#include "host/charges/host_qeq_solver.h"

namespace puremd::host {
namespace {

class HostJacobi final : public HostPreconditioner {
 public:
  void setup(const HostQEqSolver &s) override {
    const double *diag = s.diag();
    inv_.resize(s.n_total());
    for (int i : s.rows()) inv_[i] = 1.0 / diag[i];
  }
  void apply(const HostQEqSolver &s, const double *r, double *p) override {
    for (int i : s.rows()) p[i] = r[i] * inv_[i];
  }
  std::size_t memory_bytes() const override { return inv_.capacity() * sizeof(double); }

 private:
  std::vector<double> inv_;  // 1 / H_ii at the rows
};

const HostPreconditioners::Add<HostJacobi> kHostJacobi(kQEqJacobi);

}  // namespace
}  // namespace puremd::host
