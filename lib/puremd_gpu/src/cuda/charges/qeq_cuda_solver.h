// The CUDA QEq solver: the problem of the host reference solver
// (src/host/charges/host_qeq_solver.h), same CG and iteration counting, with
// the matrix built and both systems solved on the GPU. It is the charge stage
// of the CUDA driver, part of the CudaEngine (CudaEngine::solve_charges): the
// engine's stream, memory tracker and CUB scratch, its atoms and far list
// (EngineAtoms). The solve reads top-down in qeq_cuda_solve.cu (solve_on);
// each of its pieces is chosen once per solve, on the host, and lives in
// files of its own:
//   input        qeq_cuda_input.cu: the caller's group and parameters up,
//                checked on the GPU, the rows; the history's mirror
//   ghosts       CudaGhostMap (qeq_cuda_ghost_map.h): which owned atom a ghost
//                is an image of (by id, once per reordering), the fold of
//                those ghosts' rows; other ranks' ghosts through the halo
//                (halo_exchange.h, its transports: halo_transport.h)
//   matrix       QEqMatrixStore (qeq_matrix_store.h): Full, Half in tiles or
//                rows, Free, each in qeq_matrix_*.cu; which one:
//                common/charges/qeq_matrix_choice.h
//   preconditioner  CudaPreconditioner by name (cuda_preconditioner.h;
//                Jacobi: qeq_cuda_jacobi.cu)
//   CG           CudaKrylov (qeq_cuda_krylov.h, qeq_cuda_cg.cu): its
//                workspace and CG; where its scalars live, CgScalars
//                (qeq_cg_scalars.h: the GPU, peer GPUs, or home through
//                QEqComm::sum; which one: common/charges/qeq_scalars_home.h)
//   models       another charge model (QEqProblem::model) through its
//                registered implementation (cuda_charge_model.h): QTPIE in
//                qeq_cuda_qtpie.cu, ACKS2 in qeq_cuda_acks2*; a model sees
//                the solve through CudaSolveContext (cuda_solve_context.h)
// The parts share value types (qeq_cuda_types.h), not this header: only the
// files that define the solver's own steps include it.
//
// Matrix rows. An owned row i holds every active partner within cut_hi
// (owned partners, and ghosts as the pair-ownership rule keeps them); a
// ghost that is an image of this rank's own atom has a row of the pairs
// kept with it, folded into its owner after each product, so the charges
// are those of the host solver's rows, where such a pair sits in full in the
// owned row; another rank's ghost has no row: its pairs are kept in full in
// the owned rows and its value comes through the halo, so nothing is sent
// back. Half and Free hold each pair once and add the transpose by atomics.
//
// CG. s and t are solved together: one vector of double2 (s, t) per CG
// quantity, one product for both right-hand sides, fused vector updates with
// block partial sums finished on the GPU. A system that has converged is
// frozen; iteration counts are those of two separate CG runs.
//
// History: the caller's ChargeHistory, extrapolated and shifted on the GPU
// (physics/qeq_history.h) in a mirror attached to it (CudaHistoryMirror),
// where it stays between solves; the history brings it home only when its
// host API is used (LAMMPS sorting or exchanging atoms).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/charges/acks2_bicgstab.h"
#include "common/charges/qeq_cg_loop.h"
#include "common/charges/qeq_matrix_choice.h"
#include "cuda/charges/cuda_charge_model.h"
#include "cuda/charges/cuda_preconditioner.h"
#include "cuda/charges/cuda_solve_context.h"
#include "cuda/charges/halo_exchange.h"
#include "cuda/charges/qeq_cuda_ghost_map.h"
#include "cuda/charges/qeq_cuda_krylov.h"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/charges/qeq_matrix_pool.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_atoms.h"
#include "cuda/readback.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

// A ChargeHistory's blocks on the GPU (ChargeHistory::Mirror): owned by the
// history, so not on an engine's tracker (the fix reports it to LAMMPS).
class CudaHistoryMirror final : public ChargeHistory::Mirror {
 public:
  explicit CudaHistoryMirror(int device) : device_(device) {}
  void fetch(double *host, std::size_t count) override;
  double *gpu_room(std::size_t kept, std::size_t count, const double *host,
                   std::size_t uploaded) override;
  std::size_t bytes() const override { return values.capacity() * sizeof(double); }
  int device() const { return device_; }
  DeviceArray<double> values{"QEq: charge history (the caller's)", nullptr};

