// FSAI (kQEqFsai, physics/qeq_fsai.h) in the host reference solver: each
// owned row's lower partners within the pattern radius from a half list of
// that radius, G's rows by fsai_row, M^-1 r = G^T (G r).
#include <vector>

#include "common/charges/fsai_refresh.h"
#include "common/charges/ghost_owners.h"
#include "common/charges/qeq_rows.h"
#include "host/charges/host_preconditioner.h"
#include "host/charges/host_qeq_solver.h"
#include "puremd_gpu/neighbor_list.h"
#include "puremd_gpu/physics/qeq_fsai.h"

namespace puremd::host {
namespace {

class HostFsai final : public HostPreconditioner {
 public:
  // Built again as common/charges/fsai_refresh.h says (the owned ids compared after
  // LAMMPS re-neighboured).
  void setup(const HostQEqSolver &s) override {
    const QEqInput &in = s.input();
    const std::vector<vec3> &x = s.positions();
    const int nl = in.n_local, n = in.n_total;
    const double radius = s.settings().fsai_radius;
    const int rows = static_cast<int>(s.rows().size());
    bool owned_same = !in.atoms_reordered || static_cast<int>(built_tags_.size()) == nl;
    for (int i = 0; in.atoms_reordered && owned_same && i < nl; ++i)
      owned_same = built_tags_[i] == in.tag[i];
    if (built_.keep(nl, rows, radius, s.settings().xl, owned_same)) return;
    built_tags_.resize(nl);
    for (int i = 0; i < nl; ++i) built_tags_[i] = in.tag[i];
    // each atom's column: owned atoms their own, an image of one its owner,
    // another rank's atom none (-1): the one rule (physics/ghost_owner.h)
    owners_by_id(in.tag, nl, n, col_of_);
    for (int i = 0; i < n; ++i)
      if (col_of_[i] >= 0 && !qeq_is_active(in, i)) col_of_[i] = -1;
    build_half_neighbor_list(x.data(), nl, n, radius, 0.0, nullptr, list_);
    const double r2 = radius * radius;

    // the lower partners of each owned row: a pair of owned atoms goes to the
    // row of the larger id; a pair with a ghost only to the owned row (the
    // ghost's owner sees this atom's image in its own row)
    cand_.assign(static_cast<std::size_t>(nl) * kFsaiCandidates, FsaiCandidate{});
    count_.assign(nl, 0);
    auto add = [&](int row, int other) {
      const vec3 d = x[other] - x[row];
      const double dd = norm2_host_rounding(d);
      if (dd > r2 || col_of_[other] < 0 || in.tag[other] >= in.tag[row]) return;
      const int k = count_[row]++;
      if (k < kFsaiCandidates)
        cand_[static_cast<std::size_t>(row) * kFsaiCandidates + k] = FsaiCandidate{
            in.tag[other], col_of_[other], in.type ? in.type[other] : col_of_[other], dd, d};
    };
    for (int i = 0; i < nl; ++i) {
      if (col_of_[i] < 0) continue;
      for (ListPos p = list_.start[i]; p < list_.end[i]; ++p) {
        const int j = list_.nbr[p];
        add(i, j);
        if (j < nl && col_of_[j] >= 0) add(j, i);
      }
    }

    start_.assign(nl + 1, 0);
    col_.clear();
    val_.clear();
    double g[kFsaiPattern], a[kFsaiPattern * kFsaiPattern];
    unsigned char order[kFsaiCandidates];
    for (int i = 0; i < nl; ++i) {
      start_[i] = static_cast<int>(col_.size());
      if (col_of_[i] < 0) continue;
      FsaiCandidate *c = &cand_[static_cast<std::size_t>(i) * kFsaiCandidates];
      const int m = count_[i] > kFsaiCandidates ? 0 : fsai_select(c, count_[i], order);
      fsai_row(c, order, m, qeq_param_index(in, i), in.eta, in.gamma, s.taper(), a, g);
      for (int a = 0; a < m; ++a) {
        col_.push_back(c[order[a]].col);
        val_.push_back(g[a]);
      }
      col_.push_back(i);
      val_.push_back(g[m]);
    }
    start_[nl] = static_cast<int>(col_.size());
    y_.assign(nl, 0.0);
  }

  void apply(const HostQEqSolver &s, const double *r, double *p) override {
    const int nl = static_cast<int>(y_.size());
    for (int i = 0; i < nl; ++i) {
      double v = 0.0;
      for (int e = start_[i]; e < start_[i + 1]; ++e) v += val_[e] * r[col_[e]];
      y_[i] = v;
    }
    for (int i : s.rows()) p[i] = 0.0;
    for (int i = 0; i < nl; ++i)
      for (int e = start_[i]; e < start_[i + 1]; ++e) p[col_[e]] += val_[e] * y_[i];
  }

  std::size_t memory_bytes() const override {
    return (col_of_.capacity() + count_.capacity() + start_.capacity() + col_.capacity()) *
               sizeof(int) +
           (val_.capacity() + y_.capacity()) * sizeof(double) +
           cand_.capacity() * sizeof(FsaiCandidate);
  }

 private:
  FsaiBuild built_;                    // what G was built for (fsai_refresh.h)
  std::vector<long long> built_tags_;  // the owned atoms' ids then
  HalfNeighborList list_;
  std::vector<int> col_of_, count_;
  std::vector<FsaiCandidate> cand_;
  std::vector<int> start_, col_;  // G's rows (owned atoms; empty outside the group)
  std::vector<double> val_, y_;
};

const HostPreconditioners::Add<HostFsai> kHostFsai(kQEqFsai);

}  // namespace
}  // namespace puremd::host
