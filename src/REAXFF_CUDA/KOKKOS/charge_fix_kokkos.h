// Our charge fixes' KOKKOS form under `-k on` (one file here registers each), as LAMMPS's KOKKOS
// exchange and sort need them: their per-atom history (puremd::ChargeHistory) moves with the atoms
// where the atoms move, on the GPU, so that LAMMPS keeps its KOKKOS
// exchange, borders and sort on the device (a fix without these makes them
// all host work, every array copied both ways, at each re-neighbouring).
// The history's blocks are read and written where the CUDA driver keeps
// them (ChargeHistory::gpu_blocks); where none are on a GPU (host driver,
// Kokkos's host backend, no solve yet) through its host API.
#pragma once

#include <string>
#include <vector>

#include "atom.h"
#include "atom_masks.h"
#include "kokkos_atoms.h"
#include "kokkos_base.h"
#include "kokkos_compat.h"
#include "kokkos_type.h"

namespace LAMMPS_NS {
namespace charge_fix_kokkos {

using HostView = Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

// `count` doubles at p in the memory of `space`, as a view there.
template <class Space>
using Unmanaged = Kokkos::View<double *, typename Space::memory_space, Kokkos::MemoryUnmanaged>;

template <class Base>
class ChargeFixKokkos : public Base, public KokkosBase {
 public:
  // A KOKKOS fix beside the KOKKOS pair (pair_reaxff_gpu.cpp): the solve
  // reads and writes the arrays below where the pair's engine does (init);
  // the halo's recording runs through LAMMPS's host forward comm.
  ChargeFixKokkos(LAMMPS *lmp, int narg, char **arg) : Base(lmp, narg, arg) {
    this->kokkosable = 1;
    this->execution_space = Device;
    this->datamask_read = X_MASK | Q_MASK | TYPE_MASK | TAG_MASK | MASK_MASK;
    this->datamask_modify = Q_MASK;
    this->forward_comm_device = 0;
    this->exchange_comm_device = this->sort_device = 1;
  }

  int pack_exchange_kokkos(const int &nsend, reaxff_gpu::kk::ExchangeBuffer &k_buf,
                           DAT::tdual_int_1d k_sendlist, DAT::tdual_int_1d k_copylist,
                           ExecutionSpace space) override {
    const int per = this->history.per_atom();
    if (double *h = gpu_history(space)) {
      double *buf = k_buf.view<LMPDeviceType>().data();
      const int *send = k_sendlist.view<LMPDeviceType>().data();
      const int *copy = k_copylist.view<LMPDeviceType>().data();
      // (a kept atom's block fills a sent one's slot: sources are never sent)
      Kokkos::parallel_for(
          Kokkos::RangePolicy<LMPDeviceType>(0, nsend), KOKKOS_LAMBDA(const int k) {
            const int i = send[k], j = copy[k];
            for (int m = 0; m < per; ++m) buf[k * per + m] = h[i * per + m];
            if (j > -1)
              for (int m = 0; m < per; ++m) h[i * per + m] = h[j * per + m];
          });
      LMPDeviceType().fence();
      return nsend * per;
    }
    const std::vector<int> send = on_host(k_sendlist, space, nsend);
    const std::vector<int> copy = on_host(k_copylist, space, nsend);
    std::vector<double> packed(static_cast<size_t>(nsend) * per);
    this->history_call("pack_history", [&] {
      for (int k = 0; k < nsend; ++k) this->history.pack(send[k], packed.data() + k * per);
      for (int k = 0; k < nsend; ++k)
        if (copy[k] > -1) this->history.copy(copy[k], send[k]);
    });
    to_space(k_buf, space, packed);
    return nsend * per;
  }

  void unpack_exchange_kokkos(reaxff_gpu::kk::ExchangeBuffer &k_buf, DAT::tdual_int_1d &k_indices,
                              int nrecv, int /*nrecv1*/, int /*nextrarecv1*/,
                              ExecutionSpace space) override {
    const int per = this->history.per_atom();
    if (double *h = gpu_history(space)) {
      const double *buf = k_buf.view<LMPDeviceType>().data();
      const int *index = k_indices.view<LMPDeviceType>().data();
      Kokkos::parallel_for(
          Kokkos::RangePolicy<LMPDeviceType>(0, nrecv), KOKKOS_LAMBDA(const int k) {
            const int i = index[k];
            if (i > -1)
              for (int m = 0; m < per; ++m) h[i * per + m] = buf[k * per + m];
          });
      LMPDeviceType().fence();
      return;
    }
    const std::vector<int> index = on_host(k_indices, space, nrecv);
    std::vector<double> packed(static_cast<size_t>(nrecv) * per);
    from_space(k_buf, space, packed);
    this->history_call("unpack_history", [&] {
      for (int k = 0; k < nrecv; ++k)
        if (index[k] > -1) this->history.unpack(index[k], packed.data() + k * per);
    });
  }

