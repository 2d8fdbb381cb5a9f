// Portability layer: the physics headers are compiled by g++ (host reference
// driver) and by nvcc (CUDA driver). Everything they need that differs between
// the two lives here and nowhere else.
#pragma once

#include <cmath>

#if defined(__CUDACC__)
#define PMD_HD __host__ __device__
#define PMD_INLINE __forceinline__
#else
#define PMD_HD
#define PMD_INLINE inline
#endif

namespace puremd {

// A 3-vector of doubles; plain struct so device code and host code share layout.
struct vec3 {
  double x, y, z;
};

PMD_HD PMD_INLINE vec3 make_vec3(double x, double y, double z) { return vec3{x, y, z}; }
PMD_HD PMD_INLINE vec3 operator+(vec3 a, vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
PMD_HD PMD_INLINE vec3 operator-(vec3 a, vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
PMD_HD PMD_INLINE vec3 operator-(vec3 a) { return {-a.x, -a.y, -a.z}; }
PMD_HD PMD_INLINE vec3 operator*(double s, vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
PMD_HD PMD_INLINE vec3 operator*(vec3 a, double s) { return {s * a.x, s * a.y, s * a.z}; }
PMD_HD PMD_INLINE vec3 &operator+=(vec3 &a, vec3 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  return a;
}
PMD_HD PMD_INLINE vec3 &operator-=(vec3 &a, vec3 b) {
  a.x -= b.x;
  a.y -= b.y;
  a.z -= b.z;
  return a;
}
PMD_HD PMD_INLINE double dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
PMD_HD PMD_INLINE double norm2(vec3 a) { return dot(a, a); }

// |a|^2 as ((x*x + y*y) + z*z) with every operation rounded on its own, as
// the host computes it: on the GPU nvcc would fuse these into FMAs, and then a
// cut-off test could pick a pair the host does not (neighbour lists, QEq).
PMD_HD PMD_INLINE double norm2_host_rounding(vec3 a) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(__dadd_rn(__dmul_rn(a.x, a.x), __dmul_rn(a.y, a.y)), __dmul_rn(a.z, a.z));
#else
  return (a.x * a.x + a.y * a.y) + a.z * a.z;
#endif
}

// The vector x_j - x_i of a listed pair and its length, as the list's own
// cut-off test rounds them: lists store partners only, readers recompute
// these from the positions (cheaper than storing 32 bytes per entry), and
// the result is the same to the bit on host and device.
struct PairGeometry {
  vec3 dvec;  // x_j - x_i
  double d;   // |x_j - x_i|
};
PMD_HD PMD_INLINE PairGeometry pair_geometry(const vec3 &xi, const vec3 &xj) {
  const vec3 dv = xj - xi;
  return {dv, sqrt(norm2_host_rounding(dv))};
}
PMD_HD PMD_INLINE vec3 cross(vec3 a, vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
PMD_HD PMD_INLINE double sqr(double a) { return a * a; }
// x^y for x > 0 as exp(y log x): within a few ulps of pow (relative error
// about (|y log x| + 2) x 1.1e-16), at a fraction of its cost on the GPU
// (no special cases, no extended-precision logarithm).
PMD_HD PMD_INLINE double pow_positive(double x, double y) { return exp(y * log(x)); }
PMD_HD PMD_INLINE double cube(double a) { return a * a * a; }
// x^(-1/3): CUDA's rcbrt (1 ulp, no division) on the GPU, 1 / cbrt(x) on
// the host; the two differ by an ulp or so.
PMD_HD PMD_INLINE double inv_cbrt(double x) {
#if defined(__CUDA_ARCH__)
  return rcbrt(x);
#else
  return 1.0 / cbrt(x);
#endif
}

// Virial r (x) f of the force f = -g acting at r, in LAMMPS order
// (xx yy zz xy xz yz). Global and per-atom virials both use it.
PMD_HD PMD_INLINE void virial_of(vec3 r, vec3 g, double w[6]) {
  w[0] = -r.x * g.x;
  w[1] = -r.y * g.y;
  w[2] = -r.z * g.z;
  w[3] = -r.x * g.y;
  w[4] = -r.x * g.z;
  w[5] = -r.y * g.z;
}

// Accumulate into memory that other threads may also write. On the host the
// reference driver is serial, so a plain add is exact and deterministic.
PMD_HD PMD_INLINE void atomic_add(double *p, double v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#else
  *p += v;
#endif
}
PMD_HD PMD_INLINE void atomic_add(vec3 *p, vec3 v) {
  atomic_add(&p->x, v.x);
  atomic_add(&p->y, v.y);
  atomic_add(&p->z, v.z);
}

}  // namespace puremd
