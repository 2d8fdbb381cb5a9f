#include "common/charges/ghost_owners.h"

#include <algorithm>
#include <numeric>

#include "puremd_gpu/physics/ghost_owner.h"

namespace puremd {

void owners_by_id(const TagArray &tag, int n_local, int n_total, std::vector<int> &owner) {
  std::vector<int> idx(n_local);
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) { return tag[a] < tag[b]; });
  std::vector<long long> sorted(n_local);
  for (int k = 0; k < n_local; ++k) sorted[k] = tag[idx[k]];
  owner.resize(n_total);
  for (int i = 0; i < n_total; ++i)
    owner[i] = i < n_local ? i : owner_by_id(sorted.data(), idx.data(), n_local, tag[i]);
}

}  // namespace puremd
