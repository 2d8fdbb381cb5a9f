// FSAI (kQEqFsai, physics/qeq_fsai.h) in the CUDA QEq solver. At the
// first solve and whenever the atoms were reordered: each owned row's lower
// partners within the pattern radius from the far list (a pair of owned
// atoms found in the row of the smaller index goes to the row of the larger
// id; a pair with a ghost only to the owned row, as on the host), then G's
// rows by fsai_row, one thread a row. The
// candidates' slots fill in a run-dependent order; fsai_select orders them,
// so G does not depend on it. G^T is stored beside G at each build, each of
// its rows in ascending order of G's rows, so that M^-1 r = G^T (G r) is two
// gathers, one thread a row: no atomics, the same sums in the same order
// at every run (G^T by atomics made FSAI's iterates run-dependent).
#include <cuda_runtime.h>

#include "common/charges/fsai_refresh.h"
#include "cuda/charges/cuda_preconditioner.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/physics/qeq_fsai.h"

namespace puremd::cuda {
namespace {

constexpr int kFsaiLanes = 8;  // lanes scanning one far row

// The column of atom j in G: itself when owned, its owner for an image of
// an owned atom, -1 for another rank's atom or an atom outside the group.
__device__ __forceinline__ int fsai_column(const QEqRowArgs &a, int j) {
  const int c = j < a.far.n_local ? j : (a.owner ? a.owner[j - a.far.n_local] : -1);
  return c >= 0 && (!a.active || a.active[c]) ? c : -1;
}

// Each (row, partner copy) of the rows' lower partners within the radius:
// count[row] counts them all, slot[row * kFsaiCandidates + k] holds the copy.
__global__ void k_fsai_candidates(QEqRowArgs a, double r2, int *count, int *slot) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int i = static_cast<int>(t / kFsaiLanes), lane = static_cast<int>(t % kFsaiLanes);
  const EngineAtoms &f = a.far;
  if (i >= f.n_local || (a.active && !a.active[i])) return;
  const vec3 xi = f.x[i];
  const long long tag_i = f.tag[i];
  auto add = [&](int row, int copy) {
    const int k = atomicAdd(&count[row], 1);
    if (k < kFsaiCandidates) slot[static_cast<long long>(row) * kFsaiCandidates + k] = copy;
  };
  for (ListPos p = f.start[i] + lane; p < f.end[i]; p += kFsaiLanes) {
    const int j = f.nbr[p];
    if (norm2_host_rounding(f.x[j] - xi) > r2 || fsai_column(a, j) < 0) continue;
    if (f.tag[j] < tag_i)
      add(i, j);
    else if (j < f.n_local)
      add(j, i);
  }
}

// *differ = 1 where the owned atoms' ids are not those of G's build.
__global__ void k_fsai_ids_differ(int nl, const long long *tag, const long long *built,
                                  int *differ) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nl && tag[i] != built[i]) *differ = 1;
}

// A thread's room in k_fsai_rows's shared memory: its candidates and
// H(J,J). In shared memory rather than in the thread's local arrays, whose
// size a GPU reserves for every thread it can hold (bench/README, issue 54).
struct FsaiRowScratch {
  FsaiCandidate c[kFsaiCandidates];
  double a[kFsaiPattern * kFsaiPattern];
  unsigned char order[kFsaiCandidates];
};
constexpr int kFsaiRowBlock = 32;  // threads a block: their scratch fits in shared memory

