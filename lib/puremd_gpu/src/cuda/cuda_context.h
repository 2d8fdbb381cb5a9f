// Storage behind the CUDA driver: device arrays that the StepView's plain
// pointers point into (the device twin of host/host_context.h), and the
// pipeline stages, each a host function that launches the stage's kernels
// on the context's stream.
//
// Lists are built by count -> exclusive prefix sum (CUB) -> checked total
// -> grow -> fill, one way for all (list_build.h): the totals of a count
// are read back (one small synchronous copy) before filling, and an array
// that is too small is reallocated with 20 % headroom, so a step never
// overflows and never has to be repeated.
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_buffer.h"
#include "cuda/readback.h"
#include "cuda/thread_mapping.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/lists.h"

namespace puremd::cuda {

constexpr int kNumEnergyTerms = sizeof(Energies) / sizeof(double);
constexpr int kEnergySlots = 64;       // see with_energy_slot() in kernel_utils.cuh
constexpr int kEnergySlotStride = 16;  // doubles between slots (128 bytes)
constexpr int kMaxReduceBlocks = 512;  // partial sums of the virial reduction
static_assert(sizeof(Energies) == kNumEnergyTerms * sizeof(double),
              "Energies must stay a plain array of doubles for the device reduction");

// The engine's read-back slots (CudaContext::totals), 64-bit each.
enum TotalSlot : int {
  kTotalFar = 0,  // far-neighbour pairs
  kTotalBond,     // bond-list entries (each bond twice)
  kTotalHbond,    // hydrogen-bond partner entries
  kTotalThb,      // three-body entries
  kListErrors,    // non-zero: a list invariant broke (bit 0: bond without mirror entry)
  kMaxDisp2,      // bits of max |x - x_build|^2 (a non-negative double) since the skin build
  kTotalReverse,  // entries of the reverse far index (owned rows' pairs)
  kTotalNear,     // entries of the near list
  kNumTotals
};

struct Box {
  vec3 lo, hi;
};

// Cells of a list build: at least the largest row cut-off (plus skin) wide.
struct CellGrid {
  vec3 lo;
  double sx, sy, sz;  // cells per unit length
  int nx, ny, nz;
};

// A cell search as the last list build ran it (cell_search.cuh).
struct CellSearch {
  CellGrid grid;
  int n_local, n_total;
  double cut_local, cut_ghost;
  double skin;  // added to a row's cut-off if that is positive (0: the far list itself)
};

// What the neighbour stage reads back before sizing the cell grid.
struct AtomProbe {
  Box box;
  int bad_atom;  // lowest index with a bad type or non-finite position, INT_MAX if none
};

// Results reduced on the device and copied down once per step.
struct StepScalars {
  double energy[kNumEnergyTerms];  // Energies, in declaration order
  double virial[6];                // sum over atoms of x (x) f: xx yy zz xy xz yz
};

struct CudaContext {
  MemoryTracker mem;
  cudaStream_t stream = nullptr;
  Control control;
  int num_types = 0;
  int vdw_type = 0;
  ThreadMapping lanes;             // threads per row of the long-row stages
  long long resident_threads = 0;  // threads the GPU holds at once (SMs x threads per SM)
  double far_cut = 0.0;            // owned rows of the far list: max(nonb_cut, QEq cut-off)

  // --- current step ---
  int n_local = 0, n_total = 0;
  unsigned terms = kTermAll;
  bool want_eatom = false, want_vatom = false;
  size_t far_total = 0, bond_total = 0, hb_total = 0, thb_total = 0;

  // --- force field, copied once (and the long-range spline tables) ---
  DeviceArray<double> ff_gp{"force field: general parameters", &mem};
  DeviceArray<SingleBodyParams> ff_sbp{"force field: single-body parameters", &mem};
  DeviceArray<TwoBodyParams> ff_tbp{"force field: two-body parameters", &mem};
  DeviceArray<ThreeBodySets> ff_thbp{"force field: three-body parameters", &mem};
  DeviceArray<HbondParams> ff_hbp{"force field: hydrogen-bond parameters", &mem};
  DeviceArray<FourBodySets> ff_fbp{"force field: four-body parameters", &mem};
  DeviceArray<LongRangeTable> lr_tables{"long-range tables", &mem};
  DeviceArray<CubicCoef> lr_coefs{"long-range table coefficients", &mem};
  bool have_lr_tables = false;

  // --- atoms (n_total rows) ---
  DeviceArray<vec3> x{"positions", &mem};
  DeviceArray<int> type{"types", &mem};  // force-field elements (-1: not a ReaxFF atom)
  DeviceArray<long long> tag{"tags", &mem};
  DeviceArray<double> q{"charges", &mem};
  DeviceArray<double> u{"ACKS2 effective potentials", &mem};
  bool have_u = false;  // this step has ACKS2's u (StepInput::u)
  // the caller's types and ids as given (StepInput), mapped / widened into
  // type and tag on the device; ids of 4 or 8 bytes, so 8 bytes a row
  DeviceArray<int> type_in{"atom types as given", &mem};
  DeviceArray<long long> tag_in{"atom ids as given", &mem};
  DeviceArray<int> type_map{"type -> element map", &mem};
  int num_mapped = 0;  // entries of type_map; 0: types are elements
  // the caller's f / eatom / vatom, when the outputs are added to them
  DeviceArray<double> out_in{"caller's outputs", &mem};

