// CUDA QEq solver: the same problem as the host reference solver
// (src/host/qeq_host.cpp), same pairs, same ownership rule, same CG and
// iteration counting, with the matrix built and both systems solved on the GPU.
//
// Matrix. Rows are atoms (owned and ghosts), stored in full (both (i, j) and
// (j, i)), so the product is a pure gather:
//   - owned active row i: every active partner j within cut_hi that the host
//     solver keeps for i (owned j always, ghost j by ghost_pair_is_mine);
//   - ghost row g: every owned active partner a whose pair (a, g) is kept.
// y = H v then gives, on the ghost rows, exactly what the host solver scatters
// to ghosts (y[j] += H_ij v[i]) before its reverse comm; the ghost rows are
// folded into their owners the same way (device gather or QEqComm::reverse).
// With pair_style reaxff/gpu, the pairs come from the force engine's far list
// of the step (QEqInput::far, see k_list_rows): one warp per row, one pass.
// Without it, they are found by cell binning on the GPU (cells of cut_hi /
// kCellsPerCut, atoms sorted by cell with a radix sort), one warp per row;
// that CSR is built count -> CUB scan -> fill. Storage has capacity
// headroom and is regrown when needed.
//
// CG. s and t are solved together: one vector of double2 (s, t) per CG
// quantity, one SpMV for both right-hand sides (a group of kThreads lanes per
// row, shuffle reduction), fused vector updates with block partial sums
// finished on the GPU, then QEqComm::sum on the host for every scalar (as the
// host solver). A system that has converged is frozen; iteration counts are
// those of two separate CG runs.
//
// Ghost refresh per iteration:
//   - device path (every ghost's owner known: QEqInput::ghost_owner all >= 0,
//     or found by ghosts_are_images): matrix columns that
//     are ghosts are stored as their owner (the forward comm is a gather done
//     by the SpMV itself) and the ghost rows are added into their owners by a
//     deterministic gather over an owner -> images map (sorted by ghost index)
//     fused into the following reduction kernel. No host round trip; QEqComm
//     is called only for sums (the final q of ghosts is set on the device too);
//   - comm path (otherwise): the vector is downloaded, moved with
//     QEqComm::forward / reverse on the host and uploaded (forward: owned part
//     down, ghost part up; reverse: all down, owned part up).
//
// Input: the caller's arrays go up as they are (ids of 4 or 8 bytes, LAMMPS's
// mask with the group bit); ids are widened, the group flags and rows of H
// (cub::DeviceSelect) found, and the input checked on the GPU. With
// QEqInput::ghosts_are_images the ghost owners are found by id on the GPU,
// once per reordering of the atoms. Charges go straight into the caller's q.
//
// History: extrapolated and shifted on the GPU, where it stays between
// solves. The base class's host array is brought up to date (fetch_history)
// only when its API is used: LAMMPS sorting or exchanging atoms.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <memory>
#include <string>
#include <vector>

#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_matrix.h"
#include "puremd_gpu/qeq.h"

namespace puremd {
namespace {

// ---------------------------------------------------------------------------
// Error checking and RAII memory (own minimal versions, "qeq" names, so this
// file does not depend on the force engine's helpers).

[[noreturn]] void qeq_cuda_fail(cudaError_t err, const char *call, const char *file, int line) {
  const char *msg = cudaGetErrorString(err);
  cudaGetLastError();  // clear a non-sticky error so the caller can go on
  throw RuntimeError(std::string("QEq (CUDA): ") + call + " failed at " + file + ":" +
                     std::to_string(line) + ": " + msg);
}

#define QEQ_CUDA_CHECK(call)                                                         \
  do {                                                                               \
    const cudaError_t qeq_err_ = (call);                                             \
    if (qeq_err_ != cudaSuccess) qeq_cuda_fail(qeq_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: launch errors now, execution errors at the next
// sync; with REAXFF_GPU_DEBUG=1 (as the force engine) also sync right here, so
// that a fault is reported at the kernel that caused it.
bool qeq_debug_sync() {
  static const bool on = [] {
    const char *v = std::getenv("REAXFF_GPU_DEBUG");
    return v && v[0] != '\0' && v[0] != '0';
  }();
  return on;
}

void qeq_check_launch(const char *kernel, cudaStream_t stream, const char *file, int line) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && qeq_debug_sync()) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) qeq_cuda_fail(err, (std::string("kernel ") + kernel).c_str(), file, line);
}

#define QEQ_CUDA_LAUNCHED(kernel_name) qeq_check_launch(kernel_name, stream_, __FILE__, __LINE__)

// What the solver is working on, for out-of-memory messages.
struct QEqSizes {
  int n_local = 0, n_total = 0;
  long long nnz = 0;
};

std::string mib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

[[noreturn]] void qeq_cuda_oom(cudaError_t err, const char *what, std::size_t bytes,
                               const QEqSizes &sz, const char *file, int line) {
  cudaGetLastError();
  std::size_t free_b = 0, total_b = 0;
  std::string mem = "(unknown) free memory";
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
    mem = mib(free_b) + " free of " + mib(total_b);
  else
    cudaGetLastError();
  // Worded as the force engine's message (throw_out_of_memory in
  // device_buffer.h), so users and tests see one kind of out-of-memory report.
  std::string msg = std::string("QEq (CUDA): out of GPU memory allocating ") + mib(bytes) +
                    " for " + what + " (" + std::to_string(sz.n_local) + " owned atoms, " +
                    std::to_string(sz.n_total) + " with ghosts";
  if (sz.nnz > 0) msg += ", " + std::to_string(sz.nnz) + " matrix entries";
  msg += "; the GPU has " + mem + ") at " + file + ":" + std::to_string(line) + ": " +
         cudaGetErrorString(err) + ". Use more GPUs / MPI ranks so that each holds fewer atoms.";
  throw RuntimeError(msg);
}

// Device array; ensure() reallocates (contents are not kept) with headroom.
template <class T>
class QEqDeviceArray {
 public:
  QEqDeviceArray() = default;
  QEqDeviceArray(const QEqDeviceArray &) = delete;
  QEqDeviceArray &operator=(const QEqDeviceArray &) = delete;
  ~QEqDeviceArray() {
    if (p_) cudaFree(p_);
  }
  void ensure(std::size_t n, const char *what, const QEqSizes &sz, double headroom = 1.2) {
    if (n <= cap_ && p_) return;
    if (p_) cudaFree(p_);
    p_ = nullptr;
    cap_ = 0;
    std::size_t want = std::max<std::size_t>(static_cast<std::size_t>(n * headroom) + 64, 1);
    const cudaError_t err = cudaMalloc(reinterpret_cast<void **>(&p_), want * sizeof(T));
    if (err != cudaSuccess) {
      p_ = nullptr;
      // Anything else (a sticky fault from an earlier kernel, ...) is not a
      // question of size and must not be reported as one.
      if (err != cudaErrorMemoryAllocation) qeq_cuda_fail(err, "cudaMalloc", __FILE__, __LINE__);
      qeq_cuda_oom(err, what, want * sizeof(T), sz, __FILE__, __LINE__);
    }
    cap_ = want;
  }
  T *get() const { return p_; }
  std::size_t bytes() const { return cap_ * sizeof(T); }

 private:
  T *p_ = nullptr;
  std::size_t cap_ = 0;
};

// Pinned host array for transfers that happen every iteration.
template <class T>
class QEqPinnedArray {
 public:
  QEqPinnedArray() = default;
  QEqPinnedArray(const QEqPinnedArray &) = delete;
  QEqPinnedArray &operator=(const QEqPinnedArray &) = delete;
  ~QEqPinnedArray() {
    if (p_) cudaFreeHost(p_);
  }
  void ensure(std::size_t n) {
    if (n <= cap_ && p_) return;
    if (p_) cudaFreeHost(p_);
    p_ = nullptr;
    cap_ = 0;
    const std::size_t want = std::max<std::size_t>(static_cast<std::size_t>(n * 1.2) + 64, 1);
    QEQ_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&p_), want * sizeof(T)));
    cap_ = want;
  }
  T *get() const { return p_; }
  std::size_t bytes() const { return cap_ * sizeof(T); }

 private:
  T *p_ = nullptr;
  std::size_t cap_ = 0;
};

// ---------------------------------------------------------------------------
// Tunables

constexpr int kBlock = 256;             // threads per block of every kernel
constexpr int kMaxReduceBlocks = 1024;  // blocks of the row kernels with partial sums
constexpr int kCellsPerCut = 2;         // binning cells are >= cut_hi / kCellsPerCut wide
constexpr unsigned kFullMask = 0xffffffffu;

// Threads per matrix row in the SpMV, from the mean length of non-empty rows.
// PUREMD_QEQ_THREADS_PER_ROW (4, 8, 16 or 32) overrides the choice, for tuning.
int pick_threads_per_row(long long nnz, long long nonempty_rows, int forced) {
  if (forced) return forced;
  const double mean = nonempty_rows > 0 ? static_cast<double>(nnz) / nonempty_rows : 0.0;
  if (mean >= 96.0) return 32;
  if (mean >= 32.0) return 16;
  if (mean >= 12.0) return 8;
  return 4;
}

// ---------------------------------------------------------------------------
// Device helpers

