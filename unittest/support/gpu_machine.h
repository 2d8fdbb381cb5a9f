// Whether a GPU test may skip. It decides without CUDA whether this machine
// has an NVIDIA GPU (a /dev/nvidia<N> device node), so that a CUDA failure on
// a machine with a GPU (a driver mismatch, a kernel that faults at set-up,
// CUDA_VISIBLE_DEVICES hiding every GPU) fails the test instead of reading
// as "no GPU". REAXFF_CUDA_EXPECT_GPU=1 or 0 overrides the look.
#pragma once

#include <glob.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

inline bool gpu_machine() {
  if (const char *e = std::getenv("REAXFF_CUDA_EXPECT_GPU")) return std::string(e) != "0";
  glob_t g{};
  const bool found = glob("/dev/nvidia[0-9]*", 0, nullptr, &g) == 0 && g.gl_pathc > 0;
  globfree(&g);
  return found;
}

// A LAMMPS-level test whose run with `driver cuda` stopped with LAMMPS's error
// `err`: skipped where the machine has no GPU and LAMMPS says so, failed
// everywhere else.
#define SKIP_WITHOUT_GPU_ELSE_FAIL(err)                                                            \
  do {                                                                                             \
    if (!gpu_machine() && (err).find("no usable GPU") != std::string::npos) GTEST_SKIP() << (err); \
    FAIL() << (err);                                                                               \
  } while (0)
