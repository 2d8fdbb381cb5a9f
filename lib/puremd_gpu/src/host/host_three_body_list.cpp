// Host stage: the three-body list (count, prefix sum, fill over all atoms),
// which the valence angles and torsions of the bonded stages read.
#include "host/host_context.h"
#include "puremd_gpu/physics/valence_angle.h"

namespace puremd::host {

void build_three_body_list(HostContext &c) {
  const int n_total = c.view.atoms.n_total;
  const size_t n_entries = c.bond_nbr.size();  // bond entries, headroom included

  c.refresh_view();
  // 1. counts per bond entry; entries outside every atom's [start, end) stay 0
  std::vector<int> count(n_entries, 0);
  for (int j = 0; j < n_total; ++j) three_body_count_atom(j, c.view, count.data());

  // 2. rows laid out by an exclusive prefix sum over the bond entries
  c.thb_rows.start.assign(n_entries, 0);
  c.thb_rows.end.assign(n_entries, 0);
  size_t total = 0;
  for (size_t p = 0; p < n_entries; ++p) {
    c.thb_rows.start[p] = static_cast<int>(total);
    c.thb_rows.end[p] = static_cast<int>(total);
    total += static_cast<size_t>(count[p]);
  }
  ensure_size(c.thb_k, total);
  ensure_size(c.thb_pthb, total);
  ensure_size(c.thb_theta, total);
  ensure_size(c.thb_cos, total);
  c.refresh_view();

  // 3. fill; ghost centres too: the torsions of owned atoms read their rows
  for (int j = 0; j < n_total; ++j) three_body_fill_atom(j, c.view);
}

}  // namespace puremd::host
