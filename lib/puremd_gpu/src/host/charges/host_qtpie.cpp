// QTPIE's and QEqR's electronegativities in the host reference solver
// (QtpieInput, physics/qtpie.h): chi_eff of every row from the Gaussian-
// orbital overlaps with every atom within the overlap cut-off, over the pairs
// of a half list of its own (owned and ghost atoms, group or not), each pair
// added to both atoms when both are owned. QEq's CG then solves with them.
#include <vector>

#include "host/charges/host_charge_model.h"
#include "host/charges/host_qeq_solver.h"
#include "puremd_gpu/neighbor_list.h"
#include "puremd_gpu/physics/qtpie.h"

namespace puremd::host {
namespace {

class HostQtpie final : public HostChargeModel {
 public:
  void setup(const QEqInput &in) override {
    model_input<QtpieInput>(in.model)->check(in.chi_shift);
  }

  const double *electronegativities(const QEqInput &in, HostQEqSolver &s) override {
    const QtpieInput &qt = *model_input<QtpieInput>(in.model);
    const int n = in.n_total, nl = in.n_local;
    const std::vector<vec3> &x = s.positions();
    build_half_neighbor_list(x.data(), nl, n, qt.reach(), 0.0, nullptr, nl_);
    auto site = [&](int i) {
      return OverlapSite{HostQEqSolver::chi_of(in, i), qt.phi ? qt.phi[i] : 0.0};
    };
    auto weight = [&](const OverlapSite &a, const OverlapSite &b) {
      return overlap_weight(qt.model, qt.phi_scale, a, b);
    };
    auto expo = [&](int i) { return qt.exponent[qeq_param_index(in, i)]; };
    sums_.assign(nl, QtpieSums{});
    for (int i = 0; i < nl; ++i) {
      const double ai = expo(i);
      const OverlapSite si = site(i);
      qtpie_add(sums_[i], ai, ai, 0.0, qt.cutoff_bohr, weight(si, si));  // i itself
      for (ListPos p = nl_.start[i]; p < nl_.end[i]; ++p) {
        const int j = nl_.nbr[p];
        const double aj = expo(j);
        const OverlapSite sj = site(j);
        const double r = pair_geometry(x[i], x[j]).d;
        qtpie_add(sums_[i], ai, aj, r, qt.cutoff_bohr, weight(si, sj));
        if (j < nl) qtpie_add(sums_[j], aj, ai, r, qt.cutoff_bohr, weight(sj, si));
      }
    }
    chi_eff_.assign(n, 0.0);
    for (int i = 0; i < nl; ++i)
      chi_eff_[i] = qtpie_chi_eff(qt.model, qt.phi_scale, sums_[i], site(i));
    return chi_eff_.data();
  }

  std::size_t memory_bytes() const override {
    return nl_.nbr.capacity() * sizeof(int) +
           (nl_.start.capacity() + nl_.end.capacity()) * sizeof(ListPos) +
           chi_eff_.capacity() * sizeof(double) + sums_.capacity() * sizeof(QtpieSums);
  }

 private:
  HalfNeighborList nl_;
  std::vector<QtpieSums> sums_;
  std::vector<double> chi_eff_;
};

const HostModels::Add<QtpieInput, HostQtpie> kHostQtpie;

}  // namespace
}  // namespace puremd::host
