// CudaContext: the StepView over the device arrays, the list-total
// read-back and the CUB prefix sum shared by the list builders.
#include "cuda/cub_calls.cuh"
#include "cuda/cuda_context.h"

namespace puremd::cuda {

StepView CudaContext::view() const {
  StepView v;
  v.atoms.n_local = n_local;
  v.atoms.n_total = n_total;
  v.atoms.x = x.data();
  v.atoms.type = type.data();
  v.atoms.tag = tag.data();
  v.atoms.q = q.data();
  v.atoms.u = have_u ? u.data() : nullptr;

  v.ff = ForceFieldView{num_types,      ff_gp.data(),  ff_sbp.data(), ff_tbp.data(),
                        ff_thbp.data(), ff_hbp.data(), ff_fbp.data(), vdw_type};
  set_view_control(v, control);

  const PairRows f = far_rows();
  v.far = FarNeighborList{f.start, f.end, f.nbr};
  v.bonds = BondList{bond_start.data(), bond_end.data(),  bond_nbr.data(), bond_sym.data(),
                     bond_d.data(),     bond_dvec.data(), bond_bo.data()};
  v.hbonds = HbondList{hb_start.data(), hb_end.data(), hb_nbr.data()};
  v.thb = ThreeBodyList{thb_start.data(), thb_end.data(),   thb_k.data(),
                        thb_pthb.data(),  thb_theta.data(), thb_cos.data()};

  // the workspace arrays one after the other in ws_block, ws_stride atoms each
  Workspace &w = v.ws;
  double *const b = ws_block.data();
  size_t offset = 0;
#define PUREMD_WORKSPACE_BLOCK(T, name)                     \
  w.name = b ? reinterpret_cast<T *>(b + offset) : nullptr; \
  offset += sizeof(T) / sizeof(double) * ws_stride;
  PUREMD_WORKSPACE(PUREMD_WORKSPACE_BLOCK)
#undef PUREMD_WORKSPACE_BLOCK

  v.tally.energy = reinterpret_cast<Energies *>(energy_slots.data());
  v.tally.grad = grad.data();
  v.tally.eatom = want_eatom ? eatom.data() : nullptr;
  v.tally.vatom = want_vatom ? vatom.data() : nullptr;
  v.tally.x = x.data();
  v.tally.terms = terms;
  v.lr = have_lr_tables ? lr_tables.data() : nullptr;
  return v;
}

CudaContext::PairRows CudaContext::far_rows() const {
  if (skin > 0 && skin_valid)
    return PairRows{skin_start.data(), skin_end.data(), skin_nbr.data(), skin_total};
  return PairRows{far_start.data(), far_end.data(), far_nbr.data(), far_total};
}

CudaContext::PairRows CudaContext::near_rows() const {
  if (skin > 0 && skin_valid)
    return PairRows{near_start.data(), near_end.data(), near_nbr.data(), near_total};
  return far_rows();  // (the list built at this step)
}

size_t checked_list_total(unsigned long long total, const char *what, int n_atoms, bool wide) {
  if (!wide && total > static_cast<unsigned long long>(INT32_MAX))
    throw RuntimeError(std::string("CUDA driver: ") + std::to_string(total) + " " + what +
                       " entries for " + std::to_string(n_atoms) +
                       " atoms exceed the 32-bit list index; use more GPUs / MPI ranks");
  return static_cast<size_t>(total);
}

template <class Pos>
void CudaContext::exclusive_scan(const int *in, Pos *out, size_t n) {
  if (n == 0) return;
  if (n > static_cast<size_t>(INT32_MAX))
    throw RuntimeError("CUDA driver: prefix sum over " + std::to_string(n) +
                       " rows exceeds the 32-bit index range");
  exclusive_sum(cub_temp, in, out, static_cast<int>(n), stream);
}
template void CudaContext::exclusive_scan(const int *, int *, size_t);
template void CudaContext::exclusive_scan(const int *, ListPos *, size_t);

}  // namespace puremd::cuda