  // --- cell binning scratch ---
  DeviceArray<Box> box_partials{"bounding-box partials", &mem};
  DeviceArray<AtomProbe> probe{"atom probe", &mem};
  DeviceArray<int> cell_key{"atom cell keys", &mem};  // cell of atom i
  DeviceArray<int> cell_key_sorted{"sorted cell keys", &mem};
  DeviceArray<int> atom_index{"atom indices", &mem};   // 0..n-1 (sort input)
  DeviceArray<int> cell_atoms{"atoms by cell", &mem};  // atom of sorted slot s
  DeviceArray<vec3> cell_x{"positions by cell", &mem};
  DeviceArray<int> cell_type{"types by cell", &mem};
  DeviceArray<int> cell_start{"cell starts", &mem}, cell_end{"cell ends", &mem};
  CellSearch cells{};  // of the last build of the list behind the far list

  // --- far neighbours, built at every step when there is no skin (with
  //     one, far_rows() is the skin list); far_count counts either ---
  DeviceArray<int> far_count{"far-neighbour counts", &mem};  // n+1
  DeviceArray<ListPos> far_start{"far-neighbour row starts", &mem},
      far_end{"far-neighbour row ends", &mem};
  DeviceArray<int> far_nbr{"far-neighbour list", &mem};  // partners only (pair_geometry)

  // --- skin list: far candidates within cut-off + skin at the positions of
  //     its build, reused while no atom moved more than skin / 2 (a Verlet
  //     list); the far list is read from it (far_rows()) ---
  double skin = 0.0;        // A; 0: no reuse, the far list is built from cells every step
  bool skin_valid = false;  // skin list matches the current atoms (indices, count)
  int skin_n_local = -1, skin_n_total = -1;
  size_t skin_total = 0;
  long skin_builds = 0;  // rebuilds so far (diagnostics)
  DeviceArray<ListPos> skin_start{"skin-list row starts", &mem},
      skin_end{"skin-list row ends", &mem};
  DeviceArray<int> skin_nbr{"skin list", &mem};
  DeviceArray<vec3> skin_x{"positions at the skin-list build", &mem};
  DeviceArray<int> skin_type{"types at the skin-list build", &mem};

  // --- near list: the pairs of the skin list that may become bonds or
  //     hydrogen-bond partners during its life (physics/pair_lists.h
  //     pair_list_near, margin = skin), found at its build, in its rows'
  //     order; each step looks for bonds and hbonds among them only. Without
  //     a skin the far list itself is searched (near_rows()) ---
  size_t near_total = 0;
  DeviceArray<int> near_count{"near-list counts", &mem};  // n+1
  DeviceArray<ListPos> near_start{"near-list row starts", &mem},
      near_end{"near-list row ends", &mem};
  DeviceArray<int> near_nbr{"near list", &mem};
  // the bond / hbond decision of each entry of near_rows(), for the fill
  DeviceArray<unsigned char> pair_flags{"near-pair bond/hbond flags", &mem};

  // --- reverse index of the list behind the far list (the skin list, or the
  //     far list itself without a skin): for each atom j, the owned rows that
  //     hold j, in cell order (cell_search.cuh). Built on request (the QEq
  //     matrix) once per build of that list ---
  long list_builds = 0;     // builds of the list behind the far list
  long rev_built_for = -1;  // the list_builds the reverse index belongs to
  size_t rev_total = 0;
  DeviceArray<int> rev_count{"reverse far-index counts", &mem};          // n+1
  DeviceArray<ListPos> rev_start{"reverse far-index row starts", &mem};  // n+1
  DeviceArray<int> rev_row{"reverse far index", &mem};

  // --- bonds ---
  DeviceArray<int> bond_count{"bond counts", &mem};  // n+1
  DeviceArray<int> bond_start{"bond row starts", &mem}, bond_end{"bond row ends", &mem};
  DeviceArray<int> bond_nbr{"bond list", &mem}, bond_sym{"bond mirror entries", &mem};
  // the row (atom) of each bond entry, for the kernels with a thread per entry
  DeviceArray<int> bond_row{"bond entry rows", &mem};
  DeviceArray<double> bond_d{"bond lengths", &mem};
  DeviceArray<vec3> bond_dvec{"bond vectors", &mem};
  DeviceArray<BondOrder> bond_bo{"bond orders", &mem};

  // --- hydrogen-bond partners ---
  DeviceArray<int> hb_count{"hbond counts", &mem};  // n+1
  DeviceArray<int> hb_start{"hbond row starts", &mem}, hb_end{"hbond row ends", &mem};
  DeviceArray<int> hb_nbr{"hbond list", &mem};