 private:
  int device_;
};

class CudaQEqSolver final : public CudaSolveContext {
 public:
  // On the engine's device, stream, memory tracker and CUB scratch.
  CudaQEqSolver(int device, cudaStream_t stream, MemoryTracker &mem,
                DeviceArray<unsigned char> &cub_scratch);
  ~CudaQEqSolver();
  CudaQEqSolver(const CudaQEqSolver &) = delete;
  CudaQEqSolver &operator=(const CudaQEqSolver &) = delete;
  // The solve on the engine's atoms and far list of this step; `in` gives
  // the settings, the group, the parameters and the ghost information.
  QEqResult solve_on(const EngineAtoms &atoms, const QEqInput &in, ChargeHistory &history,
                     QEqComm &comm, double *q);
  // Whether a solve of `p` on n_local owned atoms may read the engine's
  // reverse far index (the engine builds it only then).
  bool reads_reverse_index(const QEqProblem &p, int n_local, int n_total, long long row_room);
  // After solve_on: if the solve left every charge of the step on the GPU
  // (owned and ghosts: a group with rows, ghosts refreshed on the device),
  // copies them to dst (n_total, device) and returns true.
  bool copy_charges(double *dst);

  // --- The solve lent to a model (cuda_solve_context.h)
  cudaStream_t stream() const override { return stream_; }
  const EngineAtoms &atoms() const override { return atoms_; }
  const ParamArgs &params() const override { return params_; }
  CudaSolveParts parts() override;
  unsigned reduce_blocks() const override { return CudaKrylov::reduce_blocks(n_rows_); }
  void finish_sums(unsigned nblocks, int nc, double *out) override {
    krylov_.finish_sums(nblocks, nc, out);
  }
  ImageMap image_map() const override;
  void build_image_map(const int *row_counts) override {
    ghosts_.build_image_map(row_counts, n_local_, n_total_);
  }
  void forward_halo(double2 *v, QEqComm &comm) override {
    if (halo_mode_) halo_.forward(v, comm);
  }
  void note_halo(QEqResult &res) const override {
    if (!halo_mode_) return;
    res.halo_peers_copy = halo_.peers_by_copy();
    res.halo_peers_mpi = halo_.peers_by_mpi();
  }
  // (qeq_cuda_solve.cu)
  void results_home(const ResultHome *out, int count, QEqComm &comm,
                    const std::function<void()> &set_rows) override;

 private:
  // --- qeq_cuda_input.cu
  // Checks the input as the host solver does (on the GPU; the verdict comes
  // home with the matrix size), uploads the caller's arrays as they are,
  // selects the rows, finds the ghost owners, sizes the work vectors.
  void setup(const QEqInput &in, ChargeHistory &history);
  // The history of the owned atoms on the GPU, in its mirror (see the .cu).
  double *history_on_device(ChargeHistory &history, int nl);

  // Whether CG's scalars stay on the GPU (one rank with rows): mu then too.
  bool scalars_on_device(const QEqComm &comm) const;
  // Ghost entries of a per-atom result from their owners (several ranks:
  // the halo exchange, which every rank joins; one rank: the gather).
  void refresh_ghost_charges(double *q, QEqComm &comm);

  // --- qeq_cuda_matrix.cu
  void build_matrix(const QEqInput &in);
  QEqFormatQuery format_query(const EngineAtoms &f, bool tiles_held) const;
  bool store_fits(long long room) const;
  bool half_fits(long long row_room, int n_local, int n_total, bool tiles_held, bool fsai) const;
  bool adding_fits(long long room, std::size_t held, std::size_t bytes) const;
  void read_matrix_size(const QEqInput &in);
  // the store taken last holds H in tiles (before a solve: the last
  // solve's tiles are held)
  bool tiles_held() const { return qeq_store_traits(store_kind_).tiles; }
  // this solve's store from now on (made at its first use)
  void take_store(QEqStore k);
  // this solve's model reads H in its own products (CudaChargeModel::own_product)
  bool own_product() const;