// G's rows (ELL, column-major: entry e of row i at e * n_local + i).
__global__ void __launch_bounds__(kFsaiRowBlock)
    k_fsai_rows(QEqRowArgs a, const double *eta, int n_rows, const int *rows, const int *count,
                const int *slot, int *g_count, int *g_col, double *g_val) {
  extern __shared__ unsigned char fsai_shared[];
  FsaiRowScratch &room = reinterpret_cast<FsaiRowScratch *>(fsai_shared)[threadIdx.x];
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const EngineAtoms &f = a.far;
  const int i = rows[k], nl = f.n_local;
  const vec3 xi = f.x[i];
  const int n = count[i];
  FsaiCandidate *c = room.c;
  int m = 0;
  if (n <= kFsaiCandidates) {
    for (int q = 0; q < n; ++q) {
      const int copy = slot[static_cast<long long>(i) * kFsaiCandidates + q];
      // (a candidate that came from another atom's far row is that atom,
      // owned; one from i's own row may be a ghost: its image near i)
      const vec3 d = f.x[copy] - xi;
      const int col = fsai_column(a, copy);
      c[q] =
          FsaiCandidate{f.tag[copy], col, a.type ? a.type[copy] : col, norm2_host_rounding(d), d};
    }
    m = fsai_select(c, n, room.order);
  }
  double g[kFsaiPattern];
  fsai_row(c, room.order, m, a.type ? a.type[i] : i, eta, a.gamma, a.taper, room.a, g);
  for (int e = 0; e < m; ++e) {
    g_col[static_cast<long long>(e) * nl + i] = c[room.order[e]].col;
    g_val[static_cast<long long>(e) * nl + i] = g[e];
  }
  g_col[static_cast<long long>(m) * nl + i] = i;
  g_val[static_cast<long long>(m) * nl + i] = g[m];
  g_count[i] = m + 1;
}

// y = G r at the rows (both systems).
__global__ void k_fsai_g(int n_rows, const int *rows, int nl, const int *g_count, const int *g_col,
                         const double *g_val, const double2 *r, double2 *y, const int *running) {
  if (running && *running == 0) return;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  double2 v = make_double2(0.0, 0.0);
  for (int e = 0; e < g_count[i]; ++e) {
    const long long at = static_cast<long long>(e) * nl + i;
    const double gv = g_val[at];
    const double2 rc = r[g_col[at]];
    v.x += gv * rc.x;
    v.y += gv * rc.y;
  }
  y[i] = v;
}

// G^T's rows (CSR over the owned atoms; every column of G is a row of the
// solve): first the entries each holds (gt_count, n_local + 1, zeroed).
__global__ void k_fsai_gt_count(int n_rows, const int *rows, int nl, const int *g_count,
                                const int *g_col, int *gt_count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  for (int e = 0; e < g_count[i]; ++e)
    atomicAdd(&gt_count[g_col[static_cast<long long>(e) * nl + i]], 1);
}

// Then the entries (G's row, value) where their rows start (gt_fill zeroed),
// in a run-dependent order...
__global__ void k_fsai_gt_fill(int n_rows, const int *rows, int nl, const int *g_count,
                               const int *g_col, const double *g_val, const int *gt_start,
                               int *gt_fill, int *gt_row, double *gt_val) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  for (int e = 0; e < g_count[i]; ++e) {
    const long long at = static_cast<long long>(e) * nl + i;
    const int c = g_col[at];
    const int pos = gt_start[c] + atomicAdd(&gt_fill[c], 1);
    gt_row[pos] = i;
    gt_val[pos] = g_val[at];
  }
}

// ...which each row then sorts by G's row (an atom appears once in a row of
// G: the order is total). Rows are short (about kFsaiPattern entries).
__global__ void k_fsai_gt_order(int n_rows, const int *rows, const int *gt_start, int *gt_row,
                                double *gt_val) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const int c = rows[k];
  for (int a = gt_start[c] + 1; a < gt_start[c + 1]; ++a) {
    const int r = gt_row[a];
    const double v = gt_val[a];
    int b = a - 1;
    for (; b >= gt_start[c] && gt_row[b] > r; --b) {
      gt_row[b + 1] = gt_row[b];
      gt_val[b + 1] = gt_val[b];
    }
    gt_row[b + 1] = r;
    gt_val[b + 1] = v;
  }
}