// Block sum of NC values per thread into partial[c * gridDim.x + blockIdx.x].
template <int NC>
__device__ __forceinline__ void qeq_block_partials(const double (&v)[NC], double *partial) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < NC; ++c) {
    const double s = Reduce(tmp).Sum(v[c]);
    if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = s;
    __syncthreads();
  }
}

// out[c] = sum over b of partial[c * nblocks + b] (one block, fixed order).
__global__ void k_finish_sums(const double *partial, int nblocks, int nc, double *out) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < nc; ++c) {
    double s = 0.0;
    for (int b = threadIdx.x; b < nblocks; b += kBlock) s += partial[c * nblocks + b];
    s = Reduce(tmp).Sum(s);
    if (threadIdx.x == 0) out[c] = s;
    __syncthreads();
  }
}

// Bounding box of the positions: partial[c * G + b], c = 0..2 min, 3..5 max.
__global__ void k_bbox_partial(const double *x, int n, double *partial) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock)
    for (int k = 0; k < 3; ++k) {
      const double v = x[3 * i + k];
      lo[k] = fmin(lo[k], v);
      hi[k] = fmax(hi[k], v);
    }
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < 6; ++c) {
    const double v = c < 3 ? lo[c] : hi[c - 3];
    const double r = c < 3 ? Reduce(tmp).Reduce(v, [](double a, double b) { return fmin(a, b); })
                           : Reduce(tmp).Reduce(v, [](double a, double b) { return fmax(a, b); });
    if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = r;
    __syncthreads();
  }
}

__global__ void k_bbox_finish(const double *partial, int nblocks, double *out) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < 6; ++c) {
    double v = c < 3 ? INFINITY : -INFINITY;
    for (int b = threadIdx.x; b < nblocks; b += kBlock)
      v = c < 3 ? fmin(v, partial[c * nblocks + b]) : fmax(v, partial[c * nblocks + b]);
    const double r = c < 3 ? Reduce(tmp).Reduce(v, [](double a, double b) { return fmin(a, b); })
                           : Reduce(tmp).Reduce(v, [](double a, double b) { return fmax(a, b); });
    if (threadIdx.x == 0) out[c] = r;
    __syncthreads();
  }
}

struct CellGrid {
  int nx = 1, ny = 1, nz = 1;
  double lo[3] = {0, 0, 0};
  double scale[3] = {0, 0, 0};  // cells per unit length
  __host__ __device__ int ncells() const { return nx * ny * nz; }
};

__device__ __forceinline__ int qeq_cell_coord(double p, double lo, double scale, int n) {
  const double f = (p - lo) * scale;
  if (!(f >= 0.0)) return 0;  // also NaN
  return f >= static_cast<double>(n - 1) ? n - 1 : static_cast<int>(f);
}

// One binned atom, in cell order: position, index and type (0 without types).
struct alignas(16) CellAtom {
  double x, y, z;
  int j, type;
};

// Cell key per atom (inactive atoms get key ncells: sorted past every cell).
__global__ void k_cell_keys(const double *x, const int *active, int n, CellGrid g, int *key,
                            int *idx) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= n) return;
  int k = g.ncells();
  if (!active || active[i]) {
    const int cx = qeq_cell_coord(x[3 * i], g.lo[0], g.scale[0], g.nx);
    const int cy = qeq_cell_coord(x[3 * i + 1], g.lo[1], g.scale[1], g.ny);
    const int cz = qeq_cell_coord(x[3 * i + 2], g.lo[2], g.scale[2], g.nz);
    k = (cz * g.ny + cy) * g.nx + cx;
  }
  key[i] = k;
  idx[i] = i;
}

// Segment bounds of sorted keys: [start[k], end[k]) holds key k (k < nseg);
// start and end must be zero on entry.
__global__ void k_segment_bounds(const int *key, int n, int nseg, int *start, int *end) {
  const int p = blockIdx.x * kBlock + threadIdx.x;
  if (p >= n) return;
  const int k = key[p];
  if (k < 0 || k >= nseg) return;
  if (p == 0 || key[p - 1] != k) start[k] = p;
  if (p == n - 1 || key[p + 1] != k) end[k] = p + 1;
}

__global__ void k_gather_cell_atoms(const int *idx_sorted, int n, const double *x, const int *type,
                                    CellAtom *out) {
  const int p = blockIdx.x * kBlock + threadIdx.x;
  if (p >= n) return;
  const int j = idx_sorted[p];
  out[p] = CellAtom{x[3 * j], x[3 * j + 1], x[3 * j + 2], j, type ? type[j] : 0};
}

struct BuildArgs {
  int n_local, n_total;
  const double *x;
  const long long *tag;
  const int *active;  // null: all active
  const int *type;    // null: per-atom parameters
  int num_types;
  const double *shield;  // num_types^2 table (type mode)
  const double *gamma;   // per atom (no types)
  const int *owner;      // per ghost, device path only (null: keep ghost columns)
  const CellAtom *cell_atoms;
  const int *cell_start, *cell_end;
  CellGrid grid;
  double cut2;
  Taper taper;
  long long *row_count;        // count pass
  int *nonempty_rows;          // count pass
  int *bad_type;               // count pass: [0] flag, [1] type
  const long long *row_start;  // fill pass
  int *col;                    // fill pass
  double *val;                 // fill pass
};

