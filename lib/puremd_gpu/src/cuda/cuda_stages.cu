// The force/energy stages of the CUDA driver: the per-atom bodies of
// physics/*.h over the same atom ranges as the host stages
// (src/host/host_*.cpp), then the reductions of the outputs.
//
// Most stages are one thread per atom (k_atom_stage<Body>; Body is a
// tiny functor naming the physics function(s), so a profiler shows e.g.
// k_atom_stage<DeltapChainRuleBody>); the bonded stages of that kind run
// in one kernel (AtomBondedBody). Valence angles and torsions are work
// items, a thread per angle (k_angle_items<Items>, physics/angle_items.h).
// Hydrogen bonds, nonbonded pairs and the corrected bond orders have a row /
// entry / finish split in their physics header; they run a group of lanes per
// atom (k_row_group<Family, L>), the lanes' row sums added by shuffles.
// Stages that add energies use a per-block
// energy slot (with_energy_slot); the slots and the virial are reduced in a
// fixed order at the end of the step. Within a slot, and for the gradients
// and bond-order derivatives that several threads add into (atomic_add),
// the order of the additions is not fixed: results vary from run to run at
// round-off level (doc/design.md, "Reproducibility").
#include <cub/block/block_reduce.cuh>

#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/hydrogen_bond.h"
#include "puremd_gpu/physics/nonbonded.h"
#include "puremd_gpu/physics/stages.h"

namespace puremd::cuda {
namespace {

// ---------------------------------------------------------------------------
// Per-atom bodies. kTallies: the body adds energies (needs an energy slot).

// the bonded stages of physics/stages.h: BondEnergyBody, LonePairBody, ...
// (kLanes == kAngleItems: work items of Items, launch_angle_items)
#define PUREMD_CUDA_BODY(Name, body, lanes)                            \
  struct Name##Body {                                                  \
    static constexpr bool kTallies = true;                             \
    static constexpr int kLanes = lanes;                               \
    using Items = ::puremd::Name##Items; /* complete for items only */ \
    /* a template: instantiated only where its kernel uses it */       \
    template <class View>                                              \
    __device__ void operator()(int i, const View &v) const {           \
      body(i, v);                                                      \
    }                                                                  \
  };
PUREMD_BONDED_STAGES(PUREMD_CUDA_BODY)
#undef PUREMD_CUDA_BODY
// A thread per bond entry p of row i (k_bond_entry): each bond once,
// from the entry in the row of its lower index.
struct ChainRuleEntry {
  __device__ void operator()(int i, int p, const StepView &v) const {
    if (i < v.bonds.nbr[p]) bond_chain_rule(i, p, v);
  }
};
struct DeltapChainRuleBody {
  static constexpr bool kTallies = false;
  __device__ void operator()(int i, const StepView &v) const { deltap_chain_rule_atom(i, v); }
};

template <class Body>
__global__ void __launch_bounds__(kAtomBlock) k_atom_stage(const StepView v, int begin, int end) {
  const int i = begin + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= end) return;
  if constexpr (Body::kTallies) {
    const StepView w = with_energy_slot(v);
    Body{}(i, w);
  } else {
    Body{}(i, v);
  }
}

// A thread per bond entry (the chain rule: 1.53 -> 1.26 ms at HNS 16^3 against
// a thread per atom; the corrected bond orders and the bond-list finish were
// slower this way than with a group of lanes per row, bench/README issue 26).
template <class Body>
__global__ void __launch_bounds__(kAtomBlock)
    k_bond_entry(const StepView v, const int *bond_row, int nb) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < nb) Body{}(bond_row[p], p, v);
}

// Work items of a bonded stage (physics/angle_items.h), a thread per bond
// entry p (row j = bond_row[p], an owned centre): the entries [first, last) of
// row p that Items::range names, appended as (p, s) where its warp's place
// was taken with one atomic. In one pass, where a count, a prefix sum over
// the bond entries and a fill took three; the order of the items differs
// from warp to warp, that of the energy and gradient sums no more than the
// atomics' order already does.
template <class Items>
__global__ void __launch_bounds__(kAtomBlock)
    k_angle_items_list(const StepView v, const int *bond_row, int nb, int2 *items, int *count) {
  const LaneGroup<32> g;
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  int first = 0, last = 0;
  if (p < nb) {
    const int j = bond_row[p];
    if (j < v.atoms.n_local && Items::centre_on(j, v)) Items::range(j, p, v, first, last);
  }
  int total;
  const int before = g.prefix(last - first, total);  // every lane of the warp gets here
  int base = 0;
  if (g.lane == 0 && total) base = atomicAdd(count, total);
  base = __shfl_sync(g.mask, base, 0) + before;
  for (int s = first; s < last; ++s) items[base + (s - first)] = make_int2(p, s);
}

