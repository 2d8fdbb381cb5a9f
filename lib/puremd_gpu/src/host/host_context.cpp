#include "host/host_context.h"

namespace puremd::host {

void HostContext::refresh_view() {
  StepView &v = view;
  v.atoms.x = x.data();
  v.atoms.type = type.data();
  v.atoms.tag = tag.data();
  v.atoms.q = q.data();
  v.ff = ff->view();
  v.control = control;

  v.far = FarNeighborList{far.start.data(), far.end.data(), far.nbr.data(), far.d.data(),
                          far.dvec.data()};
  v.bonds = BondList{bond_rows.start.data(), bond_rows.end.data(), bond_nbr.data(), bond_sym.data(),
                     bond_d.data(),          bond_dvec.data(),     bond_bo.data()};
  v.hbonds = HbondList{hb_rows.start.data(), hb_rows.end.data(), hb_nbr.data(), hb_d.data(),
                       hb_dvec.data()};
  v.thb = ThreeBodyList{thb_rows.start.data(), thb_rows.end.data(), thb_k.data(),
                        thb_pthb.data(),       thb_theta.data(),    thb_cos.data(),
                        thb_dcos_di.data(),    thb_dcos_dj.data(),  thb_dcos_dk.data()};

  Workspace &w = v.ws;
  w.total_bond_order = total_bond_order.data();
  w.Deltap = Deltap.data();
  w.Deltap_boc = Deltap_boc.data();
  w.Delta = Delta.data();
  w.Delta_lp = Delta_lp.data();
  w.Delta_lp_temp = Delta_lp_temp.data();
  w.Delta_e = Delta_e.data();
  w.Delta_boc = Delta_boc.data();
  w.Delta_val = Delta_val.data();
  w.dDelta_lp = dDelta_lp.data();
  w.dDelta_lp_temp = dDelta_lp_temp.data();
  w.nlp = nlp.data();
  w.nlp_temp = nlp_temp.data();
  w.Clp = Clp.data();
  w.vlpex = vlpex.data();
  w.dDeltap_self = dDeltap_self.data();
  w.CdDelta = CdDelta.data();

  v.tally.energy = &energy;
  v.tally.grad = grad.data();
  v.tally.x = x.data();
  v.lr = lr_tables.empty() ? nullptr : lr_tables.data();
}

}  // namespace puremd::host