// p = G^T y at the rows (both systems), each row's sum in G's row order.
__global__ void k_fsai_gt(int n_rows, const int *rows, const int *gt_start, const int *gt_row,
                          const double *gt_val, const double2 *y, double2 *p, const int *running) {
  if (running && *running == 0) return;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_rows) return;
  const int c = rows[k];
  double2 v = make_double2(0.0, 0.0);
  for (int e = gt_start[c]; e < gt_start[c + 1]; ++e) {
    const double gv = gt_val[e];
    const double2 ye = y[gt_row[e]];
    v.x += gv * ye.x;
    v.y += gv * ye.y;
  }
  p[c] = v;
}

class CudaFsai final : public CudaPreconditioner {
 public:
  explicit CudaFsai(MemoryTracker &mem)
      : count_("QEq FSAI: candidates a row", &mem),
        slot_("QEq FSAI: candidates", &mem),
        g_count_("QEq FSAI: entries a row of G", &mem),
        g_col_("QEq FSAI: G's columns", &mem),
        g_val_("QEq FSAI: G's values", &mem),
        gt_count_("QEq FSAI: entries a row of G^T", &mem),
        gt_start_("QEq FSAI: G^T's row starts", &mem),
        gt_row_("QEq FSAI: G^T's columns", &mem),
        gt_val_("QEq FSAI: G^T's values", &mem),
        cub_tmp_("QEq FSAI: CUB temporary storage", &mem),
        y_("QEq FSAI: G r", &mem),
        built_ids_("QEq FSAI: the owned ids at G's build", &mem),
        differ_("QEq FSAI: ids differ", &mem) {}

