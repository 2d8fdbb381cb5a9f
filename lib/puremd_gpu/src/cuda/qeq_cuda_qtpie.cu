// The CUDA QEq solver's QTPIE or QEqR electronegativities (QEqInput::qtpie,
// physics/qtpie.h): chi_eff of every owned atom from the engine's far list
// of the step, a group of lanes per atom over its partners k < i (the
// reverse index) and j > i (its far row), within the overlap cut-off. The
// far list must reach that cut-off (CudaEngine::charge_stage widens it).
#include <cuda_runtime.h>

#include <string>

#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qtpie.h"

namespace puremd::cuda {
namespace {

struct QtpieArgs {
  int n_local;
  EngineAtoms far;
  const int *type;  // null: per-atom parameters
  const double *chi, *exponent, *phi;
  OverlapModel model;
  double phi_scale, cut_bohr;
  double *chi_eff;
};

constexpr int kQtpieLanes = 32;  // partners within ~8-10 A: hundreds a row

__device__ __forceinline__ int qtpie_param(const QtpieArgs &a, int i) {
  return a.type ? a.type[i] : i;
}

__global__ void __launch_bounds__(kQEqBlock) k_qtpie_chi_eff(QtpieArgs a) {
  const LaneGroup<kQtpieLanes> g;
  const long long row = g.row();
  if (row >= a.n_local) return;  // whole groups
  const int i = static_cast<int>(row);
  const int pi = qtpie_param(a, i);
  const vec3 xi = a.far.x[i];
  const double ai = a.exponent[pi];
  auto site = [&](int j, int pj) { return OverlapSite{a.chi[pj], a.phi ? a.phi[j] : 0.0}; };
  const OverlapSite si = site(i, pi);
  QtpieSums s;
  if (g.lane == 0)  // i itself
    qtpie_add(s, ai, ai, 0.0, a.cut_bohr, overlap_weight(a.model, a.phi_scale, si, si));
  auto partner = [&](int j) {
    const int pj = qtpie_param(a, j);
    const double r = pair_geometry(xi, a.far.x[j]).d;
    qtpie_add(s, ai, a.exponent[pj], r, a.cut_bohr,
              overlap_weight(a.model, a.phi_scale, si, site(j, pj)));
  };
  const int r_end = a.far.rev_start[i + 1];
  for (int q = a.far.rev_start[i] + g.lane; q < r_end; q += kQtpieLanes) partner(a.far.rev_row[q]);
  const int f_end = a.far.end[i];
  for (int p = a.far.start[i] + g.lane; p < f_end; p += kQtpieLanes) partner(a.far.nbr[p]);
  g.sum_all(s);
  if (g.lane == 0) a.chi_eff[i] = qtpie_chi_eff(a.model, a.phi_scale, s, si);
}

}  // namespace

void CudaQEqSolver::qtpie_electronegativities(const QEqInput &in) {
  const QtpieInput &qt = *in.qtpie;
  if (!qt.exponent || !(qt.cutoff_bohr > 0.0))
    throw InputError("QTPIE: orbital exponents and a positive overlap cut-off are required");
  if (in.chi_shift)
    throw InputError("QTPIE: an external potential goes through QtpieInput::phi, not chi_shift");
  const double cut_A = qt.cutoff_bohr / kBohrPerAngstrom;
  if (!(cut_A <= atoms_.cut_local))
    throw RuntimeError("QTPIE (CUDA): the engine's far list (" + std::to_string(atoms_.cut_local) +
                       " A) does not reach the overlap cut-off (" + std::to_string(cut_A) + " A)");
  const int n = in.n_total, nl = in.n_local;
  upload(qtpie_exp_dev_, qt.exponent, in.type ? std::max(in.num_types, 0) : n);
  if (qt.phi) upload(qtpie_phi_dev_, qt.phi, n);
  chi_eff_dev_.reserve_discarding(nl, kGrowHeadroom);
  params_.chi_eff = chi_eff_dev_.data();
  if (nl == 0) return;
  QtpieArgs a{};
  a.n_local = nl;
  a.far = atoms_;
  a.type = params_.type;
  a.chi = chi_dev_.data();
  a.exponent = qtpie_exp_dev_.data();
  a.phi = qt.phi ? qtpie_phi_dev_.data() : nullptr;
  a.model = qt.model;
  a.phi_scale = qt.phi_scale;
  a.cut_bohr = qt.cutoff_bohr;
  a.chi_eff = chi_eff_dev_.data();
  k_qtpie_chi_eff<<<blocks_for(static_cast<long long>(nl) * kQtpieLanes, kQEqBlock), kQEqBlock, 0,
                    stream_>>>(a);
  PMD_CUDA_CHECK_LAUNCH("k_qtpie_chi_eff", stream_);
}

}  // namespace puremd::cuda
