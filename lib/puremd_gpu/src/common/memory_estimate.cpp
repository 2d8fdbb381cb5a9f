// The memory model of the CUDA driver (memory_estimate.h).
//
// At the skin list's count the driver knows three numbers of this rank:
// P list pairs (skin list; the far list when there is none), L owned atoms,
// N = L + G owned + ghost atoms. Every large array scales with one of them
// (bench/README.md, "Memory model", has the tables the coefficients come
// from: HNS 16^3 and 32^3 on one H200, the sizes of each array by name):
//
//   P  the skin list, which is also the far list (or the far list where
//      there is no skin): one int an entry; the QEq matrix's tile partners
//      (kQEqBytesPerPair);
//   Po the list pairs in owned rows, Po = P L / (L + kGhostRowShare G): the
//      QEq matrix's values and tile entries (kQEqBytesPerOwnedPair), which
//      hold the pairs of owned rows within the QEq cut-off;
//   L  the hydrogen-bond list and the three-body arrays; FSAI's factor G
//      and its work arrays where the charge solver runs FSAI
//      (kFsaiBytesPerOwnedAtom);
//   N  bonds (orders, vectors, lengths), the near list, the per-atom arrays
//      and workspace, the QEq solver's vectors, CUB's scratch and the small
//      arrays.
//
// The coefficients are bytes per unit without headroom (the tables' sizes
// divided by the headroom they were allocated with), rounded up; HNS is rich
// in bonds and hydrogen bonds per atom (bonds ~4.5 entries an atom), so most
// ReaxFF systems need no more per atom. The estimate is their sum times the
// headroom of a first allocation (kFirstHeadroom, the QEq matrix's too) and
// kEstimateMargin, so that it errs on the high side by a few per cent
// (allocation granularity, arrays too small to model).
#include "common/memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "puremd_gpu/physics/qeq_fsai.h"

