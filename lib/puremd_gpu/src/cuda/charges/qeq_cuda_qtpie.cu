// QTPIE's and QEqR's electronegativities in the CUDA solver (QtpieInput,
// physics/qtpie.h; the model's CUDA implementation, cuda_charge_model.h):
// chi_eff of every owned atom from the engine's far list
// of the step, a group of lanes per atom over its partners k < i (the
// reverse index) and j > i (its far row), within the overlap cut-off. The
// far list must reach that cut-off (CudaEngine::charge_stage widens it).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda/charges/cuda_charge_model.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
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
  const ListPos r_end = a.far.rev_start[i + 1];
  for (ListPos q = a.far.rev_start[i] + g.lane; q < r_end; q += kQtpieLanes)
    partner(a.far.rev_row[q]);
  const ListPos f_end = a.far.end[i];
  for (ListPos p = a.far.start[i] + g.lane; p < f_end; p += kQtpieLanes) partner(a.far.nbr[p]);
  g.sum_all(s);
  if (g.lane == 0) a.chi_eff[i] = qtpie_chi_eff(a.model, a.phi_scale, s, si);
}

class CudaQtpie final : public CudaChargeModel {
 public:
  explicit CudaQtpie(MemoryTracker &mem) : mem_(mem) {}
  bool reads_reverse_index() const override { return true; }

  // The input's checks (as the host's), the exponents and the potential up.
  void setup(const QEqInput &in, CudaSolveContext &s) override {
    const QtpieInput &qt = *model_input<QtpieInput>(in.model);
    qt.check(in.chi_shift);
    const double cut_A = qt.reach();
    if (!(cut_A <= s.atoms().cut_local))
      throw RuntimeError(
          "QTPIE (CUDA): the engine's far list (" + std::to_string(s.atoms().cut_local) +
          " A) does not reach the overlap cut-off (" + std::to_string(cut_A) + " A)");
    s.upload(exponent_, qt.exponent, in.type ? std::max(in.num_types, 0) : in.n_total);
    if (qt.phi) s.upload(phi_, qt.phi, in.n_total);
  }

  const double *electronegativities(const QEqInput &in, CudaSolveContext &s) override {
    const QtpieInput &qt = *model_input<QtpieInput>(in.model);
    const int nl = in.n_local;
    chi_eff_.reserve_discarding(nl, kGrowHeadroom);
    if (nl == 0) return chi_eff_.data();
    QtpieArgs a{};
    a.n_local = nl;
    a.far = s.atoms();
    a.type = s.params().type;
    a.chi = s.params().chi;
    a.exponent = exponent_.data();
    a.phi = qt.phi ? phi_.data() : nullptr;
    a.model = qt.model;
    a.phi_scale = qt.phi_scale;
    a.cut_bohr = qt.cutoff_bohr;
    a.chi_eff = chi_eff_.data();
    k_qtpie_chi_eff<<<blocks_for(static_cast<long long>(nl) * kQtpieLanes, kQEqBlock), kQEqBlock, 0,
                      s.stream()>>>(a);
    PMD_CUDA_CHECK_LAUNCH("k_qtpie_chi_eff", s.stream());
    return chi_eff_.data();
  }

 private:
  MemoryTracker &mem_;
  DeviceArray<double> exponent_{"QTPIE: orbital exponents", &mem_},
      phi_{"QTPIE: external potential", &mem_},
      chi_eff_{"QTPIE: effective electronegativities", &mem_};
};

const CudaModels::Add<QtpieInput, CudaQtpie> kCudaQtpie;

}  // namespace
}  // namespace puremd::cuda
