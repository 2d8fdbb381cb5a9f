// Host stages: corrected bond orders, and the bond-order chain rule at the
// end of the step. Both loop over all atoms, owned and ghost.
#include <algorithm>

#include "host/host_context.h"
#include "puremd_gpu/physics/bond_order.h"

namespace puremd::host {

void compute_bond_orders(HostContext &c) {
  const StepView &v = c.view;
  const int n = v.atoms.n_total;
  for (int i = 0; i < n; ++i) bond_order_prime_atom(i, v);
  for (int i = 0; i < n; ++i) corrected_bond_order_atom(i, v);
}

void apply_bond_order_chain_rule(HostContext &c) {
  const StepView &v = c.view;
  const int n = v.atoms.n_total;
  std::fill(c.CdDeltap.begin(), c.CdDeltap.begin() + n, 0.0);  // callers may apply it twice
  for (int i = 0; i < n; ++i) bond_order_chain_rule_atom(i, v);
  for (int i = 0; i < n; ++i) deltap_chain_rule_atom(i, v);
}

}  // namespace puremd::host