// One warp per matrix row: count (kFill false) or write (kFill true) the row's
// entries. Partners are visited in cell order, within a cell by atom index
// (owned atoms first), so both passes see them in the same order.
template <bool kFill>
__global__ void __launch_bounds__(kBlock) k_build_rows(BuildArgs a) {
  const long long warp = (static_cast<long long>(blockIdx.x) * kBlock + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= a.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  if (a.active && !a.active[i]) {
    if (!kFill && lane == 0) a.row_count[i] = 0;
    return;
  }
  const bool ghost_row = i >= a.n_local;
  const double xi = a.x[3 * i], yi = a.x[3 * i + 1], zi = a.x[3 * i + 2];
  const long long tag_i = a.tag[i];
  const int type_i = a.type ? a.type[i] : 0;
  const CellGrid &g = a.grid;
  const int cx = qeq_cell_coord(xi, g.lo[0], g.scale[0], g.nx);
  const int cy = qeq_cell_coord(yi, g.lo[1], g.scale[1], g.ny);
  const int cz = qeq_cell_coord(zi, g.lo[2], g.scale[2], g.nz);
  const long long base = kFill ? a.row_start[i] : 0;
  const unsigned lanes_below = (1u << lane) - 1u;
  int count = 0;

  for (int z = max(cz - kCellsPerCut, 0); z <= min(cz + kCellsPerCut, g.nz - 1); ++z)
    for (int y = max(cy - kCellsPerCut, 0); y <= min(cy + kCellsPerCut, g.ny - 1); ++y)
      for (int xx = max(cx - kCellsPerCut, 0); xx <= min(cx + kCellsPerCut, g.nx - 1); ++xx) {
        const int c = (z * g.ny + y) * g.nx + xx;
        const int cs = a.cell_start[c], ce = a.cell_end[c];
        for (int p0 = cs; p0 < ce; p0 += 32) {
          const int p = p0 + lane;
          bool take = false, past_owned = false;
          CellAtom b{0, 0, 0, -1, 0};
          double dx = 0, dy = 0, dz = 0, d2 = 0;
          if (p < ce) {
            b = a.cell_atoms[p];
            if (ghost_row && b.j >= a.n_local) {
              past_owned = true;  // a ghost row only pairs with owned atoms
            } else if (b.j != i) {
              dx = b.x - xi;
              dy = b.y - yi;
              dz = b.z - zi;
              d2 = norm2_host_rounding(make_vec3(dx, dy, dz));
              if (d2 <= a.cut2) {
                if (ghost_row)  // pair (owned b.j, ghost i): d = x_i - x_b
                  take = ghost_pair_is_mine(a.tag[b.j], tag_i, make_vec3(-dx, -dy, -dz));
                else if (b.j < a.n_local)
                  take = true;
                else  // pair (owned i, ghost b.j): d = x_b - x_i
                  take = ghost_pair_is_mine(tag_i, a.tag[b.j], make_vec3(dx, dy, dz));
              }
            }
          }
          const unsigned mask = __ballot_sync(kFullMask, take);
          if (take) {
            if (!kFill) {
              if (a.type) {  // owned types were checked on the host
                const int t = ghost_row ? type_i : b.type;
                if ((ghost_row || b.j >= a.n_local) && (t < 0 || t >= a.num_types)) {
                  if (atomicCAS(a.bad_type, 0, 1) == 0) a.bad_type[1] = t;
                }
              }
            } else {
              double shield;
              if (a.type) {
                // (owned, other) order as the host solver indexes its table
                shield = ghost_row ? a.shield[b.type * a.num_types + type_i]
                                   : a.shield[type_i * a.num_types + b.type];
              } else {
                shield = ghost_row ? qeq_shielding(a.gamma[b.j], a.gamma[i])
                                   : qeq_shielding(a.gamma[i], a.gamma[b.j]);
              }
              const long long pos = base + count + __popc(mask & lanes_below);
              int col = b.j;
              if (a.owner && col >= a.n_local) col = a.owner[col - a.n_local];
              a.col[pos] = col;
              a.val[pos] = qeq_offdiag(sqrt(d2), shield, a.taper);
            }
          }
          count += __popc(mask);
          if (__any_sync(kFullMask, past_owned)) break;
        }
      }
  if (!kFill && lane == 0) {
    a.row_count[i] = count;
    if (count > 0) atomicAdd(a.nonempty_rows, 1);
  }
}

// --- Rows from the force engine's far list (QEqInput::far) ---
// Every matrix pair has an owned atom, its lower index k, so it is in the
// far list's row k (pairs within cut_local at this step's positions). Row i
// of the matrix takes
//   1. its partners k < i: the owned rows that hold i, from the reverse
//      index (built with the list behind the far list, so within cut_local +
//      skin: the distance is checked here, at the current positions, with
//      the same rounding as the far list's own filter), ascending k;
//   2. for an owned row, its far row: partners j > i, in the far list's order.
// One warp per row writes straight into room reserved by the two lists
// (row i at far.start[i] + far.rev_start[i]): no count pass, no sort, and the
// same order on every run.
struct ListArgs {
  int n_local, n_total;
  DeviceFarList far;
  const long long *tag;
  const int *active;  // null: all active
  const int *type;    // null: per-atom parameters
  int num_types;
  const double *shield, *gamma;
  const int *owner;  // per ghost, device path only (null: keep ghost columns)
  double cut2;
  Taper taper;
  long long *row_start, *row_end, *row_count;
  int *col;
  double *val;
  unsigned long long *nnz;
  int *nonempty_rows;
  int *bad_type;  // [0] flag, [1] type
};

// Shielding of the pair (row, column) in the cell-search rows' order (owned
// atom first for a ghost row); a type without parameters is flagged and
// gives 0 (the solve is abandoned).
__device__ __forceinline__ double qeq_list_shield(const ListArgs &a, int row, int column) {
  if (!a.type) return qeq_shielding(a.gamma[row], a.gamma[column]);
  const int tr = a.type[row], tc = a.type[column];
  if (tr < 0 || tr >= a.num_types || tc < 0 || tc >= a.num_types) {
    if (atomicCAS(a.bad_type, 0, 1) == 0) a.bad_type[1] = (tr < 0 || tr >= a.num_types) ? tr : tc;
    return 0.0;
  }
  return a.shield[tr * a.num_types + tc];
}

__global__ void __launch_bounds__(kBlock) k_list_rows(ListArgs a) {
  const long long warp = (static_cast<long long>(blockIdx.x) * kBlock + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= a.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  const DeviceFarList &f = a.far;
  const long long base = static_cast<long long>(f.start[i]) + f.rev_start[i];
  const unsigned lanes_below = (1u << lane) - 1u;
  int count = 0;
  // Appends the kept entries p of [begin, end) in order; keep(p, col, d2, row,
  // column) says whether p is kept, its column, its squared distance and the
  // (row, column) atoms of its shielding.
  auto append = [&](int begin, int end, auto &&keep) {
    for (int p0 = begin; p0 < end; p0 += 32) {
      const int p = p0 + lane;
      int col = -1, row = 0, column = 0;
      double d2 = 0.0;
      const bool take = p < end && keep(p, col, d2, row, column);
      const unsigned mask = __ballot_sync(kFullMask, take);
      if (take) {
        const long long pos = base + count + __popc(mask & lanes_below);
        a.col[pos] = col;
        a.val[pos] = qeq_offdiag(sqrt(d2), qeq_list_shield(a, row, column), a.taper);
      }
      count += __popc(mask);
    }
  };
  if (!a.active || a.active[i]) {
    const bool ghost_row = i >= a.n_local;
    const vec3 xi = f.x[i];
    const long long tag_i = a.tag[i];
    append(f.rev_start[i], f.rev_start[i + 1],
           [&](int q, int &col, double &d2, int &row, int &column) {
             const int k = f.rev_row[q];  // owned, k < i
             if (a.active && !a.active[k]) return false;
             const vec3 d = xi - f.x[k];  // x_i - x_k, as in far row k
             d2 = norm2_host_rounding(d);
             if (!(d2 <= a.cut2) || (ghost_row && !ghost_pair_is_mine(a.tag[k], tag_i, d)))
               return false;
             col = k;
             row = ghost_row ? k : i;  // a ghost row takes its owned partner first
             column = ghost_row ? i : k;
             return true;
           });
    if (!ghost_row)
      append(f.start[i], f.end[i], [&](int p, int &col, double &d2, int &row, int &column) {
        const int j = f.nbr[p];
        if (a.active && !a.active[j]) return false;
        const vec3 d = f.dvec[p];
        d2 = norm2_host_rounding(d);
        if (!(d2 <= a.cut2) || (j >= a.n_local && !ghost_pair_is_mine(tag_i, a.tag[j], d)))
          return false;
        col = a.owner && j >= a.n_local ? a.owner[j - a.n_local] : j;
        row = i;
        column = j;
        return true;
      });
  }
  if (lane == 0) {
    a.row_start[i] = base;
    a.row_end[i] = base + count;
    a.row_count[i] = count;
    if (count > 0) {
      atomicAdd(a.nonempty_rows, 1);
      atomicAdd(a.nnz, static_cast<unsigned long long>(count));
    }
  }
}

// Owner -> images map key per ghost: the owner if the ghost row has entries,
// else n_local (sorted past every owner).
__global__ void k_image_keys(const int *owner, const long long *row_count, int n_local, int n_ghost,
                             int *key, int *idx) {
  const int k = blockIdx.x * kBlock + threadIdx.x;
  if (k >= n_ghost) return;
  key[k] = row_count[n_local + k] > 0 ? owner[k] : n_local;
  idx[k] = n_local + k;
}

// y = H v for both systems; a group of TPR lanes per row.
template <int TPR>
__global__ void __launch_bounds__(kBlock)
    k_spmv(int n_rows, int n_local, const long long *__restrict__ row_start,
           const long long *__restrict__ row_end, const int *__restrict__ col,
           const double *__restrict__ val, const double *__restrict__ diag,
           const double2 *__restrict__ v, double2 *__restrict__ y) {
  const long long t = static_cast<long long>(blockIdx.x) * kBlock + threadIdx.x;
  const long long row = t / TPR;
  const int lane = threadIdx.x % TPR;
  double ys = 0.0, yt = 0.0;
  if (row < n_rows) {
    const long long end = row_end[row];
    for (long long p = row_start[row] + lane; p < end; p += TPR) {
      const double h = val[p];
      const double2 vj = v[col[p]];
      ys += h * vj.x;
      yt += h * vj.y;
    }
  }
#pragma unroll
  for (int off = TPR / 2; off > 0; off >>= 1) {
    ys += __shfl_xor_sync(kFullMask, ys, off, TPR);
    yt += __shfl_xor_sync(kFullMask, yt, off, TPR);
  }
  if (row < n_rows && lane == 0) {
    if (row < n_local) {
      const double dg = diag[row];
      const double2 vi = v[row];
      ys += dg * vi.x;
      yt += dg * vi.y;
    }
    y[row] = make_double2(ys, yt);
  }
}

// Owner -> images map for folding ghost rows into owners on the device.
struct ImageMap {
  const int *start = nullptr, *end = nullptr, *idx = nullptr;  // null: no device fold
};

// w[i] plus what its images' rows got (device reverse comm), stored back.
__device__ __forceinline__ double2 qeq_fold(int i, double2 *w, const ImageMap &m) {
  double2 wi = w[i];
  if (m.start) {
    const int e = m.end[i];
    for (int p = m.start[i]; p < e; ++p) {
      const double2 wg = w[m.idx[p]];
      wi.x += wg.x;
      wi.y += wg.y;
    }
    w[i] = wi;
  }
  return wi;
}

struct ParamArgs {
  const int *type;  // null: per-atom parameters
  const double *chi, *eta, *chi_shift;
};

// Right-hand sides, Jacobi diagonal and the extrapolated initial guesses.
__global__ void k_init(int n_rows, const int *rows, ParamArgs pa, const double *hist, double2 *b,
                       double2 *x, double *diag, double *diag_inv) {
  const int k = blockIdx.x * kBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const int p = pa.type ? pa.type[i] : i;
  double bs = -pa.chi[p];
  if (pa.chi_shift) bs -= pa.chi_shift[i];
  b[i] = make_double2(bs, -1.0);
  diag[i] = pa.eta[p];
  diag_inv[i] = 1.0 / pa.eta[p];
  const double *hs = hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom;
  const double *ht = hs + QEqSolver::kHistoryDepth;
  // cubic extrapolation of s, quadratic of t, rounded as the host does
  const double s0 =
      __dsub_rn(__dmul_rn(4.0, __dadd_rn(hs[0], hs[2])), __dadd_rn(__dmul_rn(6.0, hs[1]), hs[3]));
  const double t0 = __dadd_rn(ht[2], __dmul_rn(3.0, __dsub_rn(ht[0], ht[1])));
  x[i] = make_double2(s0, t0);
}

// r = b - H x, d = M^-1 r; partial sums of b.b and r.d for s and t.
__global__ void k_residual(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *b,
                           const double *diag_inv, double2 *r, double2 *d, double *partial) {
  double v[4] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kBlock + threadIdx.x; k < n_rows; k += gridDim.x * kBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 bi = b[i];
    const double2 ri = make_double2(bi.x - wi.x, bi.y - wi.y);
    const double di = diag_inv[i];
    const double2 zi = make_double2(ri.x * di, ri.y * di);
    r[i] = ri;
    d[i] = zi;
    v[0] += bi.x * bi.x;
    v[1] += bi.y * bi.y;
    v[2] += ri.x * zi.x;
    v[3] += ri.y * zi.y;
  }
  qeq_block_partials<4>(v, partial);
}

// Partial sums of d.w (w folded first).
__global__ void k_dot_dw(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *d,
                         double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kBlock + threadIdx.x; k < n_rows; k += gridDim.x * kBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 di = d[i];
    v[0] += di.x * wi.x;
    v[1] += di.y * wi.y;
  }
  qeq_block_partials<2>(v, partial);
}

