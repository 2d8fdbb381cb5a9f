// What a user may tune, as keywords of pair_style reaxff/gpu (doc/
// pair_reaxff_gpu.md), parsed and checked once and handed to make_engine.
#pragma once

#include <string>

namespace puremd {

// Threads per row of the CUDA stages with long rows (src/cuda/
// thread_mapping.h has the measurements behind the defaults): 1, 2, 4, 8,
// 16 or 32 each; nonbonded also kLanesAuto.
constexpr int kLanesAuto = 0;
struct LaneCounts {
  int neighbors = 32;   // cell search of the far / skin list (count + fill)
  int compaction = 32;  // skin list -> near list, at each build of the skin list
  int hbonds = 32;      // acceptor entries of an owned hydrogen
  // far entries of an owned atom; auto: 8 where the rows alone fill the GPU,
  // else 16 (nonbonded_lanes, thread_mapping.h)
  int nonbonded = kLanesAuto;
  int lists = 8;  // near entries scanned for bonds and hbond partners (count + fill)

  std::string describe() const;  // "neighbors=32,compaction=32,..."
};

// "stage=lanes" items separated by commas, e.g. "nonbonded=8,hbonds=4"
// ("nonbonded=auto" too); the stages not named keep their defaults. Throws
// InputError naming the bad item.
LaneCounts parse_lanes(const std::string &spec);

struct EngineSettings {
  bool timing = false;  // per-phase device times (Engine::phase_times); costs a sync per phase
  LaneCounts lanes;     // CUDA driver
  // Skin (A) of the CUDA driver's own Verlet list, fixed for the engine's
  // life: the list holds pairs within cut-off + skin and is rebuilt when an
  // atom has moved more than skin / 2; 0 builds a list every step. The LAMMPS
  // adapter gives pair_style's `skin`, else LAMMPS's neighbor skin (a new
  // skin, a new engine). The host driver builds a list every step.
  double list_skin = 2.0;
  // MPI ranks (one GPU each) the system is spread over now: only for the
  // advice of an out-of-memory error ("run on at least R GPUs").
  int ranks = 1;
};

}  // namespace puremd