// The per-centre work before a stage's items (Items::before), where a stage
// has any.
template <class Items>
__device__ __forceinline__ void angle_items_before(int j, const StepView &v) {
  if constexpr (Items::kBefore)
    if (Items::centre_on(j, v)) Items::before(j, v);
}

// The bonded stages of owned atom i in one thread: those that are a thread
// per atom (lanes 1 in physics/stages.h), in their order, and the item
// stages' per-centre `before`. Each adds only to its own row's bond records
// and, atomically, to CdDelta and the gradients, and none reads what another
// writes: one kernel reads row i once where one a stage read it three times.
template <class Body, int Lanes = Body::kLanes>
struct AtomPart {
  static_assert(Body::kTallies && Lanes == 1, "a bonded stage is a thread per atom or work items");
  __device__ static void run(int i, const StepView &v) { Body{}(i, v); }
};
template <class Body>
struct AtomPart<Body, kAngleItems> {
  __device__ static void run(int i, const StepView &v) {
    angle_items_before<typename Body::Items>(i, v);
  }
};
struct AtomBondedBody {
  static constexpr bool kTallies = true;
  __device__ void operator()(int i, const StepView &v) const {
#define PUREMD_CUDA_ATOM_PART(Name, body, lanes) AtomPart<Name##Body>::run(i, v);
    PUREMD_BONDED_STAGES(PUREMD_CUDA_ATOM_PART)
#undef PUREMD_CUDA_ATOM_PART
  }
};

// Blocks of kAtomBlock threads an SM is to hold at once (__launch_bounds__'s
// second argument, a ceiling on registers) where more warps pay for the
// spills; 0 leaves the compiler's choice (bench/README, issue 26, at HNS 16^3:
// nonbonded at 96 registers 19.1 -> 11.4 ms; torsions at 128, below).
template <class T>
struct MinBlocksPerSM {
  static constexpr int value = 0;
};

// A thread per item; the grid covers the most there can be (an item is a
// three-body entry), the count is read on the GPU.
template <class Items>
__global__ void __launch_bounds__(kAtomBlock, MinBlocksPerSM<Items>::value)
    k_angle_items(const StepView v, const int *bond_row, const int2 *items, const int *count) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= *count) return;
  const int2 it = items[w];
  Items::item(bond_row[it.x], it.x, it.y, with_energy_slot(v));
}

// Row families for k_row_group: Row (with active, first, last), Sums
// (plain doubles), entry() for one list entry, finish() in lane 0.
struct HydrogenBondFamily {
  using Row = HbondRow;
  using Sums = HbondSums;
  __device__ static Row row(int h, const StepView &v) { return hbond_row(h, v); }
  __device__ static void entry(const Row &r, int p, const StepView &v, Sums &s) {
    hbond_acceptor(r, p, v, s);
  }
  __device__ static void finish(int, const Row &r, const Sums &s, const StepView &v) {
    hbond_row_finish(r, s, v);
  }
};
// The corrected bond orders once a bond (from the lower row), each order
// added to both atoms' totals, then each atom's values from its total: half
// the exponentials of a pass that corrects each row's copy (the host's
// corrected_bond_order_atom; the same orders), and no second pass over the
// records to sum them (HNS 16^3: 0.34 ms).
struct CorrectedBoLowerFamily {
  using Row = CorrectedBoRow;
  using Sums = CorrectedBoSums;  // row i's bonds to higher partners
  __device__ static Row row(int i, const StepView &v) { return corrected_bo_row(i, v); }
  __device__ static void entry(const Row &r, int p, const StepView &v, Sums &s) {
    corrected_bo_lower(r, p, v, s);
  }
  __device__ static void finish(int i, const Row &r, const Sums &s, const StepView &v) {
    if (r.active && s.sum_bo != 0.0) atomic_add(&v.ws.total_bond_order[i], s.sum_bo);
  }
};
struct CorrectedBoFinishBody {
  static constexpr bool kTallies = false;
  __device__ void operator()(int i, const StepView &v) const {
    const CorrectedBoRow r = corrected_bo_row(i, v);
    corrected_bo_finish(r, CorrectedBoSums{v.ws.total_bond_order[i]}, v);
  }
};
struct NonbondedFamily {
  using Row = NonbondedRow;
  using Sums = NonbondedSums;
  __device__ static Row row(int i, const StepView &v) { return nonbonded_row(i, v); }
  __device__ static void entry(const Row &r, int p, const StepView &v, Sums &s) {
    nonbonded_pair(r, p, v, s);
  }
  __device__ static void finish(int i, const Row &r, const Sums &s, const StepView &v) {
    nonbonded_row_finish(r, s, v);
    polarization_atom(i, v);
  }
};