  // --- three-body list (rows = bond entries) ---
  DeviceArray<int> thb_count{"three-body counts", &mem};  // bond_total+1
  DeviceArray<int> thb_start{"three-body row starts", &mem}, thb_end{"three-body row ends", &mem};
  DeviceArray<int> thb_k{"three-body list", &mem}, thb_pthb{"three-body bond entries", &mem};
  DeviceArray<double> thb_theta{"three-body angles", &mem}, thb_cos{"three-body cosines", &mem};

  // --- work items of the bonded item stages (physics/angle_items.h), one
  // stage at a time: (bond entry p, three-body entry s) ---
  DeviceArray<int> item_total{"angle item count", &mem};  // 1
  DeviceArray<int2> items{"angle work items", &mem};      // at most thb_total

  // --- per-atom workspace: one block, zeroed with one memset per step ---
  DeviceArray<double> ws_block{"per-atom workspace", &mem};  // kWorkspaceBlockDoubles per atom
  size_t ws_stride = 0;                                      // atoms per array (= atom capacity)

  // --- outputs ---
  DeviceArray<vec3> grad{"gradients", &mem};
  DeviceArray<double> eatom{"per-atom energies", &mem}, vatom{"per-atom virials", &mem};
  DeviceArray<double> energy_slots{"energy slots", &mem};
  DeviceArray<double> virial_partials{"virial partial sums", &mem};
  DeviceArray<StepScalars> scalars{"step scalars", &mem};
  Readback<TotalSlot, kNumTotals> totals{"list totals", &mem};
  // analysis tables (cuda_analysis.cu), made only when asked for
  DeviceArray<double> extract_d{"bond-table scratch", &mem};
  DeviceArray<int> rows_count{"analysis bond rows: counts", &mem};
  DeviceArray<int> rows_start{"analysis bond rows: starts", &mem};
  DeviceArray<int> rows_nbr{"analysis bond rows: partners", &mem};
  DeviceArray<double> rows_bo{"analysis bond rows: orders", &mem};

  // --- CUB temporary storage ---
  DeviceArray<unsigned char> cub_temp{"CUB temporary storage", &mem};

  // --- pinned host staging ---
  PinnedArray<AtomProbe> h_probe{"atom probe (host)"};

  // The rows the bond and hbond lists are found in: the near list, or the
  // far list when there is no skin list.
  struct PairRows {
    const ListPos *start, *end;
    const int *nbr;
    size_t total;  // entries (room)
  };
  PairRows near_rows() const;
  // The far list's rows: the skin list while it is valid (every reader keeps
  // to its own cut-off at the current positions, a test each made anyway:
  // no per-step copy of the pairs within range, nor its memory), else the
  // far list built at this step.
  PairRows far_rows() const;

  // The view of the current arrays (device pointers only); rebuilt on each
  // call, so arrays may grow between stages.
  StepView view() const;

  // Exclusive prefix sum out[0..n) of in[0..n) (CUB), on the stream; Pos
  // int or ListPos (the pair lists' row starts).
  template <class Pos>
  void exclusive_scan(const int *in, Pos *out, size_t n);
};

// A list's entry count read back from `totals`, checked against the 32-bit
// list index unless the list's rows are `wide` (ListPos) (`what` names the
// list in the message).
size_t checked_list_total(unsigned long long total, const char *what, int n_atoms, bool wide);

// ---------------------------------------------------------------------------
// Pipeline stages, in step order. Atom ranges are those of the host stages.
// ---------------------------------------------------------------------------
void build_far_neighbors(CudaContext &c);  // cells on the GPU, all atoms
// The far list of this step (far_rows()): the skin list (rebuilt when
// atoms_reordered, the atom counts changed or an atom moved more than
// skin / 2), or build_far_neighbors() when c.skin <= 0.
void update_far_neighbors(CudaContext &c, bool atoms_reordered);
// The near list of the skin list just built (near_*; cuda_near_list.cu).
void build_near_list(CudaContext &c);
// The reverse index of the list behind the far list (rev_*), if that list
// was rebuilt since the last call.
void update_reverse_far_index(CudaContext &c);
void build_bond_and_hbond_lists(CudaContext &c);   // uncorrected BO, bonds, hbond partners
void compute_bond_orders(CudaContext &c);          // all atoms: Deltap, corrected BO, Delta's
void build_three_body_list(CudaContext &c);        // all atoms: count, scan, fill
void compute_bonded(CudaContext &c);               // owned: the stages of physics/stages.h
void compute_hydrogen_bonds(CudaContext &c);       // owned hydrogens
void compute_nonbonded(CudaContext &c);            // owned: vdW + Coulomb, polarization
void apply_bond_order_chain_rule(CudaContext &c);  // all atoms
void reduce_outputs(CudaContext &c);               // energies + virial -> scalars

}  // namespace puremd::cuda