  // Built again as common/charges/fsai_refresh.h says (the owned ids compared on the
  // GPU after LAMMPS re-neighboured), as host_fsai.cpp.
  void setup(const CudaPreconditionerInput &in) override {
    in_ = in;
    const QEqRowArgs &a = *in.row_args;
    nl_ = a.far.n_local;
    if (nl_ == 0 || in.n_rows == 0) return;
    const double r = in.settings->fsai_radius;
    if (built_.keep(nl_, in.n_rows, r, in.settings->xl,
                    !in.atoms_reordered || same_owned_ids(a, in.stream)))
      return;
    const size_t nl = static_cast<size_t>(nl_);
    built_ids_.reserve_discarding(nl, kGrowHeadroom);
    PMD_CUDA_CHECK(cudaMemcpyAsync(built_ids_.data(), a.far.tag, nl * sizeof(long long),
                                   cudaMemcpyDeviceToDevice, in.stream));
    built_ids_n_ = nl_;
    count_.reserve_discarding(nl, kGrowHeadroom);
    slot_.reserve_discarding(nl * kFsaiCandidates, kGrowHeadroom);
    g_count_.reserve_discarding(nl, kGrowHeadroom);
    g_col_.reserve_discarding(nl * kFsaiPattern, kGrowHeadroom);
    g_val_.reserve_discarding(nl * kFsaiPattern, kGrowHeadroom);
    y_.reserve_discarding(nl, kGrowHeadroom);
    PMD_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, nl * sizeof(int), in.stream));
    const long long threads = static_cast<long long>(nl_) * kFsaiLanes;
    k_fsai_candidates<<<blocks_for(threads, kQEqBlock), kQEqBlock, 0, in.stream>>>(
        a, r * r, count_.data(), slot_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_candidates", in.stream);
    const size_t shared = kFsaiRowBlock * sizeof(FsaiRowScratch);
    if (!shared_set_) {  // (over the 48 KB a block gets without asking)
      PMD_CUDA_CHECK(cudaFuncSetAttribute(k_fsai_rows, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(shared)));
      shared_set_ = true;
    }
    k_fsai_rows<<<blocks_for(in.n_rows, kFsaiRowBlock), kFsaiRowBlock, shared, in.stream>>>(
        a, in.eta, in.n_rows, in.rows, count_.data(), slot_.data(), g_count_.data(), g_col_.data(),
        g_val_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_rows", in.stream);
    build_transpose(in);
  }

  void apply(const double2 *r, double2 *p, const int *running) override {
    if (nl_ == 0 || in_.n_rows == 0) return;
    const unsigned b = blocks_for(in_.n_rows, kQEqBlock);
    k_fsai_g<<<b, kQEqBlock, 0, in_.stream>>>(in_.n_rows, in_.rows, nl_, g_count_.data(),
                                              g_col_.data(), g_val_.data(), r, y_.data(), running);
    PMD_CUDA_CHECK_LAUNCH("k_fsai_g", in_.stream);
    k_fsai_gt<<<b, kQEqBlock, 0, in_.stream>>>(in_.n_rows, in_.rows, gt_start_.data(),
                                               gt_row_.data(), gt_val_.data(), y_.data(), p,
                                               running);
    PMD_CUDA_CHECK_LAUNCH("k_fsai_gt", in_.stream);
  }

 private:
  // G^T from G, its rows ordered (at most n_local kFsaiPattern entries).
  void build_transpose(const CudaPreconditionerInput &in) {
    const size_t nl = static_cast<size_t>(nl_);
    gt_count_.reserve_discarding(nl + 1, kGrowHeadroom);
    gt_start_.reserve_discarding(nl + 1, kGrowHeadroom);
    gt_row_.reserve_discarding(nl * kFsaiPattern, kGrowHeadroom);
    gt_val_.reserve_discarding(nl * kFsaiPattern, kGrowHeadroom);
    PMD_CUDA_CHECK(cudaMemsetAsync(gt_count_.data(), 0, (nl + 1) * sizeof(int), in.stream));
    const unsigned b = blocks_for(in.n_rows, kQEqBlock);
    k_fsai_gt_count<<<b, kQEqBlock, 0, in.stream>>>(in.n_rows, in.rows, nl_, g_count_.data(),
                                                    g_col_.data(), gt_count_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_gt_count", in.stream);
    exclusive_sum(cub_tmp_, gt_count_.data(), gt_start_.data(), nl_ + 1, in.stream);
    // (the counts again, as each row's fill)
    PMD_CUDA_CHECK(cudaMemsetAsync(gt_count_.data(), 0, (nl + 1) * sizeof(int), in.stream));
    k_fsai_gt_fill<<<b, kQEqBlock, 0, in.stream>>>(
        in.n_rows, in.rows, nl_, g_count_.data(), g_col_.data(), g_val_.data(), gt_start_.data(),
        gt_count_.data(), gt_row_.data(), gt_val_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_gt_fill", in.stream);
    k_fsai_gt_order<<<b, kQEqBlock, 0, in.stream>>>(in.n_rows, in.rows, gt_start_.data(),
                                                    gt_row_.data(), gt_val_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_gt_order", in.stream);
  }

  // The owned atoms' ids are those of G's build (one readback: a
  // re-neighbouring's solve only).
  bool same_owned_ids(const QEqRowArgs &a, cudaStream_t stream) {
    if (built_ids_n_ != nl_) return false;
    differ_.reserve_discarding(1);
    PMD_CUDA_CHECK(cudaMemsetAsync(differ_.data(), 0, sizeof(int), stream));
    k_fsai_ids_differ<<<blocks_for(nl_, kQEqBlock), kQEqBlock, 0, stream>>>(
        nl_, a.far.tag, built_ids_.data(), differ_.data());
    PMD_CUDA_CHECK_LAUNCH("k_fsai_ids_differ", stream);
    int differ = 0;
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(&differ, differ_.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    return differ == 0;
  }

  CudaPreconditionerInput in_;
  int nl_ = 0;
  bool shared_set_ = false;
  DeviceArray<int> count_, slot_, g_count_, g_col_;
  DeviceArray<double> g_val_;
  DeviceArray<int> gt_count_, gt_start_, gt_row_;
  DeviceArray<double> gt_val_;
  DeviceArray<unsigned char> cub_tmp_;
  DeviceArray<double2> y_;
  FsaiBuild built_;  // what G was built for (fsai_refresh.h)
  DeviceArray<long long> built_ids_;
  int built_ids_n_ = -1;
  DeviceArray<int> differ_;
};

const CudaPreconditioners::Add<CudaFsai> kCudaFsai(kQEqFsai);

}  // namespace
}  // namespace puremd::cuda