template <>
struct MinBlocksPerSM<ValenceAnglesItems> {
  static constexpr int value = 4;  // at most 128 registers (148 at the compiler's choice)
};
template <>
struct MinBlocksPerSM<TorsionsItems> {
  // at most 128 registers (186 at the compiler's choice; 228 bytes of spills):
  // bonded 8.59 -> 8.30 ms at HNS 16^3 against 168 registers
  static constexpr int value = 4;
};
template <>
struct MinBlocksPerSM<NonbondedFamily> {
  static constexpr int value = 5;  // at most 96 registers, 8 bytes of spills (126 uncapped)
};

template <class Family, int L>
__global__ void __launch_bounds__(kAtomBlock, MinBlocksPerSM<Family>::value)
    k_row_group(const StepView v, int begin, int end) {
  const LaneGroup<L> g;
  const int i = begin + static_cast<int>(g.row());
  const StepView w = with_energy_slot(v);
  typename Family::Row row;
  if (i < end) row = Family::row(i, w);
  typename Family::Sums s{};
  if (row.active)
    for (auto p = row.first + g.lane; p < row.last; p += L) Family::entry(row, p, w, s);
  g.sum_all(s);  // every lane of the warp gets here: no early return above
  if (i < end && g.lane == 0) Family::finish(i, row, s, w);
}

template <class Family>
void launch_rows(CudaContext &c, const char *name, int begin, int end, int lanes) {
  if (end <= begin) return;
  dispatch_lanes(lanes, [&](auto l) {
    constexpr int L = decltype(l)::value;
    k_row_group<Family, L><<<blocks_for(static_cast<long long>(end - begin) * L, kAtomBlock),
                             kAtomBlock, 0, c.stream>>>(c.view(), begin, end);
  });
  PMD_CUDA_CHECK_LAUNCH(name, c.stream);
}

template <class Body>
void launch_bond_entries(CudaContext &c, const char *name) {
  const size_t nb = c.bond_total;
  if (nb == 0) return;
  k_bond_entry<Body>
      <<<blocks_for(static_cast<long long>(nb), kAtomBlock), kAtomBlock, 0, c.stream>>>(
          c.view(), c.bond_row.data(), static_cast<int>(nb));
  PMD_CUDA_CHECK_LAUNCH(name, c.stream);
}

template <class Body>
void launch_atoms(CudaContext &c, const char *name, int begin, int end) {
  if (end <= begin) return;
  k_atom_stage<Body>
      <<<blocks_for(end - begin, kAtomBlock), kAtomBlock, 0, c.stream>>>(c.view(), begin, end);
  PMD_CUDA_CHECK_LAUNCH(name, c.stream);
}

// A stage of work items: list them (c.items, shared by the item stages,
// which run one after the other), then run them (the per-centre `before`
// ran in AtomBondedBody).
template <class Items>
void launch_angle_items(CudaContext &c, const char *name) {
  const int nl = c.n_local;
  const size_t nb = c.bond_total, most = c.thb_total;
  if (nl == 0 || nb == 0 || most == 0) return;
  cudaStream_t st = c.stream;
  c.item_total.reserve_discarding(1);
  c.items.reserve_discarding(most, kGrowHeadroom);
  PMD_CUDA_CHECK(cudaMemsetAsync(c.item_total.data(), 0, sizeof(int), st));
  const unsigned bond_grid = blocks_for(static_cast<long long>(nb), kAtomBlock);
  k_angle_items_list<Items><<<bond_grid, kAtomBlock, 0, st>>>(
      c.view(), c.bond_row.data(), static_cast<int>(nb), c.items.data(), c.item_total.data());
  PMD_CUDA_CHECK_LAUNCH("k_angle_items_list", st);
  k_angle_items<Items><<<blocks_for(static_cast<long long>(most), kAtomBlock), kAtomBlock, 0, st>>>(
      c.view(), c.bond_row.data(), c.items.data(), c.item_total.data());
  PMD_CUDA_CHECK_LAUNCH(name, st);
}

// The item stages of physics/stages.h (the others ran in AtomBondedBody).
template <class Body>
void launch_item_stage(CudaContext &c, const char *name) {
  if constexpr (Body::kLanes == kAngleItems) {
    static_assert(Body::kTallies, "item stages tally energies (with_energy_slot)");
    launch_angle_items<typename Body::Items>(c, name);
  }
}

// ---------------------------------------------------------------------------
// Output reductions.

struct Virial {
  double v[6];
};
struct VirialSum {
  __device__ Virial operator()(const Virial &a, const Virial &b) const {
    Virial r;
    for (int k = 0; k < 6; ++k) r.v[k] = a.v[k] + b.v[k];
    return r;
  }
};