namespace puremd {
namespace {

constexpr double kListEntryBytes = 4.0;        // an int partner of the one pair list
constexpr double kQEqBytesPerOwnedPair = 7.6;  // QEq values (8 B) + tile entries, per Po
constexpr double kQEqBytesPerPair = 0.96;      // QEq tile partners, per P
constexpr double kGhostRowShare = 0.29;        // pairs of a ghost row / of an owned row
constexpr double kBytesPerOwnedAtom = 425.0;   // hydrogen-bond list, three-body arrays
constexpr double kBytesPerAtom = 2050.0;       // bonds, near list, per-atom arrays
constexpr double kEstimateMargin = 1.05;
// FSAI's arrays as the CUDA driver allocates them (CudaFsai::setup,
// cuda/charges/qeq_cuda_fsai.cu), each for every owned atom whatever its
// row holds: G in ELL, kFsaiPattern entries a row (an int column and a
// double value each; the rule "the nearest kFsaiPattern - 1 lower partners"
// bounds a row, the radius only decides how many of them are filled), the
// kFsaiCandidates int slots of a row's candidates and their count, G's
// entries a row (int), G r (a double2) and the owned ids at G's build (a
// long long); G^T as rows beside it (as many entries, an int row and a
// double value each, and two ints a row: counts and starts): 552 bytes an
// owned atom, about a fifth of the rest of an atom's.
constexpr double kFsaiBytesPerOwnedAtom = 2 * kFsaiPattern * (sizeof(int) + sizeof(double)) +
                                          kFsaiCandidates * sizeof(int) + 4 * sizeof(int) +
                                          2 * sizeof(double) + sizeof(long long);

// Po of the model: the list pairs of owned rows.
double owned_row_pairs(double pairs, double n_local, double n_ghost) {
  const double rows = n_local + kGhostRowShare * n_ghost;
  return rows > 0.0 ? pairs * n_local / rows : 0.0;
}

MemoryEstimate estimate(double n_local, double n_total, double pairs, bool charges, bool fsai) {
  const double n_ghost = std::max(n_total - n_local, 0.0);
  const double lists = kListEntryBytes * pairs;
  const double matrix = charges ? kQEqBytesPerOwnedPair * owned_row_pairs(pairs, n_local, n_ghost) +
                                      kQEqBytesPerPair * pairs
                                : 0.0;
  // (G stays with a matrix-free solve: no optional bytes)
  const double fsai_g = charges && fsai ? kFsaiBytesPerOwnedAtom * n_local : 0.0;
  const double atoms = kBytesPerOwnedAtom * n_local + kBytesPerAtom * n_total + fsai_g;
  const double scale = kFirstHeadroom * kEstimateMargin;
  MemoryEstimate e;
  e.bytes = scale * (lists + matrix + atoms);
  e.optional_bytes = scale * matrix;
  return e;
}

// This rank's share on `gpus` GPUs (doubles: the search below steps finely).
struct Share {
  double n_local, n_total, pairs;
};

// Owned atoms shrink as 1 / k with k = gpus / ranks. Ghosts are a shell of
// fixed thickness around the sub-domain, so they shrink less: with the
// sub-domain a cube of side s and the shell g thick, G / L = (1 + 2 g / s)^3
// - 1 gives g / s now; s shrinks as k^(-1/3). (LAMMPS makes sub-domains
// about cubic; a lone rank's ghosts are its periodic images, the same shell.)
// Pairs follow as a Po / L per owned atom and kGhostRowShare of that per
// ghost.
Share share_on(const MemoryEstimateInput &in, int ranks, double gpus) {
  const double L = static_cast<double>(in.n_local), N = static_cast<double>(in.n_total);
  if (!(L > 0.0) || !(gpus > ranks)) return Share{L, N, static_cast<double>(in.list_pairs)};
  const double G = std::max(N - L, 0.0);
  const double k = gpus / std::max(ranks, 1);
  const double g_over_s = 0.5 * (std::cbrt(1.0 + G / L) - 1.0);
  const double L2 = L / k;
  const double G2 = L2 * (std::pow(1.0 + 2.0 * g_over_s * std::cbrt(k), 3) - 1.0);
  const double per_owned = owned_row_pairs(static_cast<double>(in.list_pairs), L, G) / L;
  return Share{L2, L2 + G2, per_owned * (L2 + kGhostRowShare * G2)};
}

std::string gib(double bytes) {
  const double g = bytes / (1024.0 * 1024.0 * 1024.0);
  char buf[32];
  std::snprintf(buf, sizeof buf, g >= 10.0 ? "%.1f GiB" : "%.2f GiB", g);
  return buf;
}

}  // namespace

MemoryEstimate estimate_device_memory(const MemoryEstimateInput &in) {
  return estimate(static_cast<double>(in.n_local), static_cast<double>(in.n_total),
                  static_cast<double>(in.list_pairs), in.charges, in.fsai);
}

MemoryEstimateInput scaled_to_gpus(const MemoryEstimateInput &in, int ranks, long long gpus) {
  const Share s = share_on(in, ranks, static_cast<double>(gpus));
  MemoryEstimateInput out = in;
  out.n_local = static_cast<long long>(std::ceil(s.n_local));
  out.n_total = std::max(out.n_local, static_cast<long long>(std::ceil(s.n_total)));
  out.list_pairs = static_cast<long long>(std::ceil(s.pairs));
  return out;
}

long long gpus_to_hold(const MemoryEstimateInput &in, int ranks, double per_gpu, double scale) {
  ranks = std::max(ranks, 1);
  const auto fits = [&](long long gpus) {
    const Share s = share_on(in, ranks, static_cast<double>(gpus));
    return scale * estimate(s.n_local, s.n_total, s.pairs, in.charges, in.fsai).bytes <= per_gpu;
  };
  // Doubling, then halving the interval: the share shrinks with every GPU added.
  long long lo = ranks, hi = ranks + 1;
  constexpr long long kMostGpus = 1LL << 40;
  while (!fits(hi)) {
    if (hi >= kMostGpus || in.n_local <= 0) return 0;  // the ghost shell alone does not fit
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    (fits(mid) ? hi : lo) = mid;
  }
  return hi;
}

std::string memory_shortage_message(const MemoryShortage &s) {
  // (an array of no step's, such as a solver's history, knows no atoms)
  std::string m = s.n_total > 0
                      ? "ReaxFF/GPU: this rank's " + std::to_string(s.n_local) + " owned + " +
                            std::to_string(s.n_total - s.n_local) + " ghost atoms need "
                      : std::string("ReaxFF/GPU: this rank needs ");
  m += s.need > 0.0 ? "about " + gib(s.need) + " of GPU memory" : "more GPU memory";
  if (!s.failed.empty() && s.failed_bytes > 0.0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f MiB", s.failed_bytes / (1024.0 * 1024.0));
    m += " (allocating " + std::string(buf) + " for " + s.failed + " failed, with " + gib(s.held) +
         " held)";
  } else if (!s.failed.empty()) {
    m += " (" + s.failed + " found the GPU's memory used up)";
  }
  m += "; GPU " + s.gpu + " has " + gib(s.gpu_total) + " (" + gib(s.available) +
       " of it available to this rank). ";
  if (s.gpus != 0) {
    const std::string r = s.gpus > 0 ? std::to_string(s.gpus) : "R";
    m += (s.gpus > 0 ? "Run on at least " + r : std::string("Run on more")) +
         " GPUs (one MPI rank per GPU, e.g. mpirun -np " + r +
         " ... -sf gpu) or a GPU with more memory.";
  } else {
    m += "Use a GPU with more memory: on more GPUs of this size, the ghost atoms of a rank "
         "alone would not fit.";
  }
  return m;
}

}  // namespace puremd