// x += alpha d, r -= alpha w, p = M^-1 r for the systems still running
// (bit 0: s, bit 1: t); partial sums of r.p.
__global__ void k_update(int n_rows, const int *rows, int running, double alpha_s, double alpha_t,
                         const double2 *d, const double2 *w, const double *diag_inv, double2 *x,
                         double2 *r, double2 *p, double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kBlock + threadIdx.x; k < n_rows; k += gridDim.x * kBlock) {
    const int i = rows[k];
    const double2 di = d[i], wi = w[i];
    double2 xi = x[i], ri = r[i], pi = p[i];
    const double m = diag_inv[i];
    if (running & 1) {
      xi.x += alpha_s * di.x;
      ri.x -= alpha_s * wi.x;
      pi.x = ri.x * m;
      v[0] += ri.x * pi.x;
    }
    if (running & 2) {
      xi.y += alpha_t * di.y;
      ri.y -= alpha_t * wi.y;
      pi.y = ri.y * m;
      v[1] += ri.y * pi.y;
    }
    x[i] = xi;
    r[i] = ri;
    p[i] = pi;
  }
  qeq_block_partials<2>(v, partial);
}

// d = p + beta d for the systems still running.
__global__ void k_direction(int n_rows, const int *rows, int running, double beta_s, double beta_t,
                            const double2 *p, double2 *d) {
  const int k = blockIdx.x * kBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 pi = p[i];
  double2 di = d[i];
  if (running & 1) di.x = pi.x + beta_s * di.x;
  if (running & 2) di.y = pi.y + beta_t * di.y;
  d[i] = di;
}

__global__ void k_sum_solution(int n_rows, const int *rows, const double2 *x, double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kBlock + threadIdx.x; k < n_rows; k += gridDim.x * kBlock) {
    const double2 xi = x[rows[k]];
    v[0] += xi.x;
    v[1] += xi.y;
  }
  qeq_block_partials<2>(v, partial);
}

// q = s - mu t; shift the history and store the new s and t.
__global__ void k_charges(int n_rows, const int *rows, double mu, const double2 *x, double *q,
                          double *hist) {
  const int k = blockIdx.x * kBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 xi = x[i];
  q[i] = __dsub_rn(xi.x, __dmul_rn(mu, xi.y));
  double *hs = hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom;
  double *ht = hs + QEqSolver::kHistoryDepth;
  for (int m = QEqSolver::kHistoryDepth - 1; m > 0; --m) {
    hs[m] = hs[m - 1];
    ht[m] = ht[m - 1];
  }
  hs[0] = xi.x;
  ht[0] = xi.y;
}

// --- Per-solve preparation of the caller's arrays (no host loop over atoms) ---

// Slots of the int array `checks`, read back with the matrix size.
enum CheckSlot : int {
  kCheckRows = 0,  // rows selected (cub::DeviceSelect's count)
  kCheckBadRow,    // lowest owned atom of the group that qeq_row_parameters_ok rejects
  kCheckBadOwner,  // lowest ghost whose given owner is neither owned nor -1
  kCheckNoOwner,   // ghosts whose owner is not known (-1)
  kNumChecks
};
constexpr int kNoAtom = 0x7f7f7f7f;  // what a byte-wise memset of 0x7f writes: "none"

struct PrepArgs {
  int n_local, n_total;
  const void *tag_in;  // the caller's ids, 4 or 8 bytes each
  bool wide;
  long long *tag;
  const int *active_in;  // the caller's flags (null: all in the group)
  int active_bits;
  int *active;      // 0/1, for the kernels (null: every atom takes part)
  const int *type;  // null: per-atom parameters
  int num_types;
  const int *type_map;  // null: every type takes part
  int num_mapped;
  const double *eta;
  int *row_flag, *iota;  // n_local: owned atom is a row of H; its index
  int *checks;
};

// 64-bit ids, 0/1 flags of the atoms that take part, and which owned atoms
// are rows of H (each checked as the host solver checks them).
__global__ void k_prepare_atoms(PrepArgs a) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= a.n_total) return;
  a.tag[i] = id_at(a.tag_in, a.wide, i);
  const bool in_group =
      qeq_takes_part(a.active_in, a.active_bits, a.type, a.type_map, a.num_mapped, i);
  if (a.active) a.active[i] = in_group ? 1 : 0;
  if (i >= a.n_local) return;
  a.iota[i] = i;
  bool row = in_group;
  if (row && !qeq_row_parameters_ok(a.type, a.num_types, a.eta, i)) {
    atomicMin(a.checks + kCheckBadRow, i);
    row = false;
  }
  a.row_flag[i] = row ? 1 : 0;
}