// Partial sums of -x_i (x) grad_i (= x (x) f) over a grid-stride range of atoms.
__global__ void __launch_bounds__(kReduceBlock)
    k_virial_partials(const vec3 *x, const vec3 *grad, int n, Virial *partials) {
  Virial s{};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double w[6];
    virial_of(x[i], grad[i], w);
    for (int k = 0; k < 6; ++k) s.v[k] += w[k];
  }
  using Reduce = cub::BlockReduce<Virial, kReduceBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Virial r = Reduce(tmp).Reduce(s, VirialSum{});
  if (threadIdx.x == 0) partials[blockIdx.x] = r;
}

// One block: the virial partials and the energy slots, each summed in a
// fixed order, into StepScalars.
__global__ void __launch_bounds__(kReduceBlock)
    k_finalize(const Virial *partials, int n_partials, const double *energy_slots,
               StepScalars *out) {
  Virial s{};
  for (int k = threadIdx.x; k < n_partials; k += blockDim.x) s = VirialSum{}(s, partials[k]);
  using Reduce = cub::BlockReduce<Virial, kReduceBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Virial r = Reduce(tmp).Reduce(s, VirialSum{});
  if (threadIdx.x == 0)
    for (int k = 0; k < 6; ++k) out->virial[k] = r.v[k];
  if (threadIdx.x < kNumEnergyTerms) {
    double e = 0.0;
    for (int slot = 0; slot < kEnergySlots; ++slot)
      e += energy_slots[slot * kEnergySlotStride + threadIdx.x];
    out->energy[threadIdx.x] = e;
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Stages (atom ranges as in src/host/).

constexpr int kBondOrderLanes = 4;  // lanes per bond row for the corrected bond orders

void compute_bond_orders(CudaContext &c) {
  // (pass 1, the BO' totals, was added up by the bond-list finish)
  // a few bonds a row, each with its exponentials: lanes over them (a thread
  // per atom waited on latency: 1.0 of the 1.14 ms of the phase at HNS 8^3;
  // a thread per bond entry was slower still, 4.14 -> 4.45 ms at HNS 16^3)
  launch_rows<CorrectedBoLowerFamily>(c, "corrected bond orders (k_row_group)", 0, c.n_total,
                                      kBondOrderLanes);
  launch_atoms<CorrectedBoFinishBody>(c, "corrected_bo_finish", 0, c.n_total);
}

void compute_bonded(CudaContext &c) {
  launch_atoms<AtomBondedBody>(c, "bonded stages of an atom (k_atom_stage)", 0, c.n_local);
#define PUREMD_CUDA_STAGE(Name, body, lanes) launch_item_stage<Name##Body>(c, #body);
  PUREMD_BONDED_STAGES(PUREMD_CUDA_STAGE)
#undef PUREMD_CUDA_STAGE
}

void compute_hydrogen_bonds(CudaContext &c) {
  if (c.control.hbond_cut <= 0.0 || !(c.terms & kTermHbond)) return;
  launch_rows<HydrogenBondFamily>(c, "hydrogen bonds (k_row_group)", 0, c.n_local, c.lanes.hbonds);
}

void compute_nonbonded(CudaContext &c) {
  launch_rows<NonbondedFamily>(c, "nonbonded + polarization (k_row_group)", 0, c.n_local,
                               nonbonded_lanes(c.lanes, c.n_local));
}

void apply_bond_order_chain_rule(CudaContext &c) {
  launch_bond_entries<ChainRuleEntry>(c, "bond chain rule (k_bond_entry)");
  launch_atoms<DeltapChainRuleBody>(c, "deltap_chain_rule_atom", 0, c.n_total);
}

void reduce_outputs(CudaContext &c) {
  const int n = c.n_total;
  const int blocks = static_cast<int>(
      std::min<long long>(kMaxReduceBlocks, std::max(1u, blocks_for(n, kReduceBlock))));
  c.virial_partials.reserve_discarding(kMaxReduceBlocks * sizeof(Virial) / sizeof(double));
  c.scalars.reserve_discarding(1);
  Virial *partials = reinterpret_cast<Virial *>(c.virial_partials.data());
  k_virial_partials<<<blocks, kReduceBlock, 0, c.stream>>>(c.x.data(), c.grad.data(), n, partials);
  PMD_CUDA_CHECK_LAUNCH("k_virial_partials", c.stream);
  k_finalize<<<1, kReduceBlock, 0, c.stream>>>(partials, blocks, c.energy_slots.data(),
                                               c.scalars.data());
  PMD_CUDA_CHECK_LAUNCH("k_finalize", c.stream);
}

}  // namespace puremd::cuda
