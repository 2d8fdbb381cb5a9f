/* What differs between the KOKKOS packages of the LAMMPS versions the
   plugin's KOKKOS half builds against (4Feb2025: Kokkos 4.5, C++17;
   4Jul2026: Kokkos 4.6.99, C++20), read from LAMMPS's own declarations, so
   that one source builds against both and nothing is chosen by hand:
   - the exchange buffer of KokkosBase::pack/unpack_exchange_kokkos
     (DAT::tdual_xfloat_2d, then DAT::tdual_double_2d_lr);
   - the view layout setting LAMMPS's KOKKOS was built with (4Jul2026's
     KOKKOS_LAYOUT, legacy or default; none before it).
   The rest is common to both: atomKK's arrays are read through
   view_device() / view_host() (DualViews in 4Feb2025, TransformViews, whose
   d_view and h_view are private, in 4Jul2026), and their element types and
   layouts are checked here, at compile time, as the CUDA driver reads them. */
#ifndef LMP_REAXFF_GPU_KOKKOS_COMPAT_H
#define LMP_REAXFF_GPU_KOKKOS_COMPAT_H

#include <type_traits>
#include <utility>

#include "atom_kokkos.h"
#include "kokkos_base.h"
#include "kokkos_type.h"

namespace reaxff_gpu::kk {

// The type KokkosBase's pack_exchange_kokkos takes its buffer as.
template <class Method>
struct ExchangeBufferOf;
template <class R, class C, class Count, class Buffer, class... Rest>
struct ExchangeBufferOf<R (C::*)(Count, Buffer &, Rest...)> {
  using type = Buffer;
};
using ExchangeBuffer =
    typename ExchangeBufferOf<decltype(&LAMMPS_NS::KokkosBase::pack_exchange_kokkos)>::type;

// The setting of LAMMPS's KOKKOS_LAYOUT these headers were compiled with
// (kokkos_type.h defines one of the two, legacy when none is given); null for
// a LAMMPS without the setting, whose Info has no "layout" to compare.
#if defined(LMP_KOKKOS_LAYOUT_DEFAULT)
inline constexpr const char *kLayout = "default";
#elif defined(LMP_KOKKOS_LAYOUT_LEGACY)
inline constexpr const char *kLayout = "legacy";
#else
inline constexpr const char *kLayout = nullptr;
#endif
// The precision the checks below allow: the only one the plugin builds for.
inline constexpr const char *kPrecision = "double";

// An atomKK array's views on the device and on the host (LAMMPS's legacy host
// arrays in 4Jul2026, which the host driver reads).
template <class Array>
using DeviceView = std::decay_t<decltype(std::declval<Array &>().view_device())>;
template <class Array>
using HostView = std::decay_t<decltype(std::declval<Array &>().view_host())>;

// Both views hold Data (element type and rank), rows of several values in
// order (LayoutRight; a view of one value an atom is the same either way).
template <class Array, class Data>
constexpr bool holds() {
  using Device = DeviceView<Array>;
  using Host = HostView<Array>;
  if (!std::is_same_v<typename Device::data_type, Data> ||
      !std::is_same_v<typename Host::data_type, Data>)
    return false;
  return std::is_pointer_v<Data> ||
         (std::is_same_v<typename Device::array_layout, Kokkos::LayoutRight> &&
          std::is_same_v<typename Host::array_layout, Kokkos::LayoutRight>);
}

using LAMMPS_NS::AtomKokkos;
static_assert(holds<decltype(AtomKokkos::k_x), double *[3]>() &&
                  holds<decltype(AtomKokkos::k_f), double *[3]>() &&
                  holds<decltype(AtomKokkos::k_q), double *>(),
              "reaxff/gpu needs LAMMPS's KOKKOS package in double precision, with positions and "
              "forces as rows of 3 doubles (KOKKOS_PREC=double, and KOKKOS_LAYOUT=legacy where "
              "Kokkos's default layout is not LayoutRight)");
static_assert(holds<decltype(AtomKokkos::k_type), int *>() &&
                  holds<decltype(AtomKokkos::k_mask), int *>() &&
                  holds<decltype(AtomKokkos::k_tag), LAMMPS_NS::tagint *>(),
              "reaxff/gpu reads KOKKOS's types, masks and tags as plain arrays");

}  // namespace reaxff_gpu::kk

#endif