  void sort_kokkos(Kokkos::BinSort<KeyViewType, BinOp> &sorter) override {
    const int per = this->history.per_atom(), n = this->atom->nmax;
    double *h = nullptr;
    this->history_call("sort_history", [&] {
      h = reaxff_gpu::kokkos_device_is_gpu() ? this->history.gpu_blocks(n)
                                             : this->history.host_blocks(n);
    });
    if (h) {  // in Kokkos's device memory (the host's for a host backend)
      Kokkos::View<double **, Kokkos::LayoutRight, LMPDeviceType, Kokkos::MemoryUnmanaged> rows(
          h, n, per);
      sorter.sort(LMPDeviceType(), rows);
      return;
    }
    // no GPU blocks yet: the sorter's order applied on the host
    auto order =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sorter.get_permute_vector());
    const int count = static_cast<int>(order.extent(0));
    this->history_call("sort_history", [&] {
      const double *old = this->history.host_blocks(n);
      std::vector<double> sorted(old, old + static_cast<size_t>(count) * per);
      for (int k = 0; k < count; ++k)
        for (int m = 0; m < per; ++m) sorted[k * per + m] = old[order(k) * per + m];
      double *dst = this->history.host_blocks(n);
      std::copy(sorted.begin(), sorted.end(), dst);
    });
  }

 private:
  // The history's blocks on the GPU, when the exchange runs there and the
  // driver keeps them there; else null (the host API then).
  double *gpu_history(ExecutionSpace space) {
    if (space != Device || !reaxff_gpu::kokkos_device_is_gpu()) return nullptr;
    double *h = nullptr;
    this->history_call("gpu_history", [&] { h = this->history.gpu_blocks(this->atom->nmax); });
    return h;
  }

  static std::vector<int> on_host(DAT::tdual_int_1d &v, ExecutionSpace space, int count) {
    std::vector<int> out(count);
    Kokkos::View<int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(out.data(), count);
    if (space == Device)
      Kokkos::deep_copy(dst, Kokkos::subview(v.view<LMPDeviceType>(), std::make_pair(0, count)));
    else
      Kokkos::deep_copy(dst, Kokkos::subview(v.view<LMPHostType>(), std::make_pair(0, count)));
    return out;
  }

  static void to_space(reaxff_gpu::kk::ExchangeBuffer &buf, ExecutionSpace space,
                       const std::vector<double> &values) {
    HostView src(const_cast<double *>(values.data()), values.size());
    if (space == Device)
      Kokkos::deep_copy(Unmanaged<LMPDeviceType>(buf.view<LMPDeviceType>().data(), values.size()),
                        src);
    else
      Kokkos::deep_copy(Unmanaged<LMPHostType>(buf.view<LMPHostType>().data(), values.size()), src);
  }

  static void from_space(reaxff_gpu::kk::ExchangeBuffer &buf, ExecutionSpace space,
                         std::vector<double> &values) {
    HostView dst(values.data(), values.size());
    if (space == Device)
      Kokkos::deep_copy(dst,
                        Unmanaged<LMPDeviceType>(buf.view<LMPDeviceType>().data(), values.size()));
    else
      Kokkos::deep_copy(dst, Unmanaged<LMPHostType>(buf.view<LMPHostType>().data(), values.size()));
  }
};

}  // namespace charge_fix_kokkos
}  // namespace LAMMPS_NS

namespace reaxff_gpu {

// The KOKKOS form of charge fix T, registered (kokkos_atoms.h) by one line
// in a file of its own here:
//   const reaxff_gpu::KokkosChargeFix<LAMMPS_NS::FixQtpieReaxFFGPU> kQtpie;
template <class T>
struct KokkosChargeFix {
  KokkosChargeFix() {
    register_kokkos_charge_fix(typeid(T), [](LAMMPS_NS::LAMMPS *lmp, int narg, char **arg) {
      return static_cast<LAMMPS_NS::Fix *>(
          new LAMMPS_NS::charge_fix_kokkos::ChargeFixKokkos<T>(lmp, narg, arg));
    });
  }
};

}  // namespace reaxff_gpu
