// Threads per row for the CUDA stages whose rows are long enough that the
// paper's "several threads per atom" may pay: the far-neighbour search, the
// pass over the skin list at its build (compaction: the near list; it was
// the per-step far list's, measured below), the scan of near rows for bonds and hbond
// partners (lists), hydrogen bonds and nonbonded pairs. All other
// stages run one thread per atom (short rows: bonds, angles, torsions).
//
// The defaults are chosen by measurement on the H100 (bench/device_check.sh
// lanes; ms/step of the stage's phase, HNS 8x8x8 = 155,648 atoms / Water-6540):
//   neighbour search (fresh list)  1: 19.1  4: 6.01  8: 4.83  16: 4.34  32: 3.95   (HNS)
//   skin-list compaction           1: 12.2  4: 3.47  8: 2.13  16: 1.47  32: 1.25   (HNS)
//   hydrogen bonds                 1: 0.40  4: 0.28  8: 0.24  32: 0.23             (HNS)
//                                  1: 0.64  4: 0.16  8: 0.09  32: 0.08             (water)
//   nonbonded                      1: 4.91  4: 3.86  8: 3.72  16: 3.69  32: 3.93   (HNS)
//                                  1: 2.08  4: 0.55  8: 0.31  32: 0.25             (water)
//     (older kernels; at 96 registers the default is auto, see nonbonded_lanes)
//   lists (whole step, two runs)   1: 4.19/4.36  4: 3.24/3.47  8: 3.33/3.15
//                                  16: 3.28/3.29  32: 3.21/3.06            (HNS 2x2x2)
//                                  1: 39.5/40.4  8: 35.9/38.0  32: 35.5/38.0 (HNS)
//                                  1: 6.78/6.96  8: 5.84/5.62  32: 5.85/5.33 (water)
//   (the lists phase alone at 32: HNS 2x2x2 1.84 -> 0.67, HNS 16^3 49.9 -> 32.6)
//   lists, since they scan the near list (tens of entries a row; lists phase):
//                                  4: 1.63  8: 1.60  16: 1.61  32: 1.72   (HNS)
//                                  4: 10.38 8: 10.15 16: 10.30 32: 10.92 (HNS 16^3)
// Rows there hold tens (hbond partners, near-list rows) to hundreds (far and
// skin rows) of entries, so several lanes per row win everywhere; one lane
// per row also leaves Water-6540's few thousand rows too few threads to fill
// the GPU.
// pair_style reaxff/gpu ... lanes "neighbors=8,hbonds=4" overrides any of them
// (puremd::parse_lanes), for experiments.
#pragma once

#include "puremd_gpu/engine_settings.h"

namespace puremd::cuda {

using ThreadMapping = LaneCounts;

// nonbonded=auto: 8 lanes a row once the rows at 8 lanes fill the GPU about
// once (2^18 threads; an H100 holds 270,336), else 16. Nonbonded phase, ms/step
// (H100, bench/README issue 26), 16 / 8 lanes: HNS 2x2x2 0.070 / 0.125,
// Water-6540 0.125 / 0.140, HNS 8^3 1.461 / 1.405, Water 3^3 1.733 / 1.687,
// HNS 16^3 11.35 / 10.82.
inline int nonbonded_lanes(const ThreadMapping &m, int rows) {
  if (m.nonbonded != kLanesAuto) return m.nonbonded;
  return static_cast<long long>(rows) * 8 >= (1 << 18) ? 8 : 16;
}

}  // namespace puremd::cuda