// Each ghost's owner: the owned atom with its id (ids of the owned atoms
// sorted, with their indices), or -1, counted.
__global__ void k_find_owners(const long long *sorted_tag, const int *sorted_idx, int n_local,
                              const long long *tag, int n_ghost, int *owner, int *checks) {
  const int g = blockIdx.x * kBlock + threadIdx.x;
  if (g >= n_ghost) return;
  const long long want = tag[n_local + g];
  int lo = 0, hi = n_local;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted_tag[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  const int o = (lo < n_local && sorted_tag[lo] == want) ? sorted_idx[lo] : -1;
  owner[g] = o;
  if (o < 0) atomicAdd(checks + kCheckNoOwner, 1);
}

// Owners given by the caller: each one owned or -1.
__global__ void k_check_owners(const int *owner, int n_local, int n_ghost, int *checks) {
  const int g = blockIdx.x * kBlock + threadIdx.x;
  if (g >= n_ghost) return;
  const int o = owner[g];
  if (o < -1 || o >= n_local) atomicMin(checks + kCheckBadOwner, g);
  if (o == -1) atomicAdd(checks + kCheckNoOwner, 1);
}

// Ghost charges from their owners (device ghost refresh).
__global__ void k_ghost_charges(const int *owner, int n_local, int n_ghost, double *q) {
  const int g = blockIdx.x * kBlock + threadIdx.x;
  if (g < n_ghost) q[n_local + g] = q[owner[g]];
}

unsigned blocks_for(long long n) {
  return static_cast<unsigned>(std::max<long long>(1, (n + kBlock - 1) / kBlock));
}

int bits_for(int max_value) {
  int b = 1;
  while (b < 31 && (1ll << b) <= max_value) ++b;
  return b;
}

// ---------------------------------------------------------------------------

class CudaQEqSolver final : public QEqSolver {
 public:
  explicit CudaQEqSolver(const QEqSettings &settings) : QEqSolver(settings) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      cudaGetLastError();
      throw RuntimeError(std::string("QEq (CUDA): no usable GPU: cudaGetDeviceCount: ") +
                         cudaGetErrorString(err));
    }
    if (count == 0) throw RuntimeError("QEq (CUDA): no usable GPU: no CUDA device found");
    if (const char *env = std::getenv("PUREMD_QEQ_THREADS_PER_ROW")) {
      const int v = std::atoi(env);
      if (v == 4 || v == 8 || v == 16 || v == 32) forced_tpr_ = v;
    }
    sums_dev_.ensure(8, "reduction results", sz_, 1.0);
    partial_.ensure(static_cast<std::size_t>(6) * kMaxReduceBlocks, "reduction partials", sz_, 1.0);
    sums_host_.ensure(8);
    grid_host_.ensure(8);
    checks_host_.ensure(kNumChecks);
    // last: nothing after it can throw, so the destructor always runs for it
    QEQ_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }

  ~CudaQEqSolver() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  QEqResult solve(const QEqInput &in, QEqComm &comm, double *q) override {
    setup(in);
    build_matrix(in);

    const int n = in.n_total, nl = in.n_local, nr = n_rows_;
    double2 *x = x_.get(), *b = b_.get(), *r = r_.get(), *d = d_.get(), *p = p_.get(),
            *w = w_.get();
    const ImageMap im =
        device_comm_ ? ImageMap{img_start_.get(), img_end_.get(), img_idx_.get()} : ImageMap{};
    // Entries off the rows stay zero (inactive atoms, and ghosts of the device path).
    if (n > 0) {
      QEQ_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(double2), stream_));
      QEQ_CUDA_CHECK(cudaMemsetAsync(d, 0, n * sizeof(double2), stream_));
    }
    if (nl > 0) QEQ_CUDA_CHECK(cudaMemsetAsync(diag_.get(), 0, nl * sizeof(double), stream_));
    if (nr > 0) {
      k_init<<<blocks_for(nr), kBlock, 0, stream_>>>(nr, rows_dev_.get(), params_, hist_dev_.get(),
                                                     b, x, diag_.get(), diag_inv_.get());
      QEQ_CUDA_LAUNCHED("k_init");
    }

    // r = b - H x, d = M^-1 r (both systems).
    if (!device_comm_) forward_host(x, 3, comm);
    multiply(x, w);
    if (!device_comm_) reverse_host(w, 3, comm);
    double s4[4] = {0, 0, 0, 0};
    if (nr > 0) {
      const unsigned g = reduce_blocks();
      k_residual<<<g, kBlock, 0, stream_>>>(nr, rows_dev_.get(), im, w, b, diag_inv_.get(), r, d,
                                            partial_.get());
      QEQ_CUDA_LAUNCHED("k_residual");
      finish_sums(g, 4, s4);
    }
    const double bb_s = comm.sum(s4[0]), bb_t = comm.sum(s4[1]);
    double rho_s = comm.sum(s4[2]), rho_t = comm.sum(s4[3]);
    const double b_norm_s = std::sqrt(bb_s), b_norm_t = std::sqrt(bb_t);
    const double tol = settings_.tolerance;
    const int max_iter = settings_.max_iter;

    // Both CG runs in lock step; each stops on its own test, as the host's.
    QEqResult res;
    int it_s = 1, it_t = 1;
    for (;;) {
      const bool run_s = it_s < max_iter && std::sqrt(rho_s) / b_norm_s > tol;
      const bool run_t = it_t < max_iter && std::sqrt(rho_t) / b_norm_t > tol;
      if (!run_s && !run_t) break;
      const int running = (run_s ? 1 : 0) | (run_t ? 2 : 0);

      if (!device_comm_) forward_host(d, running, comm);
      multiply(d, w);
      if (!device_comm_) reverse_host(w, running, comm);
      double dw[2] = {0, 0};
      unsigned g = reduce_blocks();
      if (nr > 0) {
        k_dot_dw<<<g, kBlock, 0, stream_>>>(nr, rows_dev_.get(), im, w, d, partial_.get());
        QEQ_CUDA_LAUNCHED("k_dot_dw");
        finish_sums(g, 2, dw);
      }
      const double alpha_s = run_s ? rho_s / comm.sum(dw[0]) : 0.0;
      const double alpha_t = run_t ? rho_t / comm.sum(dw[1]) : 0.0;

      double rp[2] = {0, 0};
      if (nr > 0) {
        k_update<<<g, kBlock, 0, stream_>>>(nr, rows_dev_.get(), running, alpha_s, alpha_t, d, w,
                                            diag_inv_.get(), x, r, p, partial_.get());
        QEQ_CUDA_LAUNCHED("k_update");
        finish_sums(g, 2, rp);
      }
      double beta_s = 0.0, beta_t = 0.0;
      if (run_s) {
        const double rho_old = rho_s;
        rho_s = comm.sum(rp[0]);
        beta_s = rho_s / rho_old;
        ++it_s;
      }
      if (run_t) {
        const double rho_old = rho_t;
        rho_t = comm.sum(rp[1]);
        beta_t = rho_t / rho_old;
        ++it_t;
      }
      if (nr > 0) {
        k_direction<<<blocks_for(nr), kBlock, 0, stream_>>>(nr, rows_dev_.get(), running, beta_s,
                                                            beta_t, p, d);
        QEQ_CUDA_LAUNCHED("k_direction");
      }
    }
    res.iter_s = it_s;
    res.iter_t = it_t;
    res.converged_s = it_s < max_iter;
    res.converged_t = it_t < max_iter;

    // q = s - mu t with mu chosen so that the charges sum to zero.
    double st[2] = {0, 0};
    if (nr > 0) {
      const unsigned g = reduce_blocks();
      k_sum_solution<<<g, kBlock, 0, stream_>>>(nr, rows_dev_.get(), x, partial_.get());
      QEQ_CUDA_LAUNCHED("k_sum_solution");
      finish_sums(g, 2, st);
    }
    const double s_sum = comm.sum(st[0]);
    const double t_sum = comm.sum(st[1]);
    const double mu = s_sum / t_sum;
    // Charges straight into the caller's q: the owned atoms outside the rows
    // keep theirs (uploaded first), ghosts get their owners' on the device
    // path, else through QEqComm::forward.
    if (nr > 0) {
      if (nr < nl)
        QEQ_CUDA_CHECK(
            cudaMemcpyAsync(q_dev_.get(), q, nl * sizeof(double), cudaMemcpyHostToDevice, stream_));
      k_charges<<<blocks_for(nr), kBlock, 0, stream_>>>(nr, rows_dev_.get(), mu, x, q_dev_.get(),
                                                        hist_dev_.get());
      QEQ_CUDA_LAUNCHED("k_charges");
      const int n_down = device_comm_ ? n : nl;
      if (device_comm_ && n > nl) {
        k_ghost_charges<<<blocks_for(n - nl), kBlock, 0, stream_>>>(owner_dev_.get(), nl, n - nl,
                                                                    q_dev_.get());
        QEQ_CUDA_LAUNCHED("k_ghost_charges");
      }
      QEQ_CUDA_CHECK(cudaMemcpyAsync(q, q_dev_.get(), n_down * sizeof(double),
                                     cudaMemcpyDeviceToHost, stream_));
      QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    if (nr == 0 || !device_comm_) comm.forward(q);
    return res;
  }

  std::size_t memory_bytes() const override {
    std::size_t b = QEqSolver::memory_bytes();
    b += x_dev_.bytes() + tag_in_.bytes() + tag_dev_.bytes() + tag_sorted_.bytes() +
         active_in_.bytes() + active_dev_.bytes() + type_dev_.bytes() + type_map_dev_.bytes() +
         chi_dev_.bytes() + eta_dev_.bytes() + gamma_dev_.bytes() + shield_dev_.bytes() +
         shift_dev_.bytes() + owner_dev_.bytes() + hist_dev_.bytes();
    b += row_flag_.bytes() + iota_.bytes() + rows_dev_.bytes() + checks_.bytes();
    b += key_.bytes() + key_sorted_.bytes() + idx_.bytes() + idx_sorted_.bytes() +
         cell_start_.bytes() + cell_end_.bytes() + cell_atoms_.bytes() + cub_tmp_.bytes();
    b += row_count_.bytes() + row_start_.bytes() + col_.bytes() + val_.bytes() + counters_.bytes();
    b += row_end_.bytes() + nnz_total_.bytes();
    b += img_start_.bytes() + img_end_.bytes() + img_idx_.bytes();
    b += x_.bytes() + b_.bytes() + r_.bytes() + d_.bytes() + p_.bytes() + w_.bytes() +
         diag_.bytes() + diag_inv_.bytes() + q_dev_.bytes() + partial_.bytes() + sums_dev_.bytes();
    b += stage_.bytes() + sums_host_.bytes() + grid_host_.bytes() + checks_host_.bytes();
    b += (shield_.capacity() + comm_s_.capacity() + comm_t_.capacity()) * sizeof(double);
    return b;
  }

 private:
  unsigned reduce_blocks() const {
    return static_cast<unsigned>(
        std::min<long long>(kMaxReduceBlocks, std::max<long long>(1, blocks_for(n_rows_))));
  }

  // Finishes the block partial sums of the last row kernel and brings nc sums home.
  void finish_sums(unsigned nblocks, int nc, double *out) {
    k_finish_sums<<<1, kBlock, 0, stream_>>>(partial_.get(), static_cast<int>(nblocks), nc,
                                             sums_dev_.get());
    QEQ_CUDA_LAUNCHED("k_finish_sums");
    QEQ_CUDA_CHECK(cudaMemcpyAsync(sums_host_.get(), sums_dev_.get(), nc * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::copy_n(sums_host_.get(), nc, out);
  }

  template <class T>
  void upload(QEqDeviceArray<T> &dst, const T *src, std::size_t n, const char *what) {
    dst.ensure(n, what, sz_);
    if (n > 0)
      QEQ_CUDA_CHECK(
          cudaMemcpyAsync(dst.get(), src, n * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }

  // Checks the input as the host solver does (on the GPU; the verdict comes
  // home with the matrix size), uploads the caller's arrays as they are,
  // selects the rows, finds the ghost owners, sizes the work vectors.
  void setup(const QEqInput &in) {
    if (in.n_local < 0 || in.n_total < in.n_local) throw RuntimeError("QEq: invalid atom counts");
    if (in.n_total > 0 && (!in.x || !in.tag || !in.chi || !in.eta || !in.gamma))
      throw RuntimeError("QEq: missing positions, tags or parameters");
    grow_history(in.n_local);
    sz_.n_local = in.n_local;
    sz_.n_total = in.n_total;
    sz_.nnz = 0;
    n_rows_ = 0;

    const int n = in.n_total, nl = in.n_local;
    upload(x_dev_, in.x, 3 * static_cast<std::size_t>(n), "positions");
    tag_in_.ensure(n, "atom tags", sz_);
    if (n > 0)
      QEQ_CUDA_CHECK(cudaMemcpyAsync(tag_in_.get(), in.tag.data(), n * in.tag.bytes_per_id(),
                                     cudaMemcpyHostToDevice, stream_));
    tag_dev_.ensure(n, "atom tags", sz_);
    flags_ = has_exclusions(in);
    if (in.active) upload(active_in_, in.active, n, "the QEq group");
    if (flags_) active_dev_.ensure(n, "the QEq group", sz_);
    if (in.type && in.type_map)
      upload(type_map_dev_, in.type_map, std::max(in.num_mapped, 0), "the type map");
    if (in.type) {
      const int nt = std::max(in.num_types, 0);
      upload(type_dev_, in.type, n, "atom types");
      upload(chi_dev_, in.chi, nt, "QEq parameters");
      upload(eta_dev_, in.eta, nt, "QEq parameters");
      upload(gamma_dev_, in.gamma, nt, "QEq parameters");
      shield_.assign(static_cast<std::size_t>(nt) * nt, 0.0);
      for (int a = 0; a < nt; ++a)
        for (int c = 0; c < nt; ++c)
          shield_[static_cast<std::size_t>(a) * nt + c] = qeq_shielding(in.gamma[a], in.gamma[c]);
      upload(shield_dev_, shield_.data(), shield_.size(), "QEq shielding table");
    } else {
      upload(chi_dev_, in.chi, n, "QEq parameters");
      upload(eta_dev_, in.eta, n, "QEq parameters");
      upload(gamma_dev_, in.gamma, n, "QEq parameters");
    }
    if (in.chi_shift) upload(shift_dev_, in.chi_shift, nl, "chi shifts");
    params_.type = in.type ? type_dev_.get() : nullptr;
    params_.chi = chi_dev_.get();
    params_.eta = eta_dev_.get();
    params_.chi_shift = in.chi_shift ? shift_dev_.get() : nullptr;

    // ids widened, group flags, rows flagged and listed in index order
    checks_.ensure(kNumChecks, "counters", sz_, 1.0);
    QEQ_CUDA_CHECK(cudaMemsetAsync(checks_.get(), 0, kNumChecks * sizeof(int), stream_));
    QEQ_CUDA_CHECK(cudaMemsetAsync(checks_.get() + kCheckBadRow, 0x7f,
                                   (kCheckNoOwner - kCheckBadRow) * sizeof(int), stream_));
    row_flag_.ensure(nl, "QEq rows", sz_);
    iota_.ensure(nl, "QEq rows", sz_);
    rows_dev_.ensure(nl, "QEq rows", sz_);
    if (n > 0) {
      PrepArgs a{};
      a.n_local = nl;
      a.n_total = n;
      a.tag_in = tag_in_.get();
      a.wide = in.tag.wide();
      a.tag = tag_dev_.get();
      a.active_in = in.active ? active_in_.get() : nullptr;
      a.active_bits = in.active_bits;
      a.active = flags_ ? active_dev_.get() : nullptr;
      a.type = in.type ? type_dev_.get() : nullptr;
      a.num_types = in.num_types;
      a.type_map = in.type && in.type_map ? type_map_dev_.get() : nullptr;
      a.num_mapped = in.num_mapped;
      a.eta = eta_dev_.get();
      a.row_flag = row_flag_.get();
      a.iota = iota_.get();
      a.checks = checks_.get();
      k_prepare_atoms<<<blocks_for(n), kBlock, 0, stream_>>>(a);
      QEQ_CUDA_LAUNCHED("k_prepare_atoms");
    }
    if (nl > 0) {
      std::size_t bytes = 0;
      QEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, iota_.get(), row_flag_.get(),
                                                rows_dev_.get(), checks_.get() + kCheckRows, nl,
                                                stream_));
      cub_tmp_.ensure(bytes, "row selection workspace", sz_);
      QEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(cub_tmp_.get(), bytes, iota_.get(), row_flag_.get(),
                                                rows_dev_.get(), checks_.get() + kCheckRows, nl,
                                                stream_));
    }
    find_ghost_owners(in);
    history_to_device(nl);

    x_.ensure(n, "CG vectors", sz_);
    d_.ensure(n, "CG vectors", sz_);
    w_.ensure(n, "CG vectors", sz_);
    b_.ensure(nl, "CG vectors", sz_);
    r_.ensure(nl, "CG vectors", sz_);
    p_.ensure(nl, "CG vectors", sz_);
    diag_.ensure(nl, "CG vectors", sz_);
    diag_inv_.ensure(nl, "CG vectors", sz_);
    q_dev_.ensure(n, "charges", sz_);
    if (!device_comm_) {
      stage_.ensure(n);
      comm_s_.resize(n);
      comm_t_.resize(n);
    }
  }

  // Whether ghosts are refreshed on the device (device_comm_), with owner_dev_:
  // the caller's owners (checked), or, for ghosts_are_images, found by id on
  // the GPU once per reordering of the atoms.
  void find_ghost_owners(const QEqInput &in) {
    const int n = in.n_total, nl = in.n_local, n_ghost = n - nl;
    if (n_ghost == 0 || (!in.ghost_owner && !in.ghosts_are_images)) {
      device_comm_ = n_ghost == 0;
      owners_of_ = -1;
      return;
    }
    if (in.ghost_owner) {
      owners_of_ = -1;
      upload(owner_dev_, in.ghost_owner, n_ghost, "ghost owners");
      k_check_owners<<<blocks_for(n_ghost), kBlock, 0, stream_>>>(owner_dev_.get(), nl, n_ghost,
                                                                  checks_.get());
      QEQ_CUDA_LAUNCHED("k_check_owners");
    } else {
      if (!in.atoms_reordered && owners_of_ == n && owners_nl_ == nl) {
        device_comm_ = owners_known_;
        return;
      }
      owners_of_ = -1;
      owner_dev_.ensure(n_ghost, "ghost owners", sz_);
      tag_sorted_.ensure(nl, "ghost owners", sz_);
      idx_sorted_.ensure(nl, "ghost owners", sz_);
      if (nl > 0) {  // owned ids sorted with their indices (iota_, from k_prepare_atoms)
        std::size_t bytes = 0;
        QEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, tag_dev_.get(),
                                                       tag_sorted_.get(), iota_.get(),
                                                       idx_sorted_.get(), nl, 0, 64, stream_));
        cub_tmp_.ensure(bytes, "sort workspace", sz_);
        QEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_tmp_.get(), bytes, tag_dev_.get(),
                                                       tag_sorted_.get(), iota_.get(),
                                                       idx_sorted_.get(), nl, 0, 64, stream_));
      }
      k_find_owners<<<blocks_for(n_ghost), kBlock, 0, stream_>>>(
          tag_sorted_.get(), idx_sorted_.get(), nl, tag_dev_.get(), n_ghost, owner_dev_.get(),
          checks_.get());
      QEQ_CUDA_LAUNCHED("k_find_owners");
    }
    int c[kNumChecks];
    read_checks(c);
    if (c[kCheckBadOwner] != kNoAtom) {
      const int k = c[kCheckBadOwner];
      throw RuntimeError("QEq: ghost_owner[" + std::to_string(k) + "] = " +
                         std::to_string(in.ghost_owner[k]) + " is neither an owned atom nor -1");
    }
    device_comm_ = c[kCheckNoOwner] == 0;
    if (!in.ghost_owner) {
      owners_of_ = n;
      owners_nl_ = nl;
      owners_known_ = device_comm_;
    }
  }

  void read_checks(int *out) {
    QEQ_CUDA_CHECK(cudaMemcpyAsync(checks_host_.get(), checks_.get(), kNumChecks * sizeof(int),
                                   cudaMemcpyDeviceToHost, stream_));
    QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::copy_n(checks_host_.get(), kNumChecks, out);
  }

  // The history of the owned atoms on the GPU: uploaded when the host copy
  // is the current one (first solve, or the history API was used since),
  // else kept; atoms new since the last solve start with none (zeros).
  void history_to_device(int nl) {
    const std::size_t block = kHistoryPerAtom;
    if (hist_on_device_ && hist_dev_.bytes() < nl * block * sizeof(double)) fetch_history();
    if (!hist_on_device_) {
      upload(hist_dev_, hist_.data(), static_cast<std::size_t>(nl) * block, "history");
      hist_dev_rows_ = nl;
      hist_on_device_ = true;
    } else if (nl > hist_dev_rows_) {
      QEQ_CUDA_CHECK(cudaMemsetAsync(hist_dev_.get() + hist_dev_rows_ * block, 0,
                                     (nl - hist_dev_rows_) * block * sizeof(double), stream_));
      hist_dev_rows_ = nl;
    }
  }

  void fetch_history() const override {
    if (!hist_on_device_) return;
    const std::size_t count = static_cast<std::size_t>(hist_dev_rows_) * kHistoryPerAtom;
    if (count > 0) {
      QEQ_CUDA_CHECK(cudaMemcpyAsync(hist_.data(), hist_dev_.get(), count * sizeof(double),
                                     cudaMemcpyDeviceToHost, stream_));
      QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    hist_on_device_ = false;
  }

  // Cell binning, then the rows (count -> scan -> fill), then for the device
  // path the owner -> images map.
  void build_matrix(const QEqInput &in) {
    const int n = in.n_total, nl = in.n_local;
    const int *active = flags_ ? active_dev_.get() : nullptr;
    const int *type = in.type ? type_dev_.get() : nullptr;
    row_count_.ensure(static_cast<std::size_t>(n) + 1, "matrix rows", sz_);
    row_start_.ensure(static_cast<std::size_t>(n) + 1, "matrix rows", sz_);
    QEQ_CUDA_CHECK(cudaMemsetAsync(row_count_.get(), 0, (n + 1) * sizeof(long long), stream_));
    counters_.ensure(4, "counters", sz_, 1.0);
    QEQ_CUDA_CHECK(cudaMemsetAsync(counters_.get(), 0, 4 * sizeof(int), stream_));
    nnz_ = 0;
    nonempty_rows_ = 0;
    if (n == 0) {
      QEQ_CUDA_CHECK(cudaMemsetAsync(row_start_.get(), 0, sizeof(long long), stream_));
      row_end_ptr_ = row_start_.get() + 1;
      return;
    }

    if (use_far_list(in)) {
      build_matrix_from_far(in);
      return;
    }

    // Bounding box -> cell grid.
    const unsigned gb = static_cast<unsigned>(std::min<long long>(kMaxReduceBlocks, blocks_for(n)));
    k_bbox_partial<<<gb, kBlock, 0, stream_>>>(x_dev_.get(), n, partial_.get());
    QEQ_CUDA_LAUNCHED("k_bbox_partial");
    k_bbox_finish<<<1, kBlock, 0, stream_>>>(partial_.get(), static_cast<int>(gb), sums_dev_.get());
    QEQ_CUDA_LAUNCHED("k_bbox_finish");
    QEQ_CUDA_CHECK(cudaMemcpyAsync(grid_host_.get(), sums_dev_.get(), 6 * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const CellGrid grid = make_grid(grid_host_.get(), n);
    const int ncells = grid.ncells();

    key_.ensure(n, "cell binning", sz_);
    key_sorted_.ensure(n, "cell binning", sz_);
    idx_.ensure(n, "cell binning", sz_);
    idx_sorted_.ensure(n, "cell binning", sz_);
    cell_start_.ensure(ncells, "cell binning", sz_);
    cell_end_.ensure(ncells, "cell binning", sz_);
    cell_atoms_.ensure(n, "cell binning", sz_);
    k_cell_keys<<<blocks_for(n), kBlock, 0, stream_>>>(x_dev_.get(), active, n, grid, key_.get(),
                                                       idx_.get());
    QEQ_CUDA_LAUNCHED("k_cell_keys");
    sort_pairs(key_.get(), key_sorted_.get(), idx_.get(), idx_sorted_.get(), n, bits_for(ncells));
    QEQ_CUDA_CHECK(cudaMemsetAsync(cell_start_.get(), 0, ncells * sizeof(int), stream_));
    QEQ_CUDA_CHECK(cudaMemsetAsync(cell_end_.get(), 0, ncells * sizeof(int), stream_));
    k_segment_bounds<<<blocks_for(n), kBlock, 0, stream_>>>(key_sorted_.get(), n, ncells,
                                                            cell_start_.get(), cell_end_.get());
    QEQ_CUDA_LAUNCHED("k_segment_bounds");
    k_gather_cell_atoms<<<blocks_for(n), kBlock, 0, stream_>>>(idx_sorted_.get(), n, x_dev_.get(),
                                                               type, cell_atoms_.get());
    QEQ_CUDA_LAUNCHED("k_gather_cell_atoms");

    BuildArgs a{};
    a.n_local = nl;
    a.n_total = n;
    a.x = x_dev_.get();
    a.tag = tag_dev_.get();
    a.active = active;
    a.type = type;
    a.num_types = in.num_types;
    a.shield = in.type ? shield_dev_.get() : nullptr;
    a.gamma = gamma_dev_.get();
    a.owner = device_comm_ && n > nl ? owner_dev_.get() : nullptr;
    a.cell_atoms = cell_atoms_.get();
    a.cell_start = cell_start_.get();
    a.cell_end = cell_end_.get();
    a.grid = grid;
    a.cut2 = settings_.cut_hi * settings_.cut_hi;
    a.taper = taper_;
    a.row_count = row_count_.get();
    a.nonempty_rows = counters_.get();
    a.bad_type = counters_.get() + 2;
    const unsigned gw = blocks_for(static_cast<long long>(n) * 32);
    k_build_rows<false><<<gw, kBlock, 0, stream_>>>(a);
    QEQ_CUDA_LAUNCHED("k_build_rows<count>");
    scan_rows(n);

    long long *row_start = row_start_.get();
    read_matrix_size(in, row_start + n);
    row_end_ptr_ = row_start + 1;  // CSR
    const long long nnz = nnz_;

    col_.ensure(nnz, "the QEq matrix (columns)", sz_, 1.25);
    val_.ensure(nnz, "the QEq matrix (values)", sz_, 1.25);
    a.row_start = row_start;
    a.col = col_.get();
    a.val = val_.get();
    k_build_rows<true><<<gw, kBlock, 0, stream_>>>(a);
    QEQ_CUDA_LAUNCHED("k_build_rows<fill>");

    build_image_map(n, nl);
  }

  // nnz (at nnz_dev), non-empty rows, the type checks and the number of rows
  // come home together (after the rows are counted).
  void read_matrix_size(const QEqInput &in, const long long *nnz_dev) {
    QEQ_CUDA_CHECK(cudaMemcpyAsync(grid_host_.get(), nnz_dev, sizeof(long long),
                                   cudaMemcpyDeviceToHost, stream_));
    QEQ_CUDA_CHECK(cudaMemcpyAsync(reinterpret_cast<char *>(grid_host_.get()) + 8, counters_.get(),
                                   4 * sizeof(int), cudaMemcpyDeviceToHost, stream_));
    int checks[kNumChecks];
    read_checks(checks);  // waits for both
    long long nnz = 0;
    int counters[4];
    std::memcpy(&nnz, grid_host_.get(), sizeof nnz);
    std::memcpy(counters, reinterpret_cast<const char *>(grid_host_.get()) + 8, sizeof counters);
    // the first bad owned atom, as the host solver's row selection reports it
    if (checks[kCheckBadRow] != kNoAtom) reject_row(in, checks[kCheckBadRow]);
    if (counters[2])
      throw InputError("QEq: atom type " + std::to_string(counters[3]) + " has no QEq parameters");
    nnz_ = nnz;
    nonempty_rows_ = counters[0];
    n_rows_ = checks[kCheckRows];
    sz_.nnz = nnz;
  }

  // Device reverse comm: for each owner, its images whose rows have entries,
  // by ascending ghost index (a deterministic sum).
  void build_image_map(int n, int nl) {
    if (device_comm_) {
      const int n_ghost = n - nl;
      img_start_.ensure(nl, "ghost image map", sz_);
      img_end_.ensure(nl, "ghost image map", sz_);
      img_idx_.ensure(n_ghost, "ghost image map", sz_);
      // sort scratch (the cell search, when it runs, has sized these already)
      key_.ensure(n_ghost, "ghost image map", sz_);
      key_sorted_.ensure(n_ghost, "ghost image map", sz_);
      idx_.ensure(n_ghost, "ghost image map", sz_);
      if (nl > 0) {
        QEQ_CUDA_CHECK(cudaMemsetAsync(img_start_.get(), 0, nl * sizeof(int), stream_));
        QEQ_CUDA_CHECK(cudaMemsetAsync(img_end_.get(), 0, nl * sizeof(int), stream_));
      }
      if (n_ghost > 0) {
        k_image_keys<<<blocks_for(n_ghost), kBlock, 0, stream_>>>(
            owner_dev_.get(), row_count_.get(), nl, n_ghost, key_.get(), idx_.get());
        QEQ_CUDA_LAUNCHED("k_image_keys");
        sort_pairs(key_.get(), key_sorted_.get(), idx_.get(), img_idx_.get(), n_ghost,
                   bits_for(nl));
        k_segment_bounds<<<blocks_for(n_ghost), kBlock, 0, stream_>>>(
            key_sorted_.get(), n_ghost, nl, img_start_.get(), img_end_.get());
        QEQ_CUDA_LAUNCHED("k_segment_bounds(images)");
      }
    }
  }

  // The engine's far list serves when it is of these atoms and reaches cut_hi.
  bool use_far_list(const QEqInput &in) const {
    const DeviceFarList *f = in.far;
    return f && f->n_local == in.n_local && f->n_total == in.n_total &&
           settings_.cut_hi <= f->cut_local && f->start && f->end && f->nbr && f->dvec && f->x &&
           f->rev_start && (f->rev_row || f->rev_total == 0);
  }

  // The matrix rows from the force engine's far list (see k_list_rows).
  void build_matrix_from_far(const QEqInput &in) {
    const int n = in.n_total, nl = in.n_local;
    const DeviceFarList &f = *in.far;
    const long long room = f.row_room + f.rev_total;
    row_end_.ensure(static_cast<std::size_t>(n) + 1, "matrix rows", sz_);
    col_.ensure(room, "the QEq matrix (columns)", sz_, 1.25);
    val_.ensure(room, "the QEq matrix (values)", sz_, 1.25);
    nnz_total_.ensure(1, "counters", sz_, 1.0);
    QEQ_CUDA_CHECK(cudaMemsetAsync(nnz_total_.get(), 0, sizeof(long long), stream_));
    ListArgs a{};
    a.n_local = nl;
    a.n_total = n;
    a.far = f;
    a.tag = tag_dev_.get();
    a.active = flags_ ? active_dev_.get() : nullptr;
    a.type = in.type ? type_dev_.get() : nullptr;
    a.num_types = in.num_types;
    a.shield = in.type ? shield_dev_.get() : nullptr;
    a.gamma = gamma_dev_.get();
    a.owner = device_comm_ && n > nl ? owner_dev_.get() : nullptr;
    a.cut2 = settings_.cut_hi * settings_.cut_hi;
    a.taper = taper_;
    a.row_start = row_start_.get();
    a.row_end = row_end_.get();
    a.row_count = row_count_.get();
    a.col = col_.get();
    a.val = val_.get();
    a.nnz = reinterpret_cast<unsigned long long *>(nnz_total_.get());
    a.nonempty_rows = counters_.get();
    a.bad_type = counters_.get() + 2;
    k_list_rows<<<blocks_for(static_cast<long long>(n) * 32), kBlock, 0, stream_>>>(a);
    QEQ_CUDA_LAUNCHED("k_list_rows");
    row_end_ptr_ = row_end_.get();
    read_matrix_size(in, nnz_total_.get());
    build_image_map(n, nl);
  }

  // Cells of at least cut_hi / kCellsPerCut, no more of them than about two per atom.
  CellGrid make_grid(const double *box, int n) const {
    CellGrid g;
    const double edge = settings_.cut_hi / kCellsPerCut;
    double ncell[3];
    for (int k = 0; k < 3; ++k) {
      g.lo[k] = box[k];
      const double extent = box[3 + k] - box[k];
      double c = std::isfinite(extent) && extent > 0.0 ? std::floor(extent / edge) : 1.0;
      ncell[k] = std::min(std::max(c, 1.0), 1048576.0);
    }
    const double max_cells = 2.0 * n + 64.0;
    while (ncell[0] * ncell[1] * ncell[2] > max_cells) {
      const int k =
          ncell[0] >= ncell[1] && ncell[0] >= ncell[2] ? 0 : (ncell[1] >= ncell[2] ? 1 : 2);
      ncell[k] = std::max(1.0, std::ceil(ncell[k] / 2.0));
    }
    g.nx = static_cast<int>(ncell[0]);
    g.ny = static_cast<int>(ncell[1]);
    g.nz = static_cast<int>(ncell[2]);
    const int nk[3] = {g.nx, g.ny, g.nz};
    for (int k = 0; k < 3; ++k) {
      const double extent = box[3 + k] - box[k];
      g.scale[k] = std::isfinite(extent) && extent > 0.0 ? nk[k] / extent : 0.0;
    }
    return g;
  }

  void sort_pairs(const int *keys_in, int *keys_out, const int *vals_in, int *vals_out, int n,
                  int end_bit) {
    std::size_t bytes = 0;
    QEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in,
                                                   vals_out, n, 0, end_bit, stream_));
    cub_tmp_.ensure(bytes, "sort workspace", sz_);
    QEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_tmp_.get(), bytes, keys_in, keys_out,
                                                   vals_in, vals_out, n, 0, end_bit, stream_));
  }

  // row_start = exclusive scan of row_count over n + 1 entries (the last count is 0).
  void scan_rows(int n) {
    std::size_t bytes = 0;
    QEQ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, row_count_.get(), row_start_.get(),
                                                 n + 1, stream_));
    cub_tmp_.ensure(bytes, "scan workspace", sz_);
    QEQ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp_.get(), bytes, row_count_.get(),
                                                 row_start_.get(), n + 1, stream_));
  }

  template <int TPR>
  void launch_spmv(const double2 *v, double2 *y) {
    const int n = sz_.n_total;
    const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR);
    k_spmv<TPR><<<blocks, kBlock, 0, stream_>>>(n, sz_.n_local, row_start_.get(), row_end_ptr_,
                                                col_.get(), val_.get(), diag_.get(), v, y);
    QEQ_CUDA_LAUNCHED("k_spmv");
  }

  // y = H v over all rows (owned and ghost); ghost rows still to be folded.
  void multiply(const double2 *v, double2 *y) {
    if (sz_.n_total == 0) return;
    switch (pick_threads_per_row(nnz_, nonempty_rows_, forced_tpr_)) {
      case 4:
        launch_spmv<4>(v, y);
        break;
      case 8:
        launch_spmv<8>(v, y);
        break;
      case 16:
        launch_spmv<16>(v, y);
        break;
      default:
        launch_spmv<32>(v, y);
        break;
    }
  }

  // Comm path: ghosts of the systems in `which` (bit 0 s, bit 1 t) get their
  // owners' values through QEqComm::forward.
  void forward_host(double2 *v, int which, QEqComm &comm) {
    const int n = sz_.n_total, nl = sz_.n_local;
    through_comm(v, nl, nl, n, which, [&](double *a) { comm.forward(a); });
  }

  // Comm path: ghost rows of the systems in `which` are added into their
  // owners through QEqComm::reverse.
  void reverse_host(double2 *y, int which, QEqComm &comm) {
    const int n = sz_.n_total, nl = sz_.n_local;
    through_comm(y, n, 0, nl, which, [&](double *a) { comm.reverse(a); });
  }

  // v[0, down) to the host, split into s and t, `move` applied to the systems
  // in `which`, and v[up_begin, up_end) back to the device.
  template <class Move>
  void through_comm(double2 *v, int down, int up_begin, int up_end, int which, Move &&move) {
    double2 *st = stage_.get();
    if (down > 0) {
      QEQ_CUDA_CHECK(
          cudaMemcpyAsync(st, v, down * sizeof(double2), cudaMemcpyDeviceToHost, stream_));
      QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    double *vs = comm_s_.data(), *vt = comm_t_.data();
    for (int i = 0; i < down; ++i) {
      vs[i] = st[i].x;
      vt[i] = st[i].y;
    }
    if (which & 1) move(vs);
    if (which & 2) move(vt);
    for (int i = up_begin; i < up_end; ++i) st[i] = make_double2(vs[i], vt[i]);
    if (up_end > up_begin) {
      QEQ_CUDA_CHECK(cudaMemcpyAsync(v + up_begin, st + up_begin,
                                     (up_end - up_begin) * sizeof(double2), cudaMemcpyHostToDevice,
                                     stream_));
      QEQ_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the stage is reused right away
    }
  }

  cudaStream_t stream_ = nullptr;
  int forced_tpr_ = 0;
  QEqSizes sz_;
  bool device_comm_ = false;
  // ghost owners found by id (ghosts_are_images), kept until the atoms are
  // reordered: for n_total owners_of_ (-1: none kept) and n_local owners_nl_
  int owners_of_ = -1, owners_nl_ = 0;
  bool owners_known_ = false;  // every ghost's owner was found
  // the history lives on the GPU between solves (see fetch_history)
  mutable bool hist_on_device_ = false;
  int hist_dev_rows_ = 0;
  int n_rows_ = 0;
  long long nnz_ = 0, nonempty_rows_ = 0;
  ParamArgs params_{};

  std::vector<double> shield_, comm_s_, comm_t_;

  // input (the caller's ids and group flags as given, then as the kernels read them)
  QEqDeviceArray<double> x_dev_, chi_dev_, eta_dev_, gamma_dev_, shield_dev_, shift_dev_, hist_dev_;
  QEqDeviceArray<long long> tag_in_, tag_dev_, tag_sorted_;
  QEqDeviceArray<int> active_in_, active_dev_, type_dev_, type_map_dev_, owner_dev_;
  bool flags_ = false;  // active_dev_ holds which atoms take part (has_exclusions)
  // rows of H and the checks of the input
  QEqDeviceArray<int> row_flag_, iota_, rows_dev_, checks_;
  // binning and matrix
  QEqDeviceArray<int> key_, key_sorted_, idx_, idx_sorted_, cell_start_, cell_end_, counters_;
  QEqDeviceArray<CellAtom> cell_atoms_;
  QEqDeviceArray<unsigned char> cub_tmp_;
  QEqDeviceArray<long long> row_count_, row_start_, row_end_, nnz_total_;
  const long long *row_end_ptr_ = nullptr;  // row_end_, or row_start_ + 1 for a CSR
  QEqDeviceArray<int> col_;
  QEqDeviceArray<double> val_;
  QEqDeviceArray<int> img_start_, img_end_, img_idx_;
  // CG
  QEqDeviceArray<double2> x_, b_, r_, d_, p_, w_;
  QEqDeviceArray<double> diag_, diag_inv_, q_dev_, partial_, sums_dev_;
  // host staging
  QEqPinnedArray<double2> stage_;
  QEqPinnedArray<double> sums_host_, grid_host_;
  QEqPinnedArray<int> checks_host_;
};

}  // namespace

std::unique_ptr<QEqSolver> make_cuda_qeq_solver(const QEqSettings &settings) {
  return std::make_unique<CudaQEqSolver>(settings);
}

}  // namespace puremd