  // --- qeq_cuda_solve.cu
  // y = H v; ghost rows still to be folded. A product whose `running` flag
  // (device, CgStep::running) is 0 does nothing.
  void multiply(const double2 *v, double2 *y, const int *running);

  int device_;
  cudaStream_t stream_;                  // the engine's
  MemoryTracker &mem_;                   // the engine's: every device array below
  DeviceArray<unsigned char> &cub_tmp_;  // the engine's CUB scratch
  QEqSettings settings_;                 // of the solve in progress
  Taper taper_;
  double *hist_dev_ = nullptr;  // the history's mirror, during a solve
  // the multipliers' past solutions (ACKS2: the history's global block, laid
  // out as one atom's block: the u multiplier where s goes, the q one where t goes)
  double *global_hist_ = nullptr;
  int hist_depth_ = kQEqHistoryDepth;  // the history's (ChargeHistory::depth)
  EngineAtoms atoms_;                  // of the solve in progress
  QEqRowArgs row_args_{};              // the row rules' inputs of the solve in progress
  // Several ranks (QEqComm::size() > 1): ghosts of this rank's atoms are
  // found by id (ghosts_), the others' values come through halo_.
  bool halo_mode_ = false;
  int n_local_ = 0, n_total_ = 0, n_rows_ = 0;
  long long nnz_ = 0, nonempty_rows_ = 0;
  ParamArgs params_{};
  bool flags_ = false;  // active_dev_ holds which atoms take part (has_exclusions)
  // a tile's partners overflowed its table once: Auto prefers Full from then on
  bool tiles_overflowed_ = false;
  long long solves_ = 0;  // solves begun (QEqMatrix::Auto's first solve)
  // CG's preconditioner (QEqSettings::preconditioner, made when the name changes)
  std::unique_ptr<CudaPreconditioner> precond_;
  std::string precond_name_;
  // QEq's own model: what the interface does by default (cuda_charge_model.h)
  struct PlainQEq final : CudaChargeModel {
    void setup(const QEqInput &, CudaSolveContext &) override {}
  } plain_qeq_;
  // another model's implementation (kept between solves), and this solve's
  ModelSlot<CudaChargeModel, MemoryTracker &> models_;
  CudaChargeModel *model_ = &plain_qeq_;

  std::vector<double> shield_;

  // input (the group flags as given, then as the kernels read them)
  DeviceArray<double> chi_dev_{"QEq: chi", &mem_}, eta_dev_{"QEq: eta", &mem_},
      gamma_dev_{"QEq: gamma", &mem_}, shield_dev_{"QEq: shielding table", &mem_},
      shift_dev_{"QEq: chi shifts", &mem_};
  DeviceArray<int> active_in_{"QEq: group as given", &mem_}, active_dev_{"QEq: group", &mem_},
      type_map_dev_{"QEq: type map", &mem_};
  // rows of H and the checks of the input
  DeviceArray<int> row_flag_{"QEq: row flags", &mem_}, iota_{"QEq: owned indices", &mem_},
      rows_dev_{"QEq: rows", &mem_};
  // the matrix's arrays, and the ways of holding it (qeq_matrix_store.h),
  // made once; this solve's (QEqResult::matrix) and what it reads of the solve
  QEqMatrixPool pool_{mem_};
  std::unique_ptr<QEqMatrixStore> stores_[kNumQEqStores];
  QEqStore store_kind_ = QEqStore::Full;
  QEqMatrixStore *store_ = nullptr;
  std::unique_ptr<QEqMatrixSolve> ms_;
  DeviceArray<double> diag_{"QEq: matrix diagonal", &mem_},
      diag_inv_{"QEq: Jacobi diagonal", &mem_}, q_dev_{"QEq: charges", &mem_};
  CudaKrylov krylov_{stream_, mem_};  // CG's workspace, and CG
  Readback<QEqSlot, kNumQEqSlots> slots_{"QEq: sizes and checks", &mem_};
  // ghosts of this rank's atoms: owners and the fold of their rows
  CudaGhostMap ghosts_{stream_, mem_, cub_tmp_, slots_};
  CudaHalo halo_{stream_, mem_};  // halo mode's exchange plan and buffers
};

}  // namespace puremd::cuda
