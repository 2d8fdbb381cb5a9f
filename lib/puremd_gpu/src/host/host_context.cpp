#include "host/host_context.h"

namespace puremd::host {

void HostContext::refresh_view() {
  StepView &v = view;
  v.atoms.x = x.data();
  v.atoms.type = type.data();
  v.atoms.tag = tag.data();
  v.atoms.q = q.data();
  v.atoms.u = u.empty() ? nullptr : u.data();
  v.ff = ff->view();
  set_view_control(v, control);

  v.far = FarNeighborList{far.start.data(), far.end.data(), far.nbr.data()};
  v.bonds = BondList{bond_rows.start.data(), bond_rows.end.data(), bond_nbr.data(), bond_sym.data(),
                     bond_d.data(),          bond_dvec.data(),     bond_bo.data()};
  v.hbonds = HbondList{hb_rows.start.data(), hb_rows.end.data(), hb_nbr.data()};
  v.thb = ThreeBodyList{thb_rows.start.data(), thb_rows.end.data(), thb_k.data(),
                        thb_pthb.data(),       thb_theta.data(),    thb_cos.data()};

  Workspace &w = v.ws;
#define PUREMD_WORKSPACE_VIEW(T, name) w.name = name.data();
  PUREMD_WORKSPACE(PUREMD_WORKSPACE_VIEW)
#undef PUREMD_WORKSPACE_VIEW

  v.tally.energy = &energy;
  v.tally.grad = grad.data();
  v.tally.x = x.data();
  v.lr = lr_tables.empty() ? nullptr : lr_tables.data();
}

}  // namespace puremd::host
