// The per-atom history of past charge solutions, from which each solve
// extrapolates its initial guess (physics/qeq_history.h): one block of
// per_atom() = 2 depth() doubles per atom (QEq: the s history, then the t
// history; ACKS2: q, then u), plus the same block for the problem's global
// unknowns (ACKS2's two multipliers). The depth is the predictors' four past
// values, or more for an extended Lagrangian of higher order
// (qeq_history_depth); it is fixed when the history is made.
//
// It belongs to the caller, not to an engine: LAMMPS moves it with the atoms
// (the fix's grow / copy / pack / unpack callbacks call grow, copy, pack and
// unpack), and it outlives the engine that solved with it (a new pair
// setting makes a new engine; the history carries over).
//
// A driver may keep the newest values where it solves (the CUDA driver, on
// its GPU) in a mirror it attaches here; the mirror belongs to the history.
// Every host access below first brings those values home, so the caller never
// sees a stale entry (the role of Kokkos's DualView sync).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "puremd_gpu/physics/qeq_history.h"

namespace puremd {

class ChargeHistory {
 public:
  // A driver's copy of the first rows() atoms' blocks.
  class Mirror {
   public:
    virtual ~Mirror() = default;
    // Copy the first `count` doubles into host (the blocks, in order).
    virtual void fetch(double *host, std::size_t count) = 0;
    // Room for `count` doubles in GPU memory, the first `kept` kept and the
    // rest zero; then `host` (when given) copied over the first `uploaded`.
    virtual double *gpu_room(std::size_t kept, std::size_t count, const double *host,
                             std::size_t uploaded) = 0;
    virtual std::size_t bytes() const = 0;
  };

  explicit ChargeHistory(int depth = kQEqHistoryDepth);
  ChargeHistory(ChargeHistory &&) = default;
  ChargeHistory &operator=(ChargeHistory &&) = default;

  // --- the caller's side (LAMMPS's per-atom callbacks) ---
  int depth() const { return depth_; }
  int per_atom() const { return 2 * depth_; }  // doubles a block
  void grow(int n);  // room for n atoms; existing entries kept, new ones zero
  int capacity() const { return static_cast<int>(values_.size() / per_atom()); }
  void clear();  // every entry zero, the global block too
  void copy(int from, int to);
  int pack(int i, double *buf);          // returns per_atom()
  int unpack(int i, const double *buf);  // grows past the end; returns per_atom()
  // A caller that moves atoms in GPU memory itself (LAMMPS's KOKKOS exchange
  // and sort): the first n atoms' blocks in the mirror, newest (the host's go
  // up first where they are newer; new rows zero), for it to read and write
  // (its writes are then the newest). Null without a mirror (no solve on a
  // GPU yet, or the host driver): the host API above serves then.
  double *gpu_blocks(int n);
  double s(int i, int k);                // k-th newest s (ACKS2: q) of atom i
  double t(int i, int k);                // k-th newest t (ACKS2: u)
  std::size_t bytes() const;             // host and mirror

  // --- a driver's side ---
  // The blocks on the host, brought up to date (n atoms, grown if needed).
  double *host_blocks(int n);
  // The global unknowns' block (kept on the host by every driver).
  double *global_block() { return global_.data(); }
  Mirror *mirror() const { return mirror_.get(); }
  void attach(std::unique_ptr<Mirror> mirror);  // the values go home first
  // After a solve: the mirror holds the newest values of its first `rows`
  // atoms (rows past those that the host has are zero).
  void mirror_is_newest(int rows) { mirror_rows_ = rows; }
  // -1: the host has the newest values; else the mirror's rows (above).
  int mirror_rows() const { return mirror_rows_; }

 private:
  void bring_home();
  double *block(int i) { return qeq_history_block(values_.data(), i, depth_); }

  int depth_;
  std::vector<double> values_;
  std::vector<double> global_;
  std::unique_ptr<Mirror> mirror_;
  int mirror_rows_ = -1;
};

}  // namespace puremd
